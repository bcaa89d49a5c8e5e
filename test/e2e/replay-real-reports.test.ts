/**
 * Eleven real simc JSON reports (test/fixtures/simc/reports-real/, sources in SOURCES.md there), replayed
 * through `submit --local --wait` by the replaying simc (test/replay-simc/simc), which copies the report a profile
 * names to the json path simjob gives it. What simjob shows is checked against values this file computes from each
 * report with its own small reader, not with simjob's code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, REPO_ROOT } from '../helpers/shared.js';
import { cleanUp, json, localEnv, profileFile, run, type LocalEnv } from './local-helpers.js';

const REPLAY_SIMC = resolve(REPO_ROOT, 'test', 'replay-simc', 'simc');
const REPORTS_DIR = join(FIXTURES_DIR, 'reports-real');
const REPORTS = readdirSync(REPORTS_DIR)
  .filter((f) => /^r\d\d_.*\.json$/.test(f))
  .sort();

/** What a report says, read here independently: the headline actor, every profileset and every player, best first. */
interface Expected {
  main: { name: string; mean: number; error: number };
  profilesets: { name: string; mean: number; error: number }[];
  players: { name: string; mean: number; error: number }[];
  notifications: string[];
}

function expectedOf(file: string): Expected {
  const report = JSON.parse(readFileSync(join(REPORTS_DIR, file), 'utf8'));
  const estimator: number = report.sim.options.confidence_estimator;
  const players = report.sim.players.map((p: any) => ({
    name: p.name,
    mean: p.collected_data.dps.mean,
    error: p.collected_data.dps.mean_std_dev * estimator,
  }));
  const profilesets = (report.sim.profilesets?.results ?? []).map((r: any) => ({
    name: r.name,
    mean: r.mean,
    error: r.mean_stddev * estimator,
  }));
  const best = (a: { name: string; mean: number }, b: { name: string; mean: number }) =>
    b.mean - a.mean || a.name.localeCompare(b.name);
  return {
    main: players[0],
    profilesets: profilesets.sort(best),
    players: [...players].sort(best),
    notifications: report.notifications ?? [],
  };
}

/** Rows of the piped (TSV) profileset table: [rank, name, dps, ±, Δ, Δ%, stage] (the actors table has 5 columns). */
const tableRows = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => /^\d+\t/.test(l))
    .map((l) => l.split('\t'))
    .filter((r) => r.length === 7);
const number = (cell: string) => Number(cell.replace(/,/g, '').replace('−', '-'));

let env: LocalEnv;
const jobs = new Map<string, { id: string; submitOut: string; submitErr: string }>();

beforeAll(async () => {
  // The replaying simc finds the reports through the shared folder the tests use (a clone may have none beside it).
  env = localEnv({ SIMJOB_SIMC: REPLAY_SIMC });
  expect(REPORTS).toHaveLength(11);
  for (const file of REPORTS) {
    const profile = profileFile(env, `${file}.simc`, `# replay.report=${file}\niterations=100\n`);
    const submitted = await run(env, ['submit', profile, '--local', '--wait'], 60_000);
    expect(submitted.exitCode, `${file}: ${submitted.stderr}`).toBe(0);
    const id = /Submitted job (local-[0-9a-z]{18})/.exec(submitted.stdout + submitted.stderr)?.[1];
    expect(id, submitted.stderr).toBeDefined();
    jobs.set(file, { id: id as string, submitOut: submitted.stdout, submitErr: submitted.stderr });
  }
}, 300_000);
afterAll(async () => {
  if (env) await cleanUp(env);
});

