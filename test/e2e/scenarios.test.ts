import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { simjob } from '../helpers/cli.js';
import { validateJunit } from '../helpers/junit.js';
import { cleanUp, json, localEnv, profileFile as localProfile, run } from './local-helpers.js';
import { profileFile, userEnv } from './wait-helpers.js';

const NAMES = ['Alpha', 'Bravo', 'Charlie'];
const RAID = ['Patchwerk 1 target', 'Patchwerk 5 targets', 'DungeonSlice'];

/** The rows of a piped (tab-separated) table that starts with `header`. */
function tableOf(stdout: string, header: string): string[][] {
  const lines = stdout.split('\n');
  const start = lines.indexOf(header);
  expect(start, stdout).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.includes('\t')) break;
    rows.push(line.split('\t'));
  }
  return rows;
}

const CELL = /^[\d,]+\.\d ± [\d,]+\.\d #\d+$/;

describe('submit --scenarios against the service', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startServer({ queueMs: 50, runMs: 200, concurrency: 16 });
    dir = mkdtempSync(join(tmpdir(), 'simjob-scen-'));
    for (const name of NAMES) profileFile(name, 3, dir);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('3 profiles × 3 scenarios: 9 jobs, each carrying its scenario and profile; one table with a column per scenario; a JUnit file of 9 cases', async () => {
    const profiles = NAMES.map((n) => join(dir, `${n.toLowerCase()}.simc`));
    const junit = join(dir, 'jobs.xml');
    const md = join(dir, 'summary.md');
    const r = await simjob(
      [
        'submit',
        ...profiles,
        '--channel',
        'nightly',
        '--scenarios',
        'raid',
        '--wait',
        '--report',
        `junit=${junit}`,
        '--report',
        `markdown=${md}`,
      ],
      { env: userEnv(server) },
    );
    expect(r.exitCode, r.stderr).toBe(0);

    const jobs = [...server.jobs.values()].filter((j) => j.submission.metadata?.scenario);
    expect(jobs).toHaveLength(9);
    const pairs = jobs.map((j) => `${j.submission.metadata!.profile} | ${j.submission.metadata!.scenario}`).sort();
    expect(pairs).toEqual(profiles.flatMap((p) => RAID.map((s) => `${p} | ${s}`)).sort());
    // the scenario's options are appended to the profile, after a comment naming it
    const dungeon = jobs.find(
      (j) => j.submission.metadata!.scenario === 'DungeonSlice' && j.submission.metadata!.profile === profiles[0],
    )!;
    expect(dungeon.submission.profileText).toMatch(/\n# simjob scenario: DungeonSlice\nfight_style=DungeonSlice\n$/);
    expect(dungeon.submission.profileText.startsWith(readFileSync(profiles[0]!, 'utf8'))).toBe(true);

    const header = ['Profile', 'Name', ...RAID].join('\t');
    const rows = tableOf(r.stdout, header);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('Profile\t'))).toHaveLength(1);
    // per profile: the actor and its 3 profilesets; every cell DPS ± error #rank, ranks 1..4 once per column
    expect(rows).toHaveLength(3 * 4);
    for (const [i, profile] of profiles.entries()) {
      const mine = rows.filter((row) => row[0] === profile);
      expect(mine.map((row) => row[1])).toEqual(
        expect.arrayContaining([`${NAMES[i]} (actor)`, 'set_0', 'set_1', 'set_2']),
      );
      for (let col = 2; col < 5; col++) {
        for (const row of mine) expect(row[col]).toMatch(CELL);
        expect(mine.map((row) => Number(/#(\d+)$/.exec(row[col]!)![1])).sort()).toEqual([1, 2, 3, 4]);
      }
    }
    // the actor's cell is its job's DPS
    const result = JSON.parse((await simjob(['result', dungeon.id, '--json'], { env: userEnv(server) })).stdout);
    const actorRow = rows.find((row) => row[0] === profiles[0] && row[1] === 'Alpha (actor)')!;
    expect(actorRow[4]).toContain(
      result.result.summary.mainActor.mean.toLocaleString('en-US', {
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
      }),
    );
    expect(r.stderr).toContain('9 jobs (3 profiles × 3 scenarios): 9 completed.');

    const report = await validateJunit(junit);
    expect(report).toMatchObject({ tests: 9, failures: 0, errors: 0, skipped: 0 });
    expect(report.cases).toContain(`${profiles[0]} [DungeonSlice]`);
    const summary = readFileSync(md, 'utf8');
    expect(summary).toContain('All 9 jobs completed.');
    expect(summary.split('\n').filter((l) => l.startsWith('| /'))).toHaveLength(9);
  });

  it('--json: the array of 9 results, each carrying its scenario; a failed job is a JUnit failure with its reason, exit 3', async () => {
    const junit = join(dir, 'failed.xml');
    const profile = join(dir, 'alpha.simc');
    const r = await simjob(
      [
        'submit',
        profile,
        '--channel',
        'nightly',
        '--scenario',
        'desired_targets=1,5',
        '--scenario',
        'fight_style=patchwerk,dungeonslice',
        '--meta',
        'test.outcome=failed',
        '--wait',
        '--json',
        '--report',
        `junit=${junit}`,
      ],
      { env: userEnv(server) },
    );
    expect(r.exitCode).toBe(3);
    const body = JSON.parse(r.stdout) as Array<{ status: string; metadata: Record<string, string> }>;
    expect(body.map((b) => b.metadata.scenario).sort()).toEqual([
      'desired_targets=1 fight_style=DungeonSlice',
      'desired_targets=1 fight_style=Patchwerk',
      'desired_targets=5 fight_style=DungeonSlice',
      'desired_targets=5 fight_style=Patchwerk',
    ]);
    expect(body.every((b) => b.metadata.profile === profile && b.metadata['test.outcome'] === 'failed')).toBe(true);
    const report = await validateJunit(junit);
    expect(report).toMatchObject({ tests: 4, failures: 4, errors: 0 });
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<failure message="job \d+ failed \(execution_failed\)[^"]*" type="execution_failed">/,
    );
  });

  it('bad scenarios and metadata that would not fit are one-line usage errors (exit 2), before anything is sent', async () => {
    const profile = join(dir, 'alpha.simc');
    const before = server.jobs.size;
    const cases: Array<[string[], string]> = [
      [['--scenario', 'fight_style=Tank'], 'Error: --scenario fight_style=Tank: want one of Patchwerk, '],
      [
        ['--scenario', 'desired_targets=0'],
        'Error: --scenario desired_targets=0: want a whole number of targets from 1 to 100.',
      ],
      [['--scenario', 'max_time'], 'Error: --scenario must be KEY=V1,V2,… (got "max_time").'],
      [['--scenario', 'warrior=x'], 'Error: --scenario warrior: only global sim options can make a scenario.'],
      // every actor directive the profile analysis knows, and what the service refuses, not a list of its own
      [['--scenario', 'pet=x'], 'Error: --scenario pet: only global sim options can make a scenario.'],
      [['--scenario', 'tank_dummy=x'], 'Error: --scenario tank_dummy: only global sim options can make a scenario.'],
      [
        ['--scenario', 'process_priority=low'],
        'Error: --scenario process_priority: only global sim options can make a scenario.',
      ],
      [['--scenario', 'target_error=0.1,,0.2'], 'Error: --scenario target_error has an empty value.'],
      [['--scenario', 'iterations=1 0'], 'Error: --scenario iterations=1 0: a value is one word'],
      [['--scenarios', 'mythic'], 'Error: --scenarios must be one of raid, '],
      [
        ['--scenarios', 'raid', '--meta', 'scenario=x'],
        'Error: --meta scenario=… clashes with the scenario simjob records on every job of a batch.',
      ],
      [
        ['--scenarios', 'raid', ...Array.from({ length: 19 }, (_, i) => ['--meta', `k${i}=v`]).flat()],
        'Error: --meta was given 19 times; simjob adds 2 more (profile, scenario) and the service keeps at most 20.',
      ],
      [
        ['--scenarios', 'raid', '--meta', `note=${'x'.repeat(480)}`, '--meta', `more=${'y'.repeat(480)}`],
        'Error: The metadata of ',
      ],
      [
        ['--scenarios', 'raid', '--report', 'junit=out.xml'],
        'Error: --report writes what the jobs ended with; it needs --wait.',
      ],
      [['--scenarios', 'raid', '--wait', '--report', 'html=x'], 'Error: --report html: not a report format.'],
      [
        ['--scenarios', 'raid', '--wait', '--report', `junit=${join(dir, 'nope', 'x.xml')}`],
        `Error: --report junit=${join(dir, 'nope', 'x.xml')}: the folder`,
      ],
      [['--scenarios', 'raid', '--plain'], 'Error: --scenario needs the JSON body'],
    ];
    for (const [args, message] of cases) {
      const r = await simjob(['submit', profile, '--channel', 'nightly', ...args], { env: userEnv(server) });
      expect(r.exitCode, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      expect(r.stderr.startsWith(message), `${args.join(' ')}\n${r.stderr}`).toBe(true);
      expect(r.stderr.trimEnd().split('\n').length, r.stderr).toBeLessThanOrEqual(2);
    }
    expect(server.jobs.size).toBe(before);
  });
});

