import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli.js';
import { allCommands, commandModel, type CommandSpec } from '../../src/cli/completions/model.js';
import { simjobCompletionOptions, simjobProgram } from '../../src/cli/completions/simjob.js';
import { ExitCode } from '../../src/errors.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { memoryStream } from '../helpers/streams.js';

/** Help is where users start: every command opens with examples, and the reference topics are complete. */

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = memoryStream();
  const stderr = memoryStream();
  // main() only ever calls write() on them (and reads isTTY/columns).
  const streams = {
    stdout: stdout as unknown as NodeJS.WritableStream,
    stderr: stderr as unknown as NodeJS.WritableStream,
  };
  const code = await main(argv, { env: {}, ...streams, stdin: () => Readable.from([]) });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Every command a user can ask help for: the root, groups and leaves; not hidden ones, not commander's `help`. */
function commands(): CommandSpec[] {
  return allCommands(commandModel(simjobProgram(), simjobCompletionOptions())).filter((c) => c.name !== 'help');
}

describe('command help', () => {
  it('covers every command of the program (none forgotten by this test)', () => {
    const paths = commands().map((c) => c.path.join(' '));
    expect(paths).toEqual(
      expect.arrayContaining(['', 'submit', 'config', 'config get', 'webhook secret unset', 'completion', 'doctor']),
    );
    expect(paths.length).toBeGreaterThanOrEqual(24);
  });

  for (const command of commands()) {
    const path = command.path;
    const name = ['simjob', ...path].join(' ');
    it(`\`${name} --help\` starts with realistic examples`, async () => {
      const { code, stdout } = await run([...path, '--help']);
      expect(code).toBe(0);
      expect(stdout.startsWith('Examples:\n  $ '), `${name} --help starts with:\n${stdout.slice(0, 200)}`).toBe(true);
      const examples = stdout
        .slice('Examples:\n'.length, stdout.indexOf('\n\n'))
        .split('\n')
        .map((l) => l.replace(/^ {2}\$ /, ''));
      expect(examples.length).toBeGreaterThanOrEqual(1);
      for (const example of examples) {
        // Each example runs this command (or, for a group, one below it), with flags that command accepts.
        expect(example).toContain(name);
        const runs = deepest(example, command);
        for (const flag of flagsAfter(example, runs)) {
          expect(
            runs.options.flatMap((o) => o.names),
            `${flag} in "${example}"`,
          ).toContain(flag);
        }
      }
      expect(stdout).toContain(`Usage: ${name}`);
    });
  }
});

function fullName(command: CommandSpec): string {
  return ['simjob', ...command.path].join(' ');
}

/** The most specific command an example runs, from `command` down (`simjob webhook listen` in webhook's help). */
function deepest(example: string, command: CommandSpec): CommandSpec {
  const below = command.subcommands.find((sub) => new RegExp(`${fullName(sub)}(\\s|$)`).test(example));
  return below ? deepest(example, below) : command;
}

/** The flags written after the command's name in an example, up to the end of that command (pipe, redirect, quote). */
function flagsAfter(example: string, command: CommandSpec): string[] {
  const name = fullName(command);
  const rest = example.slice(example.indexOf(name) + name.length).split(/[|><']/)[0] ?? '';
  return [...rest.matchAll(/(?:^|\s)(--?[A-Za-z][\w-]*)/g)].map((m) => m[1]!);
}

describe('simjob help environment', () => {
  it('lists every environment variable the code reads', async () => {
    const { code, stdout } = await run(['help', 'environment']);
    expect(code).toBe(0);
    const read = variablesRead(resolve(REPO_ROOT, 'src'));
    expect(read.size).toBeGreaterThan(15);
    // Platform basics, not simjob settings: HOME (for ~ in paths), Path (Windows' spelling of PATH), PATHEXT.
    const notSettings = new Set(['HOME', 'Path', 'PATHEXT']);
    const missing = [...read].filter((name) => !notSettings.has(name) && !new RegExp(`\\b${name}\\b`).test(stdout));
    expect(missing, 'variables read in src/ but not in `simjob help environment`').toEqual([]);
  });
});

describe('simjob help exit-codes', () => {
  it('lists every exit code simjob uses, and what `doctor` exits with', async () => {
    const { code, stdout } = await run(['help', 'exit-codes']);
    expect(code).toBe(0);
    for (const value of Object.values(ExitCode)) expect(stdout).toMatch(new RegExp(`^ +${value} +\\S`, 'm'));
    expect(stdout).toMatch(/^ +1 +.*doctor/m);
  });
});

/** `env.NAME`, `env?.NAME` and `env['NAME']` reads anywhere under src/. */
function variablesRead(dir: string): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    for (const m of text.matchAll(/\benv\??\.([A-Za-z_][A-Za-z0-9_]*)\b|\benv\[['"]([A-Za-z_][A-Za-z0-9_]*)['"]\]/g)) {
      const name = m[1] ?? m[2]!;
      if (/^[A-Z]/.test(name)) names.add(name);
    }
  }
  return names;
}

describe('simjob help <name>', () => {
  it('a topic with --json is an array of objects on stdout', async () => {
    const codes = await run(['help', 'exit-codes', '--json']);
    expect(codes.code).toBe(0);
    expect(JSON.parse(codes.stdout)).toContainEqual({
      code: 3,
      meaning: expect.stringMatching(/ended unsuccessfully/),
    });
    const variables = await run(['help', 'environment', '--json']);
    expect(JSON.parse(variables.stdout)).toContainEqual({ variable: 'SIMJOB_API_KEY', meaning: expect.any(String) });
    expect(variables.stderr).toBe('');
  });

  it('a name that is neither a command nor a topic is a usage error, not the whole help again', async () => {
    const { code, stdout, stderr } = await run(['help', 'bogus']);
    expect(code).toBe(ExitCode.USAGE);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'Error: "bogus" is not a command or a help topic. Run `simjob help` for the commands; topics: environment, exit-codes.\n',
    );
    expect((await run(['help', 'status'])).stdout).toContain('Usage: simjob status');
  });
});

describe('a usage error commander finds', () => {
  it('ends with the help of the command the line names (global flags before it skipped)', async () => {
    const { code, stderr } = await run(['-p', 'work', 'submit', '--bogus']);
    expect(code).toBe(ExitCode.USAGE);
    expect(stderr).toBe("Error: unknown option '--bogus'. Run `simjob submit --help` for usage.\n");
    expect((await run(['config', 'get'])).stderr).toBe(
      "Error: missing required argument 'key'. Run `simjob config get --help` for usage.\n",
    );
    // a suggestion is a line of its own, and says enough
    expect((await run(['statsu'])).stderr).toBe("Error: unknown command 'statsu'\n(Did you mean status?)\n");
  });
});
