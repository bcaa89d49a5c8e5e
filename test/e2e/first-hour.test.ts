/**
 * What a first-time user runs into (issue 31), each as that user sees it: a job id read as a job id beside the folder
 * `artifacts --download` made for it, a local job's build named by its simc, a prose file refused in one line, and a
 * mistyped value answered with what was meant.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { simjob } from '../helpers/cli.js';
import { ptySkips } from '../helpers/pty.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { freshLocalEnvs, json, profileFile, quickProfile, run } from './local-helpers.js';
import { spawnPty } from './wait-helpers.js';

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

describe('simjob jobs says what each job is', () => {
  it("in words (not the metadata simjob wrote), the user's own --meta beside it, the error code by its state", async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'p.simc', quickProfile('P'));
    const broken = profileFile(env, 'broken.simc', quickProfile('B', ['typo']));
    const runs: string[][] = [
      ['statweights', profile, '--local', '--wait', '--method', 'scale'],
      ['submit', profile, '--local', '--wait', '--meta', 'owner=me', '--scenario', 'fight_style=DungeonSlice'],
      [
        'topgear',
        join(REPO_ROOT, 'examples', 'addon', 'fury-bags-vault.txt'),
        '--slots',
        'trinket',
        '--local',
        '--wait',
      ],
      ['submit', broken, '--local', '--wait'],
    ];
    for (const args of runs) expect([0, 3]).toContain((await run(env, args, 60_000)).exitCode);
    const listed = await run(env, ['jobs', '--local']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const rows = listed.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows[0]).toEqual(['ID', 'Status', 'Created', 'Job', 'Metadata']);
    expect(rows.slice(1).map((r) => [r[1], r[3], r[4] ?? ''])).toEqual([
      ['failed (simulation_error)', 'sim', ''],
      ['completed', 'top gear', ''],
      ['completed', 'sim of p.simc [fight_style=DungeonSlice]', 'owner=me'],
      ['completed', "stat weights of a fury warrior, simc's scale factors", ''],
    ]);
    expect(listed.stdout).not.toMatch(/kind=|statweights=|profile=/);

    if (ptySkips('the pseudo-terminal check of simjob jobs')) return;
    const term = await spawnPty(['jobs', '--local'], env, 100);
    const { exitCode, output } = await term.exit;
    expect(exitCode).toBe(0);
    const text = stripVTControlCharacters(output).replace(/\r/g, '');
    // wrapped at spaces: every word of the description whole on one line
    for (const word of ['weights', 'warrior,', "simc's", 'factors', 'p.simc', '[fight_style=DungeonSlice]'])
      expect(text).toMatch(new RegExp(`(^| )${word.replace(/[[\].]/g, '\\$&')}( |$)`, 'm'));
  }, 120_000);
});
