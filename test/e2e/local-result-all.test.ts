/**
 * `result --all` of a local job reads the compact profileset list (`profilesets.json`) the job wrote when it ended,
 * not its reports of many megabytes: the same table either way; a job made before the list existed (no file), a
 * broken list or one that is a symlink out of the job folder are read from the reports as before. At 5,000 rows the
 * piped table is checked figure by figure against Intl.NumberFormat.
 */
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshLocalEnvs, json, profileFile, run, type LocalEnv } from './local-helpers.js';

const freshEnv = freshLocalEnvs();

const rows = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => /^\d+\t/.test(l))
    .map((l) => l.split('\t'));

async function finishedJob(
  env: LocalEnv,
  args: string[],
  sets: Record<string, number>,
): Promise<{ id: string; dir: string }> {
  const lines = [
    'warrior="Listed"',
    'spec=fury',
    'level=90',
    'fake_dps=48000',
    ...Object.entries(sets).map(([name, dps]) => `profileset."${name}"+=fake_dps=${dps}`),
    '',
  ];
  const profile = profileFile(env, 'listed.simc', lines.join('\n'));
  const submitted = await run(env, ['submit', profile, '--local', '--wait', '--json', ...args], 60_000);
  expect(submitted.exitCode, submitted.stderr).toBe(0);
  const id = json(submitted).id as string;
  return { id, dir: join(env.SIMJOB_DATA_DIR, 'jobs', id) };
}

async function all(env: LocalEnv, id: string): Promise<string> {
  const shown = await run(env, ['result', id, '--all']);
  expect(shown.exitCode, shown.stderr).toBe(0);
  return shown.stdout;
}

const SETS = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`set ${i}`, 40_000 + i * 250]));

describe('result --all of a local job', () => {
  it('reads the list the job wrote, which holds the rows its report gives; without it (an older job) the report is read', async () => {
    const env = freshEnv();
    const { id, dir } = await finishedJob(env, [], SETS);
    const list = join(dir, 'profilesets.json');
    const fromList = await all(env, id);
    expect(rows(fromList)).toHaveLength(40);

    const text = readFileSync(list, 'utf8');
    rmSync(list); // as a job made before the list existed
    expect(await all(env, id)).toBe(fromList);

    // the list really is what is read: a name changed in it shows
    writeFileSync(list, text.replace('"set 39"', '"renamed in the list"'));
    expect(rows(await all(env, id))[0]?.[1]).toBe('renamed in the list');

    // a broken list is ignored
    writeFileSync(list, '{"version":1,"rows":[["set 1"');
    expect(await all(env, id)).toBe(fromList);

    // so is one that leads out of the job folder (never trusted: symlinks are resolved)
    rmSync(list);
    const outside = join(env.SIMJOB_DATA_DIR, 'elsewhere.json');
    writeFileSync(outside, text.replace('"set 39"', '"from outside the job folder"'));
    symlinkSync(outside, list);
    expect(await all(env, id)).toBe(fromList);
  });

  it('a multistage job lists each profileset at the last stage it reached, as its stage reports give it', async () => {
    const env = freshEnv();
    const { id, dir } = await finishedJob(env, ['--multistage'], SETS);
    const fromList = await all(env, id);
    const stages = new Set(rows(fromList).map((r) => r[6]));
    expect(stages.size).toBeGreaterThan(1); // the leaders went on to later stages
    rmSync(join(dir, 'profilesets.json'));
    expect(await all(env, id)).toBe(fromList);
  });

  it('5,000 profilesets, piped: each row holds the figures of its report entry as Intl.NumberFormat writes them', async () => {
    const env = freshEnv();
    const lines = [
      'warrior="Many"',
      'spec=fury',
      'level=90',
      'iterations=10',
      ...Array.from({ length: 5000 }, (_, i) => `profileset."set ${i}"=potion=disabled`),
      '',
    ];
    const submitted = await run(
      env,
      ['submit', profileFile(env, 'many.simc', lines.join('\n')), '--local', '--wait', '--json'],
      60_000,
    );
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const id = json(submitted).id as string;
    const stdout = await all(env, id);

    // What the table must say, worked out the plain way from the job's report and its baseline.
    const intl = (n: number, digits: number) =>
      new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
    const signed = (n: number, digits: number) =>
      /[1-9]/.test(intl(Math.abs(n), digits))
        ? `${n > 0 ? '+' : '−'}${intl(Math.abs(n), digits)}`
        : intl(Math.abs(n), digits);
    const baseline = json(await run(env, ['result', id, '--json'])).result.summary.mainActor as { mean: number };
    const report = JSON.parse(readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', id, 'report.json'), 'utf8')) as {
      sim: { profilesets: { results: Array<{ name: string; mean: number; mean_error: number }> } };
    };
    const ranked = [...report.sim.profilesets.results].sort((a, b) => b.mean - a.mean);
    const expected = ranked.map((s, i) =>
      [
        i + 1,
        s.name,
        intl(s.mean, 1),
        intl(s.mean_error, 1),
        signed(s.mean - baseline.mean, 1),
        `${signed(((s.mean - baseline.mean) / baseline.mean) * 100, 2)}%`,
        1,
      ].join('\t'),
    );
    const table = stdout.split('\n').filter((l) => l.includes('\t'));
    expect(table[0]).toBe('#\tProfileset\tDPS\t±\tΔ DPS\tΔ %\tStage');
    expect(table.slice(1)).toHaveLength(5000);
    expect(table.slice(1)).toEqual(expected);
  });
});
