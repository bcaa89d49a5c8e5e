import { Option } from '@commander-js/extra-typings';
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPLETION_FILES, completionScript, SHELLS, staleScripts, type Shell } from '../../../src/cli/completions/index.js';
import { simjobCompletion, simjobCompletionOptions, simjobProgram } from '../../../src/cli/completions/simjob.js';
import { REPO_ROOT } from '../../helpers/shared.js';
import { isolatedDirs, simjob } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * The committed scripts in completions/ (shipped in the package) must be what src/cli/program.ts generates now: a flag
 * or command added there without `npm run completions` fails here.
 */
function committed(): Record<Shell, string | undefined> {
  const read = (file: string) => {
    try {
      return readFileSync(resolve(REPO_ROOT, file), 'utf8');
    } catch {
      return undefined;
    }
  };
  return { bash: read(COMPLETION_FILES.bash), zsh: read(COMPLETION_FILES.zsh), fish: read(COMPLETION_FILES.fish) };
}

describe('completion scripts in completions/', () => {
  it('match the command definitions (run `npm run completions` when this fails)', () => {
    const stale = staleScripts(simjobProgram(), committed(), simjobCompletionOptions());
    expect(stale.map((s) => COMPLETION_FILES[s]), 'stale completion scripts: run `npm run completions`').toEqual([]);
  });

  it('are what `simjob completion <shell>` prints', async () => {
    for (const shell of SHELLS) {
      const printed = await simjob(['completion', shell]);
      expect(printed.exitCode).toBe(0);
      expect(printed.stdout).toBe(simjobCompletion(shell));
    }
    // --json wraps the script; the `output` setting alone does not (`> file` must write a script).
    const json = await simjob(['completion', 'fish', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ shell: 'fish', script: simjobCompletion('fish') });
    const env = isolatedDirs();
    expect((await simjob(['config', 'set', 'output', 'json'], { env })).exitCode).toBe(0);
    expect((await simjob(['completion', 'zsh'], { env })).stdout).toBe(simjobCompletion('zsh'));

    const unknown = await simjob(['completion', 'tcsh']);
    expect(unknown).toMatchObject({ exitCode: 2, stdout: '', stderr: 'Error: shell must be one of bash, zsh, fish (got "tcsh").\n' });
  });

  it('are reported stale when a flag, a command or a choice is added to the program', () => {
    const files = committed();
    const options = simjobCompletionOptions();

    const withFlag = simjobProgram();
    withFlag.commands.find((c) => c.name() === 'submit')!.option('--brand-new-flag <file>', 'A flag the scripts do not know yet.');
    expect(staleScripts(withFlag, files, options)).toEqual([...SHELLS]);
    for (const shell of SHELLS) expect(completionScript(shell, withFlag, options)).toContain('brand-new-flag');

    const withCommand = simjobProgram();
    withCommand.command('brand-new-command').description('Not in the scripts yet.');
    expect(staleScripts(withCommand, files, options)).toEqual([...SHELLS]);

    const withChoice = simjobProgram();
    const jobs = withChoice.commands.find((c) => c.name() === 'jobs')!;
    jobs.addOption(new Option('--state <state>').choices(['queued', 'running']));
    expect(staleScripts(withChoice, files, options)).toEqual([...SHELLS]);
    for (const shell of SHELLS) expect(completionScript(shell, withChoice, options)).toMatch(/queued running/);

    // And the unchanged program is not stale: the comparison is exact, not "always different".
    expect(staleScripts(simjobProgram(), files, options)).toEqual([]);
  });

  it('`npm run completions` writes the scripts; `-- --check` then passes, and fails naming a file that changed', async () => {
    const dir = tempDir('simjob-completions-script-');
    const script = (...args: string[]) =>
      execa(process.execPath, ['scripts/tsrun.mjs', 'scripts/completions.ts', ...args, '--dir', dir], { cwd: REPO_ROOT, reject: false });

    const missing = await script('--check');
    expect(missing.exitCode).toBe(1);
    const wrote = await script();
    expect(wrote.exitCode, wrote.stderr).toBe(0);
    expect(wrote.stdout).toContain('wrote completions/simjob.bash');
    for (const shell of SHELLS) expect(readFileSync(join(dir, COMPLETION_FILES[shell]), 'utf8')).toBe(simjobCompletion(shell));
    expect((await script('--check')).exitCode).toBe(0);

    const fish = join(dir, COMPLETION_FILES.fish);
    writeFileSync(fish, readFileSync(fish, 'utf8').replace(/^complete .* -l 'channel' .*$/m, ''));
    const stale = await script('--check');
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toBe('Stale: completions/simjob.fish. Run `npm run completions`.');
  });
});
