import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { Command } from '@commander-js/extra-typings';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { lazyAction, type Runtime } from '../../src/commands/define.js';
import { memoryStream } from '../helpers/streams.js';
import type { CompareOptions, StatusOptions, SubmitCommandOptions, TopGearOptions } from '../../src/program.js';

// Each command's options type follows from its flags in src/program.ts (docs/design.md, Defining a command). The
// type-level checks below are run by `npm run typecheck` (tsc covers test/); the compiler test shows that renaming
// a flag in program.ts, and nothing else, no longer compiles.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const programFile = resolve(root, 'src/program.ts');

describe('the options type of a command', () => {
  it('is what its flags parse to', () => {
    expectTypeOf<StatusOptions['wait']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<StatusOptions['timeout']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<SubmitCommandOptions['channel']>().toEqualTypeOf<'nightly' | 'weekly' | 'latest' | undefined>();
    expectTypeOf<SubmitCommandOptions['meta']>().toEqualTypeOf<string[]>();
    expectTypeOf<CompareOptions['failOnRegression']>().toEqualTypeOf<number | undefined>();
    // topgear copies submit's flags but --concurrency, and defines its own --no-multistage.
    expectTypeOf<TopGearOptions['local']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<TopGearOptions['multistage']>().toEqualTypeOf<boolean>();
    expectTypeOf<TopGearOptions>().not.toHaveProperty('concurrency');
  });

  it('has no flag the command does not define', () => {
    const read = (options: StatusOptions) =>
      // @ts-expect-error: status has no --block flag
      options.block;
    expect(read).toBeTypeOf('function');
  });

  it('must be what the handler takes', async () => {
    const rt: Runtime = {
      env: {},
      stdout: memoryStream() as unknown as Runtime['stdout'],
      stderr: memoryStream() as unknown as Runtime['stderr'],
      stdin: () => Readable.from([]),
      signal: new AbortController().signal,
      exitCode: -1,
    };
    const command = new Command('probe').exitOverride().option('-w, --wait').option('--top <n>', 'Top.', Number);
    const handler = async (_ctx: Context, _args: string[], options: { wait?: boolean; top?: number }) =>
      options.wait ? options.top : 0;
    command.action(lazyAction(rt, async () => ({ run: handler })));
    await command.parseAsync(['--wait', '--top', '7'], { from: 'user' });
    expect(rt.exitCode).toBe(7);

    const renamed = async (_ctx: Context, _args: string[], options: { block?: boolean }) => (options.block ? 1 : 0);
    // @ts-expect-error: the handler reads --block, which the command does not define
    command.action(lazyAction(rt, async () => ({ run: renamed })));
    const mistyped = async (_ctx: Context, _args: string[], options: { wait?: boolean; top?: string }) =>
      options.top ? 1 : 0;
    // @ts-expect-error: --top parses to a number, not a string
    command.action(lazyAction(rt, async () => ({ run: mistyped })));
  });
});

describe('renaming a flag in program.ts', () => {
  it('fails to compile where its handler reads the old name', { timeout: 180_000 }, () => {
    const wait = ".option('-w, --wait', 'Wait until the job ends, showing progress.')";
    const source = readFileSync(programFile, 'utf8');
    expect(source).toContain(wait);

    const asIs = typeErrors(source);
    expect(asIs).toEqual([]);

    const renamed = typeErrors(
      source.replace(wait, ".option('-w, --block', 'Wait until the job ends, showing progress.')"),
    );
    const inStatus = renamed.filter((e) => e.file === 'src/commands/status/run.ts');
    expect(inStatus.some((e) => /Property 'wait' does not exist/.test(e.message))).toBe(true);
  });
});

/** tsc's errors for the CLI's sources, with program.ts's text replaced by `programText`. */
function typeErrors(programText: string): { file: string; message: string }[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json did not parse');
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (resolve(file) === programFile ? programText : readFile(file));
  const sources = config.fileNames.filter((file) => file.startsWith(`${root}/src/`));
  const program = ts.createProgram({ rootNames: sources, options: config.options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    file: d.file ? d.file.fileName.slice(root.length + 1) : '',
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}
