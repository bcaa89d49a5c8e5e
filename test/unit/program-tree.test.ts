import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/cli/commands/define.js';
import { buildProgram } from '../../src/cli/program.js';
import { memoryStream } from '../helpers/streams.js';

// The CLI defines only the command its argv names (src/cli/program.ts); help, usage errors and suggestions must read
// exactly as with the whole command tree.

async function parse(argv: string[], tree: 'named' | 'whole') {
  const stdout = memoryStream();
  const stderr = memoryStream();
  const rt: Runtime = {
    env: {},
    stdout: stdout as unknown as Runtime['stdout'],
    stderr: stderr as unknown as Runtime['stderr'],
    stdin: () => Readable.from([]),
    signal: new AbortController().signal,
    exitCode: 0,
  };
  const program = buildProgram(rt, argv, tree);
  let error = '';
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (thrown) {
    error = (thrown as { code?: string }).code ?? String(thrown);
  }
  return { stdout: stdout.text(), stderr: stderr.text(), error, commands: program.commands.map((c) => c.name()) };
}

describe('the command tree the CLI defines', () => {
  it('holds only the command argv names, past the global options and their values', async () => {
    expect((await parse(['status', '--help'], 'named')).commands).toEqual(['status']);
    expect((await parse(['--json', '-p', 'jobs', 'status', '--help'], 'named')).commands).toEqual(['status']);
    expect((await parse(['-qdp', 'jobs', 'status', '--help'], 'named')).commands).toEqual(['status']);
    expect(
      (await parse(['--profile=jobs', '--base-url', 'http://x', 'config', 'get', '--help'], 'named')).commands,
    ).toEqual(['config']);
    expect((await parse(['topgear', '--help'], 'named')).commands).toEqual(['topgear']);
  });

  it('is whole where argv names no command, or for completion', async () => {
    const whole = (await parse(['--help'], 'whole')).commands;
    expect(whole.length).toBeGreaterThan(15);
    for (const argv of [
      ['--help'],
      ['statsu'],
      ['help', 'status'],
      ['--bogus', 'status'],
      ['--', 'status'],
      ['completion', 'bash'],
    ]) {
      expect((await parse(argv, 'named')).commands, argv.join(' ')).toEqual(whole);
    }
  });

  const cases = [
    ['status', '--help'],
    ['submit', '--help'],
    ['topgear', '--help'],
    ['config', '--help'],
    ['config', 'set', '--help'],
    ['webhook', 'secret', 'set', '--help'],
    ['-p', 'ci', 'jobs', '--help'],
    ['status'],
    ['status', '1', '--bogus'],
    ['statsu', '1'],
    ['config', 'gte'],
    ['submit', 'x.simc', '--channel', 'daily'],
    ['-q', 'help', 'status'],
    ['--bogus', 'status'],
  ];
  for (const argv of cases) {
    it(`\`simjob ${argv.join(' ')}\` reads as with the whole tree`, async () => {
      const { commands: _named, ...named } = await parse(argv, 'named');
      const { commands: _whole, ...whole } = await parse(argv, 'whole');
      expect(named).toEqual(whole);
      expect(`${named.stdout}${named.stderr}${named.error}`).not.toBe(''); // it did say something
    });
  }
});
