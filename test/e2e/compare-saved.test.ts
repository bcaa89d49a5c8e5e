import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { simjob } from '../helpers/cli-in-process.js';
import { cleanUp, json, localEnv, profileFile, run } from './local-helpers.js';
import { validateJunit } from '../helpers/junit.js';
import { userEnv } from './wait-helpers.js';

interface Row {
  name: string;
  kind: string;
  a: { mean: number } | null;
  b: { mean: number } | null;
  significant?: boolean;
  cut?: string;
}
interface Body {
  matches: Array<{ profile: string; scenario: string | null; rows: Row[]; incomplete: string[] | null }>;
  unmatched: Array<{ side: string; profile: string; reason: string }>;
  regressions: Array<{ profile: string; scenario: string; name: string; percent: number }>;
  rows?: Row[];
}

const env = localEnv();
const folder = join(env.SIMJOB_DATA_DIR, '..');
const file = (name: string) => join(folder, name);
afterAll(() => cleanUp(env));

const profile = (name: string, dps: number) =>
  profileFile(
    env,
    `${name}.simc`,
    `warrior="${name}"\nlevel=80\nspec=fury\nfake_dps=${dps}\niterations=2000\nprofileset."steady"+=fake_dps=40000\n`,
  );

/** A batch of 2 profiles × 2 scenarios, saved as `submit --json` saves it. */
async function nightly(save: string, alphaDps: number): Promise<void> {
  const profiles = [profile('alpha', alphaDps), profile('bravo', 60000)];
  const r = await run(
    env,
    ['submit', ...profiles, '--local', '--scenario', 'fight_style=Patchwerk,DungeonSlice', '--wait', '--json'],
    120_000,
  );
  expect(r.exitCode, r.stderr).toBe(0);
  writeFileSync(file(save), r.stdout);
}

