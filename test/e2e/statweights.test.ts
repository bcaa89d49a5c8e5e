/**
 * `simjob statweights` end to end: the built CLI against the stand-in simc (local) and the spec server (remote).
 * The stand-in's DPS depends on added stats through known true weights (`# fake.weights=` in the profile,
 * FAKE_SIMC_WEIGHTS for an export): the weights must come back within their reported 95% errors and in the right
 * order, and other true weights must give another answer. Its numbers are synthetic; the seed is fixed so that
 * every run of this file sees the same ones.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/shared.js';
import { tempDir } from '../helpers/temp.js';
import { simjob } from '../helpers/cli-in-process.js';
import { startServer, type TestServer } from '../server/index.js';
import { scaleFactorsOf } from '../server/scale-factors.js';
import { freshLocalEnvs, json, profileFile, run, type LocalEnv } from './local-helpers.js';
import { userEnv } from './wait-helpers.js';

const EXPORT = resolve(REPO_ROOT, 'test', 'fixtures', 'addon', 'fury-equipped-only.txt');
/** simc's own MID1 Devourer profile: an Intellect Demon Hunter (test/fixtures/simc/SOURCES.md). */
const DEVOURER = resolve(REPO_ROOT, 'test', 'fixtures', 'simc', 'profiles', 'MID1', 'MID1_Demon_Hunter_Devourer.simc');
const PAWN =
  /^\( Pawn: v1: "[^"]+-[A-Za-z]+": Class=[A-Za-z]+, Spec=[A-Za-z]+, {2}\w+=-?\d+\.\d\d(, \w+=-?\d+\.\d\d)* \)$/;

interface Weight {
  stat: string;
  weight: number;
  error: number;
  normalised: number;
  normalisedError: number;
}
interface StatWeightsJson {
  weights: Weight[];
  pawn: string;
  normalisedTo: string;
  equalWithinError: string[][];
  method: string;
}

/** A mage (primary: intellect) whose every point of a stat is worth `weights` DPS in the stand-in. */
function mage(env: LocalEnv, name: string, weights: Record<string, number>): string {
  const knob = Object.entries(weights)
    .map(([k, v]) => `${k}:${v}`)
    .join(',');
  return profileFile(
    env,
    `${name}.simc`,
    `# fake.weights=${knob}\nseed=20261128\nmage="${name}"\nspec=frost\nlevel=90\n`,
  );
}

const TRUE_A = { int: 3, crit: 1.6, haste: 2.2, mastery: 1.2, vers: 0.8 };
const TRUE_B = { int: 2.4, crit: 1.0, haste: 1.0, mastery: 2.6, vers: 1.8 };
const KEYS: Record<string, keyof typeof TRUE_A> = {
  intellect: 'int',
  crit: 'crit',
  haste: 'haste',
  mastery: 'mastery',
  vers: 'vers',
};

function expectTrueWeights(sw: StatWeightsJson, truth: Record<string, number>): void {
  for (const w of sw.weights) {
    const want = truth[KEYS[w.stat]!]!;
    expect(Math.abs(w.weight - want), `${w.stat}: ${w.weight} ± ${w.error}, true ${want}`).toBeLessThanOrEqual(w.error);
  }
  const byTruth = Object.keys(KEYS)
    .filter((k) => truth[KEYS[k]!] !== undefined)
    .sort((a, b) => truth[KEYS[b]!]! - truth[KEYS[a]!]!);
  const distinct = byTruth.filter((k, i) => i === 0 || truth[KEYS[k]!] !== truth[KEYS[byTruth[i - 1]!]!]);
  const measured = [...sw.weights]
    .sort((a, b) => b.weight - a.weight)
    .map((w) => w.stat)
    .filter((s) => distinct.includes(s));
  if (distinct.length === byTruth.length) expect(measured).toEqual(byTruth);
}

