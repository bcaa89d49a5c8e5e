import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SimjobError, ExitCode } from '../../src/errors.js';
import { renderError } from '../../src/cli/output/errors.js';
import { Output, painted } from '../../src/cli/output/io.js';
import { terminalGuard, terminalSafe, terminalSafeLine } from '../../src/util/safe.js';
import { printTable } from '../../src/cli/output/table.js';
import { memoryStream } from '../helpers/streams.js';

const ATTACK = '\u001b]0;title\u0007\u001b[2K\u001b[31mred\u009b1m\u007f\u0000';
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function output(isTTY: boolean, colour: boolean, columns = 60) {
  const stdout = memoryStream(isTTY, columns);
  const stderr = memoryStream(isTTY);
  const env = colour ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' };
  return { out: new Output({ stdout, stderr, env, json: false, noColor: false, quiet: false }), stdout, stderr };
}

describe('terminalSafe', () => {
  it('shows every control as an escape, keeps tab and newline; terminalSafeLine escapes those too', () => {
    expect(terminalSafe(`a${ATTACK}\tb\nc`)).toBe('a\\x1b]0;title\\x07\\x1b[2K\\x1b[31mred\\x9b1m\\x7f\\x00\tb\nc');
    expect(terminalSafeLine('a\tb\r\nc')).toBe('a\\x09b\\x0d\\x0ac');
    expect(terminalSafe('bidi \u202e override \u2028')).toBe('bidi \\u202e override \\u2028');
  });
  it('the guard keeps complete SGR codes only when the stream has colour', () => {
    expect(terminalGuard('\u001b[1;31mok\u001b[39m \u001b[2K', true)).toBe('\u001b[1;31mok\u001b[39m \\x1b[2K');
    expect(terminalGuard('\u001b[31mok', false)).toBe('\\x1b[31mok');
  });
});

describe('Output with foreign text', () => {
  it("escapes key/value values but keeps a painted value's own colour", () => {
    const { out, stdout } = output(true, true);
    out.keyValues([
      ['Reason', ATTACK],
      ['Status', painted(out.c.red('failed'))],
    ]);
    const text = stdout.text();
    expect(text).toContain('\\x1b[31mred');
    expect(text).toContain('\u001b[31mfailed\u001b[39m');
    expect(stripVTControlCharacters(text)).not.toMatch(CONTROL);
  });
  it('writes no control character at all without colour, whatever a view passes', () => {
    const { out, stdout, stderr } = output(false, false);
    out.line(ATTACK);
    out.notice(ATTACK);
    out.warn(ATTACK);
    out.err(`${ATTACK}\n`);
    expect(stdout.text() + stderr.text()).not.toMatch(CONTROL);
  });
  it('an error message is one escaped line', () => {
    const { out, stderr } = output(false, false);
    const code = renderError(out, new SimjobError(`bad\n${ATTACK}`, ExitCode.USAGE, 'fix\rit'), false);
    expect(code).toBe(2);
    expect(stderr.text().split('\n')).toHaveLength(2); // one line and the final newline
    expect(stderr.text()).not.toMatch(CONTROL);
  });
});

describe('tables on a terminal', () => {
  it('a long single token in any column wraps in pieces (never cut) so every line fits the width', () => {
    const { out, stdout } = output(true, false, 60);
    const token = 'x'.repeat(500);
    printTable(
      out,
      [{ a: token, b: 'short', c: `${ATTACK}${token}` }],
      [
        { header: 'A', value: (r) => r.a },
        { header: 'B', value: (r) => r.b },
        { header: 'C', value: (r) => r.c, shrinkable: true },
      ],
    );
    const lines = stdout.text().trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
    expect(lines[1]).toContain('short');
    expect(stdout.text().match(/x(?![0-9a-f]{2})/g)?.length).toBeGreaterThanOrEqual(1000); // the escapes' x too
    expect(stdout.text()).not.toMatch(CONTROL);
  });
  it('piped cells are one line: a newline or tab inside a value cannot add a row or a column', () => {
    const { out, stdout } = output(false, false);
    printTable(
      out,
      [{ a: 'one\ntwo\tthree' }],
      [
        { header: 'A', value: (r) => r.a },
        { header: 'B', value: () => 'b' },
      ],
    );
    expect(stdout.text()).toBe('A\tB\none\\x0atwo\\x09three\tb\n');
  });
  it('headers are one line too (the matrix names its columns after profiles), piped and on a terminal', () => {
    for (const isTTY of [false, true]) {
      const { out, stdout } = output(isTTY, false);
      printTable(
        out,
        [{ a: '1' }],
        [
          { header: 'mage\nfire\tx', value: (r) => r.a },
          { header: 'B', value: () => 'b' },
        ],
      );
      const [header, row, ...rest] = stdout.text().trimEnd().split('\n');
      expect(header, String(isTTY)).toContain('mage\\x0afire\\x09x');
      expect(row).toMatch(/^1\s+b$/);
      expect(rest).toEqual([]);
    }
  });
});