describe('compare saved --json results', () => {
  beforeAll(async () => {
    await nightly('old.json', 50000);
    await nightly('same.json', 50000);
    await nightly('new.json', 47500); // alpha loses 5 %: a planted regression
  }, 180_000);

  it('matches by profile and scenario; a planted 5 % drop exits 3 and is named; the JUnit report fails that match only', async () => {
    const junit = file('compare.xml');
    const md = file('compare.md');
    const r = await run(env, [
      'compare',
      file('old.json'),
      file('new.json'),
      '--fail-on-regression',
      '1',
      '--report',
      `junit=${junit}`,
      '--report',
      `markdown=${md}`,
    ]);
    expect(r.exitCode, r.stderr).toBe(3);
    const alpha = profile('alpha', 47500);
    expect(r.stderr).toContain('2 regressions of more than 1% (significant):');
    expect(r.stderr).toMatch(
      new RegExp(
        `  ${alpha.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\[fight_style=Patchwerk\\]  alpha \\(actor\\): -[45]\\.\\d\\d% \\(-2\\d{3}\\.\\d ± \\d+\\.\\d\\)`,
      ),
    );
    expect(r.stdout.split('\n')[0]).toMatch(/^A\s+.*old\.json\s+\(4 results\)$/);
    expect(r.stdout).toContain('Profile\tScenario\tName\tA\t± A\tB\t± B\tΔ\tΔ %\t± Δ\tSignificant\n');
    expect(r.stdout).toMatch(
      /\tfight_style=DungeonSlice\talpha \(actor\)\t(49|50),[\d,.]+\t[\d.]+\t47,[\d,.]+\t[\d.]+\t−2,[\d,.]+\t−[45]\.\d\d%\t[\d.]+\tyes, regression\n/,
    );

    const report = await validateJunit(junit);
    expect(report).toMatchObject({ tests: 4, failures: 2, errors: 0, skipped: 0 });
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<failure message="1 significant regression of more than 1%: alpha \(actor\): -[45]\.\d\d% \(Δ -2\d{3}\.\d ± \d+\.\d\)" type="regression">/,
    );
    const summary = readFileSync(md, 'utf8');
    expect(summary).toContain(':x: **2 significant regressions of more than 1%.**');
    expect(summary.split('\n').filter((l) => l.includes('**regression**'))).toHaveLength(2);

    const body = json<Body>(
      await run(env, ['compare', file('old.json'), file('new.json'), '--fail-on-regression', '1', '--json']),
    );
    expect(body.matches).toHaveLength(4);
    expect(body.regressions.map((g) => `${g.scenario} ${g.name}`).sort()).toEqual([
      'fight_style=DungeonSlice alpha',
      'fight_style=Patchwerk alpha',
    ]);
    expect(body.unmatched).toEqual([]);
  });

  it("the same setup again (yesterday's file on stdin): exit 0 with --fail-on-regression 1", async () => {
    const r = await simjob(['compare', '-', file('same.json'), '--fail-on-regression', '1'], {
      env,
      input: readFileSync(file('old.json'), 'utf8'),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('regression');
    expect(r.stdout.split('\n')[0]).toMatch(/^A\s+-\s+\(4 results\)$/);
  });

  it('noise of the size of the error is not a regression, even above the threshold; twice the error is', async () => {
    // Errors of 2 % of the mean: a 2 % drop is within the combined error √2 × 2 % (not significant); a 4 % drop is not.
    const shifted = (by: number) => {
      const doc = JSON.parse(readFileSync(file('old.json'), 'utf8')) as Array<{
        result: { summary: { mainActor: any } };
      }>;
      for (const r of doc) {
        const actor = r.result.summary.mainActor;
        for (const e of [actor, ...actor.profilesets.results]) {
          e.mean_error = e.mean * 0.02;
          e.mean -= by * e.mean_error;
        }
      }
      return JSON.stringify(doc);
    };
    writeFileSync(file('base.json'), shifted(0));
    writeFileSync(file('noise.json'), shifted(1));
    writeFileSync(file('drop.json'), shifted(2));
    const noise = await run(env, [
      'compare',
      file('base.json'),
      file('noise.json'),
      '--fail-on-regression',
      '1',
      '--json',
    ]);
    expect(noise.exitCode, noise.stderr).toBe(0);
    const rows = json<Body>(noise).matches.flatMap((m) => m.rows);
    expect(rows).toHaveLength(8);
    expect(rows.every((row) => row.significant === false)).toBe(true);
    const drop = await run(env, ['compare', file('base.json'), file('drop.json'), '--fail-on-regression', '1']);
    expect(drop.exitCode).toBe(3);
    expect(drop.stderr).toContain('8 regressions of more than 1% (significant):');
  });

  it('a result on one side only is listed, never dropped (exit 0), and is a skipped JUnit case', async () => {
    const doc = JSON.parse(readFileSync(file('same.json'), 'utf8')) as Array<{ metadata: Record<string, string> }>;
    writeFileSync(
      file('fewer.json'),
      JSON.stringify(
        doc.filter(
          (r) => !(r.metadata.profile?.endsWith('bravo.simc') && r.metadata.scenario === 'fight_style=DungeonSlice'),
        ),
      ),
    );
    const junit = file('fewer.xml');
    const r = await run(env, [
      'compare',
      file('old.json'),
      file('fewer.json'),
      '--fail-on-regression',
      '1',
      '--report',
      `junit=${junit}`,
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /Not compared: \S+bravo\.simc \[fight_style=DungeonSlice\] \(job local-\w+\): only in A \(\S+old\.json\)\./,
    );
    expect(await validateJunit(junit)).toMatchObject({ tests: 4, failures: 0, skipped: 1 });
  });

  it('an existing file wins over a job id, as in submit: `compare old same.json` reads ./old', async () => {
    writeFileSync(file('old'), readFileSync(file('old.json')));
    const r = await simjob(['compare', 'old', 'same.json', '--fail-on-regression', '1'], { env, cwd: folder });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^A\s+old\s+\(4 results\)$/);
    expect(r.stderr).not.toContain('Not found');
  });

  it('--allow-failed lets a job id without DPS through; without it that job fails the gate (exit 3)', async () => {
    const good = await run(env, ['submit', profile('charlie', 50000), '--local', '--wait', '--json'], 60_000);
    expect(good.exitCode, good.stderr).toBe(0);
    const broken = profileFile(env, 'broken.simc', 'warrior="charlie"\nlevel=80\nspec=fury\ntypo\n');
    const failed = await run(env, ['submit', broken, '--local', '--wait', '--json'], 60_000);
    expect(failed.exitCode).toBe(3);
    const [failedId, goodId] = [json(failed).id as string, json(good).id as string];

    const gate = await run(env, ['compare', failedId, goodId, '--fail-on-regression', '1']);
    expect(gate.exitCode).toBe(3);
    expect(gate.stderr).toMatch(new RegExp(`^Error: Job ${failedId} has no DPS to compare: it ended failed`, 'm'));

    const allowed = await run(env, ['compare', failedId, goodId, '--fail-on-regression', '1', '--allow-failed']);
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    expect(allowed.stderr).toMatch(new RegExp(`^Not compared: .*job ${failedId}\\): no DPS: it ended failed`, 'm'));
  });

  it('bad inputs: one-line errors', async () => {
    writeFileSync(file('not.json'), '{"hello": 1}');
    writeFileSync(file('broken.json'), '[{');
    const cases: Array<[string[], number, RegExp]> = [
      [
        ['compare', file('not.json'), file('old.json')],
        2,
        /^Error: \S+not\.json is not a job result \(the resource of simjob result <id> --json\)\. Save a result with/,
      ],
      [['compare', file('broken.json'), file('old.json')], 2, /^Error: \S+broken\.json is not JSON: /],
      [['compare', file('missing.json'), file('old.json')], 2, /^Error: \S+missing\.json does not exist\./],
      [
        ['compare', file('old.json'), file('new.json'), '--fail-on-regression', 'a lot'],
        2,
        /^Error: --fail-on-regression must be a number of 0 or more/,
      ],
    ];
    for (const [args, code, message] of cases) {
      const r = await run(env, args);
      expect(r.exitCode, r.stderr).toBe(code);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});

describe('compare past the top 200 profilesets (issue 16)', () => {
  it('locally: a profileset cut from one summary is read from the JSON report and paired; from saved files it is "cut", never "in one job only"', async () => {
    const few = profileFile(
      env,
      'few.simc',
      `warrior="Cut"\nlevel=80\nspec=fury\niterations=100\nprofileset."low"+=fake_dps=1000\nprofileset."mid"+=fake_dps=50000\n`,
    );
    const many = profileFile(
      env,
      'many.simc',
      [
        'warrior="Cut"',
        'level=80',
        'spec=fury',
        'iterations=100',
        ...Array.from({ length: 249 }, (_, i) => `profileset."ps_${i}"+=fake_dps=${60000 + i}`),
        'profileset."mid"+=fake_dps=50000',
        'profileset."low"+=fake_dps=1000',
        '',
      ].join('\n'),
    );
    const submit = async (p: string) => {
      const r = await run(env, ['submit', p, '--local', '--wait', '--json'], 120_000);
      expect(r.exitCode, r.stderr).toBe(0);
      writeFileSync(file(`${p.endsWith('few.simc') ? 'few' : 'many'}.json`), r.stdout);
      return JSON.parse(r.stdout) as {
        id: string;
        result: { summary: { mainActor: { profilesets: { count: number; results: Array<{ name: string }> } } } };
      };
    };
    const [a, b] = [await submit(few), await submit(many)];
    const listed = b.result.summary.mainActor.profilesets;
    expect(listed.count).toBe(251);
    expect(listed.results.map((p) => p.name)).not.toContain('low'); // cut from B's summary

    const body = json<Body>(await run(env, ['compare', a.id, b.id, '--json']));
    const low = body.rows!.find((row) => row.name === 'low')!;
    expect(low.a && low.b, JSON.stringify(low)).toBeTruthy();
    expect(body.rows!.filter((row) => row.kind === 'profileset')).toHaveLength(251);
    expect(body.matches[0]!.incomplete).toBeNull();
    const human = await run(env, ['compare', a.id, b.id]);
    expect(human.exitCode, human.stderr).toBe(0);
    expect(human.stderr).toContain('249 profilesets are in one job only');

    const saved = await run(env, ['compare', file('few.json'), file('many.json'), '--json']);
    const offline = json<Body>(saved);
    const cutRow = offline.rows!.find((row) => row.name === 'low')!;
    expect(cutRow).toMatchObject({ a: { mean: expect.any(Number) }, b: null, cut: 'b' });
    expect(offline.matches[0]!.incomplete![0]).toMatch(
      /many\.json: job local-\w+ lists its top 200 of 251 profilesets; add --all to read the rest from its JSON report/,
    );
    const savedHuman = await run(env, ['compare', file('few.json'), file('many.json')]);
    expect(savedHuman.stdout).toMatch(/\nlow\t[\d,.]+\t[\d,.]+\tcut\t\t\t\t\tcut\n/);
    expect(savedHuman.stderr).toContain('Rows marked "cut" are unknown on that side, not missing.');
    // only B's own ps_* are in one job only (A has none of them); low is cut, not counted among them
    expect(savedHuman.stderr).toContain('200 profilesets are in one job only (—).');
    // --all completes a saved file from the job's report while the job is kept
    const complete = json<Body>(await run(env, ['compare', file('few.json'), file('many.json'), '--all', '--json']));
    expect(complete.rows!.find((row) => row.name === 'low')!.b).not.toBeNull();
    expect(complete.matches[0]!.incomplete).toBeNull();
  }, 120_000);

  it('remotely: two jobs of 300 profilesets pair all 300 (each summary lists its own top 200)', async () => {
    const server: TestServer = await startServer({ queueMs: 20, runMs: 50, concurrency: 8 });
    try {
      const p = profileFile(env, 'remote.simc', 'warrior="Far"\nlevel=80\nspec=fury\n');
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await simjob(
          ['submit', p, '--channel', 'nightly', '--meta', 'test.profilesets=300', '--wait', '--json'],
          { env: userEnv(server) },
        );
        expect(r.exitCode, r.stderr).toBe(0);
        ids.push(JSON.parse(r.stdout).id as string);
      }
      const body = JSON.parse(
        (await simjob(['compare', ids[0]!, ids[1]!, '--json'], { env: userEnv(server) })).stdout,
      ) as Body;
      const sets = body.rows!.filter((row) => row.kind === 'profileset');
      expect(sets).toHaveLength(300);
      expect(sets.every((row) => row.a && row.b)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