describe('submit --scenarios with --local and the stand-in simc', () => {
  const env = localEnv();
  afterAll(async () => {
    await cleanUp(env);
  });

  it('3 profiles × 3 scenarios: 9 local jobs with their metadata, one 3-column table, a JUnit file of 9 cases', async () => {
    const profiles = NAMES.map((n) =>
      localProfile(
        env,
        `${n.toLowerCase()}.simc`,
        `warrior="${n}"\nlevel=80\nspec=fury\nprofileset."low"+=fake_dps=30000\nprofileset."high"+=fake_dps=300000\n`,
      ),
    );
    const junit = join(env.SIMJOB_DATA_DIR, '..', 'jobs.xml');
    const r = await run(
      env,
      [
        'submit',
        ...profiles,
        '--local',
        '--scenario',
        'fight_style=Patchwerk,DungeonSlice,HeavyMovement',
        '--wait',
        '--report',
        `junit=${junit}`,
      ],
      120_000,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const styles = ['fight_style=Patchwerk', 'fight_style=DungeonSlice', 'fight_style=HeavyMovement'];
    const rows = tableOf(r.stdout, ['Profile', 'Name', ...styles].join('\t'));
    expect(rows).toHaveLength(9);
    for (const [i, profile] of profiles.entries()) {
      const mine = rows.filter((row) => row[0] === profile);
      // the actor first, then its profilesets; the stand-in's fake_dps makes the ranking certain: high, actor, low
      expect(mine.map((row) => row[1])).toEqual([`${NAMES[i]} (actor)`, 'high', 'low']);
      for (let col = 2; col < 5; col++)
        expect(mine.map((row) => /#(\d)$/.exec(row[col]!)?.[1])).toEqual(['2', '1', '3']);
    }
    const listed = json<Array<{ id: string; metadata: Record<string, string> }>>(
      await run(env, ['jobs', '--local', '--json', '--limit', '20']),
    );
    const jobs = (Array.isArray(listed) ? listed : (listed as any).jobs) as Array<{
      id: string;
      metadata: Record<string, string> | null;
    }>;
    const marks = jobs.map((j) => `${j.metadata?.profile} | ${j.metadata?.scenario}`).sort();
    expect(marks).toEqual(profiles.flatMap((p) => styles.map((s) => `${p} | ${s}`)).sort());
    expect(await validateJunit(junit)).toMatchObject({ tests: 9, failures: 0, errors: 0 });
  });
});