describe('simjob statweights --local', () => {
  const fresh = freshLocalEnvs();

  it("finds the stand-in's true weights within their errors, in order, with the table and the Pawn string", async () => {
    const env = fresh({ FAKE_SIMC_ITER_US: '0' });
    const done = await run(env, ['statweights', mage(env, 'Frosty', TRUE_A), '--local', '--wait'], 90_000);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).toContain(
      'Frosty (frost mage): weighing Intellect, Crit, Haste, Mastery, Versatility by the baseline and 5 profilesets adding 300 points each, target_error 0.05.',
    );
    expect(done.stdout).toContain('Stat weights of Frosty (Frost Mage), dps per point (+300 points each):');
    expect(done.stdout).toMatch(/^Stat\tdps\/point\t±\tIntellect = 1\t±$/m);
    expect(done.stdout).toMatch(/^Intellect\t\d\.\d\d\t0\.\d\d\t1\.00\t$/m);
    const pawn = done.stdout.split('\n').find((l) => l.startsWith('( Pawn:')) ?? '';
    expect(pawn).toMatch(PAWN);
    expect(pawn).toMatch(
      /^\( Pawn: v1: "Frosty-Frost": Class=Mage, Spec=Frost, {2}Intellect=[\d.]+, CritRating=[\d.]+, HasteRating=[\d.]+, MasteryRating=[\d.]+, Versatility=[\d.]+ \)$/,
    );

    const id = /Job\s+(local-\S+)/.exec(done.stdout)?.[1] ?? '';
    const later = await run(env, ['result', id, '--json']);
    expect(later.exitCode, later.stderr).toBe(0);
    const sw = json(later).statWeights as StatWeightsJson;
    expect(sw.method).toBe('profilesets');
    expect(sw.normalisedTo).toBe('intellect');
    expectTrueWeights(sw, TRUE_A);
    expect(pawn).toBe(sw.pawn);
    for (const w of sw.weights) expect(w.normalised).toBeCloseTo(w.weight / sw.weights[0]!.weight, 10);
  });

  it('other true weights give another answer, and equal ones are said to be equal within the error (--json)', async () => {
    const env = fresh({ FAKE_SIMC_ITER_US: '0' });
    const done = await run(env, ['statweights', mage(env, 'Frosty', TRUE_B), '--local', '--wait', '--json'], 90_000);
    expect(done.exitCode, done.stderr).toBe(0);
    const sw = json(done).statWeights as StatWeightsJson;
    expectTrueWeights(sw, TRUE_B);
    expect(sw.weights.find((w) => w.stat === 'mastery')!.weight).toBeGreaterThan(
      sw.weights.find((w) => w.stat === 'haste')!.weight,
    );
    expect(sw.equalWithinError).toContainEqual(['crit', 'haste']);

    const human = await run(env, ['result', json(done).id as string]);
    expect(human.stdout).toContain('Crit and Haste are equal within the error.');

    // `simjob report` charts the weights of the saved --json result: a bar and an error bar per stat.
    const saved = profileFile(env, 'saved.json', done.stdout);
    const page = join(tempDir('simjob-sw-report-'), 'weights.html');
    const report = await run(env, ['report', saved, '-o', page]);
    expect(report.exitCode, report.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    const section = html.slice(html.indexOf('<h2>Stat weights</h2>'), html.indexOf('<h2>Ranked profilesets</h2>'));
    expect(section).toMatch(/<title id="chart\d+-t">Stat weights of Frosty: dps per point<\/title>/);
    expect(section.match(/<path class="err"/g)).toHaveLength(5);
    for (const w of sw.weights) expect(section).toContain(`${w.weight.toFixed(2)} ± ${w.error.toFixed(2)}`);
    expect(section).toContain('<p>Crit and Haste are equal within the error.</p>');
    expect(section).toContain(sw.pawn.replace(/"/g, '&quot;'));
  });

  it("--method scale reads simc's scale factors from the job's JSON report", async () => {
    const env = fresh({ FAKE_SIMC_ITER_US: '0' });
    const done = await run(
      env,
      ['statweights', mage(env, 'Frosty', TRUE_A), '--method', 'scale', '--local', '--wait', '--json'],
      90_000,
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const record = json(done);
    expect(record.metadata).toMatchObject({
      kind: 'statweights',
      statweights: 'scale:-:mage:frost:intellect+crit+haste+mastery+vers',
    });
    const sw = record.statWeights as StatWeightsJson;
    expect(sw.method).toBe('scale');
    expectTrueWeights(sw, TRUE_A);
  });

  it('a roster: one character × stat table and one Pawn string each; an export is read too', async () => {
    const env = fresh({ FAKE_SIMC_ITER_US: '0', FAKE_SIMC_WEIGHTS: 'str:2.5,crit:1,haste:1.3,mastery:1.9,vers:0.7' });
    const done = await run(env, ['statweights', mage(env, 'Frosty', TRUE_A), EXPORT, '--local', '--wait'], 120_000);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^Character\tPrimary\tCrit\tHaste\tMastery\tVersatility$/m);
    expect(done.stdout).toMatch(/^Frosty \(Frost Mage\)\tIntellect 1\.00\t0\.\d\d ± 0\.\d\d\t/m);
    expect(done.stdout).toMatch(/^Examplewar \(Fury Warrior\)\tStrength 1\.00\t0\.\d\d ± 0\.\d\d\t/m);
    const pawns = done.stdout.split('\n').filter((l) => l.startsWith('( Pawn:'));
    expect(pawns).toHaveLength(2);
    for (const p of pawns) expect(p).toMatch(PAWN);
    expect(pawns[1]).toMatch(/^\( Pawn: v1: "Examplewar-Fury": Class=Warrior, Spec=Fury, {2}Strength=/);
  });

  it("weighs simc's Devourer profile by Intellect: profilesets, scale factors, the level's note", async () => {
    const env = fresh();
    const dir = tempDir('simjob-sw-devourer-');
    const out = join(dir, 'devourer-weights.simc');
    const written = await simjob(['statweights', DEVOURER, '-o', out], { env });
    expect(written.exitCode, written.stderr).toBe(0);
    expect(written.stderr).toContain(
      '(devourer demonhunter): weighing Intellect, Crit, Haste, Mastery, Versatility by the baseline and 5 profilesets',
    );
    expect(written.stderr).not.toMatch(/^Level /m);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('profileset."Intellect"+=enchant_intellect=300\n');
    expect(text).not.toMatch(/enchant_agility|enchant_strength/);

    const scale = join(dir, 'devourer-scale.simc');
    const scaled = await simjob(['statweights', DEVOURER, '--method', 'scale', '-o', scale], { env });
    expect(scaled.exitCode, scaled.stderr).toBe(0);
    expect(readFileSync(scale, 'utf8')).toContain('scale_only=int,crit,haste,mastery,vers\n');

    const low = profileFile(env, 'low.simc', 'demonhunter="Low"\nspec=devourer\nlevel=80\n');
    const noted = await simjob(['statweights', low, '-o', join(dir, 'low-weights.simc')], { env });
    expect(noted.exitCode, noted.stderr).toBe(0);
    expect(noted.stderr).toMatch(/^Level 80: simc's own scale-factor step .* is 154 points at level 90/m);
  });

  it('a planted negative Intellect: a warning, no normalised column, the Pawn signs of the table (--json)', async () => {
    // True weights planted in the stand-in; only signs, names and the warning are asserted, not its numbers.
    const env = fresh({ FAKE_SIMC_ITER_US: '0', FAKE_SIMC_WEIGHTS: 'int:-2,crit:1.5,haste:1.2,mastery:1,vers:0.8' });
    const done = await run(env, ['statweights', DEVOURER, '--local', '--wait', '--json'], 90_000);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/Intellect, the stat the others are normalised to, came out -\d+\.\d\d ± /);
    const sw = json(done).statWeights as StatWeightsJson & { referenceWarning?: string };
    expect(sw.normalisedTo).toBe('intellect');
    expect(sw.referenceWarning).toMatch(/not above zero/);
    expect(sw.weights.map((w) => w.normalised)).toEqual([null, null, null, null, null]);
    const pawn = Object.fromEntries([...sw.pawn.matchAll(/ (\w+)=(-?\d+\.\d\d)/g)].map((m) => [m[1], Number(m[2])]));
    const names: Record<string, string> = {
      intellect: 'Intellect',
      crit: 'CritRating',
      haste: 'HasteRating',
      mastery: 'MasteryRating',
      vers: 'Versatility',
    };
    expect(Math.sign(sw.weights[0]!.weight)).toBe(-1);
    for (const w of sw.weights) expect(Math.sign(pawn[names[w.stat]!]!), w.stat).toBe(Math.sign(w.weight));

    const human = await run(env, ['result', json(done).id as string]);
    expect(human.stdout).toMatch(/^Intellect\t-\d+\.\d\d\t\d+\.\d\d\t\t$/m);
    expect(human.stderr).toContain('so no weight is normalised');
  });

  it('bad input: one line, exit 2, nothing sent', async () => {
    const env = fresh();
    const dir = tempDir('simjob-sw-bad-');
    const cases: Array<[string[], RegExp]> = [
      [
        ['statweights', mage(env, 'A', TRUE_A), '--stats', 'primary,spirit'],
        /^Error: --stats spirit: simc has no stat of that name to add\./,
      ],
      [
        ['statweights', mage(env, 'B', TRUE_A), '--stats', 'weapon_dps'],
        /^Error: --stats weapon_dps: simc has no option that adds Weapon DPS/,
      ],
      [
        ['statweights', profileFile(env, 'none.simc', 'iterations=100\n')],
        /^Error: .*none\.simc declares no player to weigh\./,
      ],
      [
        ['statweights', write(dir, 'bad.txt', '# SimC Addon 12.0.1-01\n# Checksum: 1234\nnonsense\n')],
        /^Error: .*bad\.txt: /,
      ],
      [
        ['statweights', mage(env, 'C', TRUE_A), '--method', 'scale', '--amount', '100'],
        /^Error: --amount is the points each profileset adds/,
      ],
    ];
    for (const [args, message] of cases) {
      const done = await run(env, [...args, '--local']);
      expect(done.exitCode, done.stderr).toBe(2);
      expect(done.stderr.trim().split('\n')[0]).toMatch(message);
      expect(done.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
    expect((await run(env, ['jobs', '--local', '--json'])).stdout).not.toContain('local-');
  });
});

function write(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('simjob statweights on the service', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ queueMs: 50, runMs: 300, apiKeys: ['sk_test_good'] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends the baseline and one profileset per stat, marked for result, and reads the weights from the summary', async () => {
    const dir = tempDir('simjob-sw-remote-');
    const profile = write(dir, 'war.simc', 'warrior="Axe"\nspec=fury\nenchant_mastery_rating=50\n');
    const done = await simjob(
      [
        'statweights',
        profile,
        '--channel',
        'latest',
        '--wait',
        '--json',
        '--stats',
        'primary,crit,mastery',
        '--amount',
        '400',
      ],
      { env: userEnv(server), timeoutMs: 30_000 },
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const record = JSON.parse(done.stdout);
    const job = server.jobs.get(record.id)!;
    expect(job.submission.profileText).toContain(
      'profileset."Strength"+=enchant_strength=400\nprofileset."Crit"+=enchant_crit_rating=400\nprofileset."Mastery"+=enchant_mastery_rating=450\n',
    );
    expect(record.metadata).toEqual({
      kind: 'statweights',
      statweights: 'profilesets:400:warrior:fury:strength+crit+mastery',
    });
    const sets = record.result.summary.mainActor.profilesets.results as Array<{ name: string; mean: number }>;
    const base = record.result.summary.mainActor.mean as number;
    const sw = record.statWeights as StatWeightsJson;
    for (const w of sw.weights) {
      const label = { strength: 'Strength', crit: 'Crit', mastery: 'Mastery' }[w.stat]!;
      expect(w.weight).toBeCloseTo((sets.find((s) => s.name === label)!.mean - base) / 400, 10);
    }
    expect(sw.pawn).toMatch(/^\( Pawn: v1: "Axe-Fury": Class=Warrior, Spec=Fury, {2}Strength=/);
  });

  it('refuses bad input before anything reaches the service', async () => {
    const dir = tempDir('simjob-sw-remote-');
    const before = server.requests.length;
    const cases: string[][] = [
      [write(dir, 'a.simc', 'warrior="Axe"\n'), '--stats', 'primary,stamina'],
      [write(dir, 'b.simc', 'enemy="Dummy"\n')],
      [write(dir, 'c.txt', '# SimC Addon 12.0.1-01\n# Checksum: 0\n')],
    ];
    for (const args of cases) {
      const done = await simjob(['statweights', ...args, '--channel', 'latest', '--wait'], {
        env: userEnv(server),
        timeoutMs: 30_000,
      });
      expect(done.exitCode, done.stderr).toBe(2);
      expect(done.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(server.requests.length).toBe(before);
  });

  it("--method scale downloads the JSON report artifact and reads simc's scale factors from it", async () => {
    const dir = tempDir('simjob-sw-remote-');
    const profile = write(dir, 'lock.simc', 'warlock="Hex"\nspec=affliction\n');
    const done = await simjob(
      ['statweights', profile, '--channel', 'latest', '--wait', '--method', 'scale', '--stats', 'crit,haste'],
      { env: userEnv(server), timeoutMs: 30_000 },
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const id = /Job\s+(\d+)/.exec(done.stdout)?.[1] ?? '';
    const text = server.jobs.get(id)!.submission.profileText;
    expect(text).toContain('calculate_scale_factors=1\nscale_only=crit,haste\n');
    const factors = scaleFactorsOf(server.jobs.get(id)!).scale_factors as Record<string, number>;
    const pawn = done.stdout.split('\n').find((l) => l.startsWith('( Pawn:'));
    expect(pawn).toBe(
      `( Pawn: v1: "Hex-Affliction": Class=Warlock, Spec=Affliction,  CritRating=${factors.Crit!.toFixed(2)}, HasteRating=${factors.Haste!.toFixed(2)} )`,
    );
    expect(server.artifactRequests.some((r) => r.method === 'GET' && r.status === 200)).toBe(true);
  });
});