describe.each(REPORTS)('the real report %s replayed through submit --local --wait', (file) => {
  const expected = expectedOf(file);

  it('headlines the first actor with simc’s mean and 95 % error', async () => {
    const { id, submitOut } = jobs.get(file)!;
    const result = json(await run(env, ['result', id, '--json']));
    expect(result.status).toBe('completed');
    const summary = result.result.summary;
    expect(summary.metric).toBe('dps');
    expect(summary.mainActor.name).toBe(expected.main.name);
    expect(summary.mainActor.mean).toBeCloseTo(expected.main.mean, 6);
    expect(summary.mainActor.mean_error).toBeCloseTo(expected.main.error, 6);
    const shown = expected.main.mean.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    expect(submitOut).toContain(`${expected.main.name}  ${shown} dps`);
  });

  it('ranks the profilesets best first with their count, the top 200 in the summary', async () => {
    const summary = json(await run(env, ['result', jobs.get(file)!.id, '--json'])).result.summary;
    const sets = summary.mainActor.profilesets;
    if (expected.profilesets.length === 0) {
      expect(sets).toBeUndefined();
      return;
    }
    expect(sets.count).toBe(expected.profilesets.length);
    const top = expected.profilesets.slice(0, 200);
    expect(sets.results.map((r: any) => r.name)).toEqual(top.map((r) => r.name));
    sets.results.forEach((r: any, i: number) => {
      expect(r.mean).toBeCloseTo(top[i]!.mean, 6);
      expect(r.mean_error).toBeCloseTo(top[i]!.error, 6);
      expect(r.stage).toBe(1);
    });
  });

  it('result --all lists every profileset from the JSON report, ranked', async () => {
    const all = await run(env, ['result', jobs.get(file)!.id, '--all']);
    expect(all.exitCode, all.stderr).toBe(0);
    const rows = tableRows(all.stdout);
    expect(rows).toHaveLength(expected.profilesets.length);
    rows.forEach((row, i) => {
      const want = expected.profilesets[i]!;
      expect(row[0]).toBe(String(i + 1));
      expect(row[1]).toBe(want.name);
      expect(Math.abs(number(row[2]!) - want.mean)).toBeLessThanOrEqual(0.05);
      expect(Math.abs(number(row[3]!) - want.error)).toBeLessThanOrEqual(0.05);
      expect(Math.abs(number(row[4]!) - (want.mean - expected.main.mean))).toBeLessThanOrEqual(0.051);
    });
  });

  it('gives every actor of a multi-actor report in summary.actors, best first', async () => {
    const summary = json(await run(env, ['result', jobs.get(file)!.id, '--json'])).result.summary;
    if (expected.players.length < 2 || expected.profilesets.length > 0) {
      expect(summary.actors).toBeUndefined();
      return;
    }
    expect(summary.actors.count).toBe(expected.players.length);
    expect(summary.actors.results.map((a: any) => a.name)).toEqual(expected.players.map((p) => p.name));
    summary.actors.results.forEach((a: any, i: number) => {
      expect(a.mean).toBeCloseTo(expected.players[i]!.mean, 6);
      expect(a.mean_error).toBeCloseTo(expected.players[i]!.error, 6);
    });
    const shown = await run(env, ['result', jobs.get(file)!.id]);
    for (const p of expected.players) expect(shown.stdout).toContain(p.name);
  });

  it('shows simc’s notifications from the report (result and submit --wait), and keeps them out of --json', async () => {
    const { id, submitErr } = jobs.get(file)!;
    const shown = await run(env, ['result', id]);
    for (const text of [shown.stderr, submitErr]) {
      for (const note of expected.notifications) expect(text).toContain(`simc notification: ${note.trim()}`);
      if (expected.notifications.length === 0) expect(text).not.toContain('simc notification');
    }
    expect(json(await run(env, ['result', id, '--json'])).result.notifications).toBeUndefined();
  });
});

describe('profileset_metric in local mode', () => {
  const r10 = 'r10_mid1200_vengeance_6tanks_10t.json';
  const r01 = 'r01_legion720_elemental_1actor.json';
  const raid = (file: string) => {
    const report = JSON.parse(readFileSync(join(REPORTS_DIR, file), 'utf8'));
    const stats = report.sim.statistics.raid_dps;
    return {
      mean: stats.mean as number,
      error: stats.mean_std_dev === undefined ? null : stats.mean_std_dev * report.sim.options.confidence_estimator,
    };
  };

  it('raid_dps (first of a list) reports the group total from the report’s sim-wide statistics', async () => {
    const profile = profileFile(env, 'raid.simc', `# replay.report=${r10}\nprofileset_metric=raid_dps/dps\n`);
    const submitted = await run(env, ['submit', profile, '--local', '--wait', '--json'], 60_000);
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const summary = json(submitted).result.summary;
    const want = raid(r10);
    expect(summary.metric).toBe('raid_dps');
    expect(summary.mainActor.name).toBe(expectedOf(r10).main.name);
    expect(summary.mainActor.mean).toBeCloseTo(want.mean, 6);
    expect(summary.mainActor.mean_error).toBeCloseTo(want.error!, 6);
    // the actors stay in their own dps
    expect(summary.actors.results[0].mean).toBeCloseTo(expectedOf(r10).players[0]!.mean, 6);
    const shown = await run(env, ['result', json(submitted).id]);
    expect(shown.stdout).toContain('raid dps (group total)');
    expect(shown.stdout).not.toContain('Δ % vs');
  });

  it('raid_dps of an old report without its standard error has no error rather than another one', async () => {
    const profile = profileFile(env, 'raid-old.simc', `# replay.report=${r01}\nprofileset_metric=RAID_DPS\n`);
    const summary = json(await run(env, ['submit', profile, '--local', '--wait', '--json'], 60_000)).result.summary;
    expect(summary.metric).toBe('raid_dps');
    expect(summary.mainActor.mean).toBeCloseTo(raid(r01).mean, 6);
    expect(summary.mainActor.mean_error).toBeNull();
  });

  it('refuses a metric a summary cannot be in, before running anything', async () => {
    const profile = profileFile(env, 'hps.simc', `# replay.report=${r10}\nprofileset_metric=hps,dps\n`);
    const refused = await run(env, ['submit', profile, '--local', '--wait']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.trim().split('\n')[0]).toContain(
      'line 2: profileset_metric=hps cannot be summarised; a result reports dps or raid_dps.',
    );
    expect(refused.stdout).toBe('');
  });
});
