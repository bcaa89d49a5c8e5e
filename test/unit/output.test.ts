import { describe, expect, it } from 'vitest';
import { Output } from '../../src/cli/output/io.js';
import { printTable } from '../../src/cli/output/table.js';
import { memoryStream } from '../helpers/streams.js';

function output(isTTY: boolean, json = false) {
  const stdout = memoryStream(isTTY, 40);
  const stderr = memoryStream(isTTY);
  return { out: new Output({ stdout, stderr, env: {}, json, noColor: false, quiet: false }), stdout, stderr };
}

describe('output module', () => {
  it('shows a spinner only on a terminal that knows its width (a pty nobody sized says 0 columns)', () => {
    const make = (columns: number, env: NodeJS.ProcessEnv = {}) =>
      new Output({
        stdout: memoryStream(true),
        stderr: memoryStream(true, columns),
        env,
        json: false,
        noColor: false,
        quiet: false,
      });
    expect(make(80).interactive).toBe(true);
    expect(make(0).interactive).toBe(false);
    expect(make(80, { CI: 'true' }).interactive).toBe(false);
  });
  it('prints JSON indented on a TTY and compact when piped', () => {
    const tty = output(true, true);
    tty.out.printJson({ a: 1 });
    expect(tty.stdout.text()).toBe('{\n  "a": 1\n}\n');
    const piped = output(false, true);
    piped.out.printJson({ a: 1 });
    expect(piped.stdout.text()).toBe('{"a":1}\n');
  });
  it('refuses a second JSON document on stdout', () => {
    const { out } = output(false, true);
    out.printJson({});
    expect(() => out.printJson({})).toThrow(/second JSON document/);
  });
  it('keeps human lines off stdout in --json mode', () => {
    const { out, stdout } = output(false, true);
    out.line('hello');
    out.printJson([]);
    expect(stdout.text()).toBe('[]\n');
  });
  it('piped tables are tab-separated with a header and never truncated', () => {
    const { out, stdout } = output(false);
    const long = 'x'.repeat(80);
    printTable(
      out,
      [{ a: '1', b: long }],
      [
        { header: 'A', value: (r) => r.a },
        { header: 'B', value: (r) => r.b, shrinkable: true },
      ],
    );
    expect(stdout.text()).toBe(`A\tB\n1\t${long}\n`);
  });
  it('terminal tables fit the width by shrinking the shrinkable column', () => {
    const { out, stdout } = output(true);
    printTable(
      out,
      [{ a: '1', b: 'y'.repeat(80) }],
      [
        { header: 'A', value: (r) => r.a },
        { header: 'B', value: (r) => r.b, shrinkable: true },
      ],
    );
    const lines = stdout
      .text()
      .replace(/\u001b\[[0-9;]*m/g, '')
      .trimEnd()
      .split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(40);
    // wrapped, never cut: every character of the long cell is still there
    expect(stdout.text()).not.toContain('…');
    expect(lines.join('').replace(/[^y]/g, '')).toBe('y'.repeat(80));
  });
});
