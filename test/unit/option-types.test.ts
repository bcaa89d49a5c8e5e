import { Readable } from 'node:stream';
import { Command } from '@commander-js/extra-typings';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Context } from '../../src/cli/context.js';
import { lazyAction, type Runtime } from '../../src/cli/commands/define.js';
import { memoryStream } from '../helpers/streams.js';
import type { CompareOptions } from '../../src/cli/commands/compare/command.js';
import type { StatusOptions } from '../../src/cli/commands/status/command.js';
import type { SubmitCommandOptions } from '../../src/cli/commands/submit/command.js';
import type { TopGearOptions } from '../../src/cli/commands/topgear/command.js';

import { run as statusRun } from '../../src/cli/commands/status/run.js';
import { run as compareRun } from '../../src/cli/commands/compare/run.js';
import { run as topGearRun } from '../../src/cli/commands/topgear/run.js';

// Each command's options type follows from its flags in src/cli/commands/<name>/command.ts (docs/design.md, Defining a command). The
// type-level checks below are run by `npm run typecheck` (tsc covers test/).

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

describe('renaming a flag in its command.ts', () => {
  // A handler takes its command's exported options type itself, not a copy: so renaming a flag in its command.ts makes
  // the handler's read of the old name a type error, which `npm run typecheck` reports (tsc covers src/ and test/).
  // This used to be shown by compiling the sources with one flag renamed here, 24 s of the unit run for what the
  // typecheck already proves (issue 39).
  it('breaks the handler that reads it: handlers take the inferred options type', () => {
    expectTypeOf<Parameters<typeof statusRun>[2]>().toEqualTypeOf<StatusOptions>();
    expectTypeOf<Parameters<typeof compareRun>[2]>().toEqualTypeOf<CompareOptions>();
    expectTypeOf<Parameters<typeof topGearRun>[2]>().toEqualTypeOf<TopGearOptions>();
    expectTypeOf<StatusOptions>().toHaveProperty('wait');
    expectTypeOf<StatusOptions>().not.toHaveProperty('block');
    expect(statusRun).toBeTypeOf('function');
  });
});
