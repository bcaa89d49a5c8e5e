/**
 * What a first-time user runs into (issue 31), each as that user sees it: a job id read as a job id beside the folder
 * `artifacts --download` made for it, a local job's build named by its simc, a prose file refused in one line, and a
 * mistyped value answered with what was meant.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simjob } from '../helpers/cli.js';
import { freshLocalEnvs, json, profileFile, quickProfile, run } from './local-helpers.js';

const freshEnv = freshLocalEnvs();

describe('a local job, start to finish', () => {
  it('its build is the local simc and its version, never a channel, even with a channel set', async () => {
    const env = freshEnv();
    expect((await run(env, ['config', 'set', 'channel', 'nightly'])).exitCode).toBe(0);
    const profile = profileFile(env, 'p.simc', quickProfile('P'));
    const r = await run(env, ['submit', profile, '--local', '--wait']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Build {7}local simc 1201-01 @ 066febf$/m);
    expect(r.stdout + r.stderr).not.toMatch(/nightly/);
    expect(r.stderr).toMatch(/^Submitted job local-\w+ \(local\) from /m);
  });

  it('after `artifacts <id> --download` made the folder <id>, `report <id>` and `compare <id> <id>` there read the job', async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'p.simc', quickProfile('P'));
    const submitted = await run(env, ['submit', profile, '--local', '--wait', '--json']);
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const id = json(submitted).id as string;
    const work = join(dirname(env.SIMJOB_DATA_DIR), 'work');
    mkdirSync(work);
    const download = await simjob(['artifacts', id, '--download'], { env, cwd: work });
    expect(download.exitCode, download.stderr).toBe(0);
    expect(existsSync(join(work, id))).toBe(true);

    const report = await simjob(['report', id, '-o', 'page.html'], { env, cwd: work });
    expect(report.exitCode, report.stderr).toBe(0);
    // The page names the build as the terminal does: the local simc, not a channel.
    expect(readFileSync(join(work, 'page.html'), 'utf8')).toContain('local simc 1201-01 @ 066febf');
    const compare = await simjob(['compare', id, id], { env, cwd: work });
    expect(compare.exitCode, compare.stderr).toBe(0);
    expect(compare.stdout).toContain('P');
    // A path to the folder is still a path: refused as a folder.
    const folder = await simjob(['report', `./${id}`], { env, cwd: work });
    expect(folder.exitCode).toBe(2);
    expect(folder.stderr).toContain(`./${id} is a folder, not a saved --json file.`);
  });

  it('a prose file given as a profile: one note that it is not a simc profile, not a warning per word', async () => {
    const env = freshEnv();
    const notes = profileFile(
      env,
      'notes.txt',
      'My raid notes for tonight\n\nBring flasks and potions, we pull at 8.\n',
    );
    const r = await run(env, ['submit', notes, '--local', '--wait']);
    const warnings = r.stderr.split('\n').filter((line) => line.startsWith('Warning:'));
    expect(warnings).toEqual([
      'Warning: This does not look like a simc profile: no line holds a name=value option. Check the file (an addon /simc export or a profiles/*.simc file).',
    ]);
  });
});

describe('a mistyped value', () => {
  it('--channel nigthly: the allowed values and what was meant, exit 2, nothing sent', async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'p.simc', quickProfile('P'));
    const r = await run(env, ['submit', profile, '--channel', 'nigthly']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      'Error: --channel must be one of nightly, weekly, latest (got "nigthly"). Did you mean nightly?\n',
    );
  });
});
