import { mkdirSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { allCommands, commandModel } from '../../../src/cli/completions/model.js';
import { simjobCompletionOptions, simjobProgram } from '../../../src/cli/completions/simjob.js';
import { simjob } from '../../helpers/cli.js';
import { BASH_COMPLETION_LIB, completeBash, completeFish, completeZsh, shellInstalled, type ShellName } from './shells.js';
import { noteSkipped } from '../../helpers/skip-note.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * The scripts `simjob completion <shell>` prints, loaded into the real bash, zsh and fish, answering Tab presses.
 * A shell that is not installed fails these tests on CI (.ci/run installs all three) and skips them locally.
 */

let work: string;
let home: string;
let dir: string;
const scripts = { bash: '', zsh: '', fish: '' };

beforeAll(async () => {
  const root = tempDir('simjob-completions-');
  // The folder Tab runs in: profiles to complete, a folder, and a file that is not a profile. The scripts and the
  // shells' home (fish and zsh write there) live beside it, so they never show up as completions.
  work = join(root, 'work');
  home = join(root, 'home');
  dir = join(root, 'scripts');
  for (const d of [work, home, dir, join(work, 'profiles'), join(work, 'out')]) mkdirSync(d, { recursive: true });
  for (const name of ['profile-a.simc', 'profile-b.simc', 'notes.txt']) writeFileSync(join(work, name), '');
  for (const [shell, file] of [['bash', 'simjob.bash'], ['zsh', '_simjob'], ['fish', 'simjob.fish']] as const) {
    const printed = await simjob(['completion', shell]);
    expect(printed.exitCode).toBe(0);
    expect(printed.stderr).toBe('');
    writeFileSync(join(dir, file), printed.stdout);
    scripts[shell] = join(dir, file);
  }
});

/** What each shell offers at the end of each line; `exactly` or `includes` (commands also list `help`). */
const CASES: Array<{ line: string; exactly?: string[]; includes?: string[]; excludes?: string[] }> = [
  { line: 'simjob su', exactly: ['submit'] },
  { line: 'simjob submit --ch', exactly: ['--channel'] },
  { line: 'simjob submit --channel ', exactly: ['latest', 'nightly', 'weekly'] },
  { line: 'simjob submit -c ', exactly: ['latest', 'nightly', 'weekly'] },
  { line: 'simjob submit --channel=', exactly: ['latest', 'nightly', 'weekly'] },
  { line: 'simjob submit --priority ', exactly: ['background', 'high', 'standard'] },
  { line: 'simjob submit --json-version ', exactly: ['2', '3'] },
  { line: 'simjob submit --branch ', exactly: ['midnight'] },
  { line: 'simjob config ', includes: ['get', 'list', 'set', 'unset'], excludes: ['submit'] },
  { line: 'simjob config set ', includes: ['base_url', 'channel', 'simc.path', 'webhook.url'] },
  { line: 'simjob config get simc.', exactly: ['simc.latest', 'simc.nightly', 'simc.path', 'simc.weekly'] },
  { line: 'simjob webhook ', includes: ['listen', 'verify'] },
  { line: 'simjob webhook secret ', includes: ['set', 'unset'] },
  { line: 'simjob help ', includes: ['submit', 'doctor', 'environment', 'exit-codes'] },
  { line: 'simjob completion ', exactly: ['bash', 'fish', 'zsh'] },
  { line: 'simjob --profile ci su', exactly: ['submit'] },
  { line: 'simjob -p ci config s', exactly: ['set'] },
  // Paths: profiles for submit's arguments and file-valued flags; only folders for --dir.
  { line: 'simjob submit prof', exactly: ['profile-a.simc', 'profile-b.simc', 'profiles'] },
  { line: 'simjob submit --channel nightly --wait profile-a.simc prof', exactly: ['profile-a.simc', 'profile-b.simc', 'profiles'] },
  { line: 'simjob submit --simc no', exactly: ['notes.txt'] },
  { line: 'simjob webhook verify --body-file no', exactly: ['notes.txt'] },
  { line: 'simjob artifacts 519253542012420096 -o ', exactly: ['out', 'profiles'] },
  // A job id is free text: no file names offered.
  { line: 'simjob status ', exactly: [] },
  { line: 'simjob status 519253542012420096 --w', exactly: ['--wait'] },
];

const drivers: Record<ShellName, (lines: string[]) => Promise<string[][]>> = {
  bash: (lines) => completeBash(scripts.bash, lines, { cwd: work, home, library: false }),
  zsh: (lines) => completeZsh(dir, lines, { cwd: work, home }),
  fish: (lines) => completeFish(scripts.fish, lines, { cwd: work, home }),
};

function check(results: string[][]): void {
  CASES.forEach((c, i) => {
    const got = results[i];
    if (c.exactly) expect(got, c.line).toEqual([...c.exactly].sort());
    for (const word of c.includes ?? []) expect(got, c.line).toContain(word);
    for (const word of c.excludes ?? []) expect(got, c.line).not.toContain(word);
  });
}

for (const shell of ['bash', 'zsh', 'fish'] as const) {
  const installed = shellInstalled(shell);
  if (!installed && !process.env.CI) {
    noteSkipped(`the ${shell} completion tests`, `${shell} is not installed (apt-get install ${shell}; .ci/run does)`);
  }
  describe.skipIf(!installed && !process.env.CI)(`${shell} completion`, () => {
    it(`is installed (CI installs it in .ci/run)`, () => {
      expect(installed, `${shell} is missing: apt-get install -y ${shell}`).toBe(true);
    });

    it('offers commands, flags, flag values, subcommands and paths', { timeout: 60_000 }, async () => {
      check(await drivers[shell](CASES.map((c) => c.line)));
    });

    if (shell !== 'zsh') {
      // Cheap in bash and fish, so exhaustive: every command, subcommand, flag and listed value of the tree.
      it('completes every command and flag of the tree', async () => {
        const { lines, expected } = everyCompletion();
        const results = await drivers[shell](lines);
        lines.forEach((line, i) => {
          for (const word of expected[i]!) expect(results[i], line).toContain(word);
        });
      });
    }
  });
}

describe.skipIf(!shellInstalled('zsh') && !process.env.CI)('zsh with the script sourced from .zshrc instead of $fpath', () => {
  it('registers itself with compdef and completes the same', async () => {
    const lines = ['simjob su', 'simjob submit --channel ', 'simjob config '];
    const [command, channel, config] = await completeZsh(dir, lines, { cwd: work, home, sourced: true });
    expect(command).toEqual(['submit']);
    expect(channel).toEqual(['latest', 'nightly', 'weekly']);
    expect(config).toEqual(expect.arrayContaining(['get', 'list', 'set', 'unset']));
  });
});

if (!existsSync(BASH_COMPLETION_LIB) && !process.env.CI) {
  noteSkipped('bash completion with the bash-completion package', `${BASH_COMPLETION_LIB} is missing (apt-get install bash-completion)`);
}
describe.skipIf(!existsSync(BASH_COMPLETION_LIB) && !process.env.CI)('bash with the bash-completion package loaded', () => {
  it('offers the same words and uses its file completion', async () => {
    expect(existsSync(BASH_COMPLETION_LIB), `${BASH_COMPLETION_LIB} is missing: apt-get install -y bash-completion`).toBe(true);
    check(await completeBash(scripts.bash, CASES.map((c) => c.line), { cwd: work, home, library: true }));
  });
});

/** Per command: its subcommands, its flags (after "-"), and the values of each flag that lists them. */
function everyCompletion(): { lines: string[]; expected: string[][] } {
  const lines: string[] = [];
  const expected: string[][] = [];
  const model = commandModel(simjobProgram(), simjobCompletionOptions());
  for (const command of allCommands(model)) {
    const prefix = ['simjob', ...command.path].join(' ');
    if (command.subcommands.length) {
      lines.push(`${prefix} `);
      expected.push(command.subcommands.map((s) => s.name));
    }
    lines.push(`${prefix} -`);
    expected.push(command.options.flatMap((o) => o.names));
    for (const option of command.options) {
      const values = option.value?.completion;
      if (values?.kind === 'words') {
        lines.push(`${prefix} ${option.names.at(-1)} `);
        expected.push(values.words);
      }
    }
  }
  expect(lines.length).toBeGreaterThan(30);
  return { lines, expected };
}

