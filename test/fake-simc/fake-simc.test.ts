// Tests of the stand-in simc (test/fake-simc/simc): process contract, report quirks, knobs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const SIMC = fileURLToPath(new URL('./simc', import.meta.url));
const DEFAULT_VERSION =
  'SimulationCraft 1201-01 for World of Warcraft 12.0.1.66263 Live (wow build 66263, git build midnight 066febf)';
const CE = 1.9599639854088815;

const dir = tempDir('fake-simc-test-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
const tmp = (name: string) => join(dir, `${++fileNo}-${name}`);

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

interface RunOptions {
  env?: Record<string, string>;
  input?: string;
  cwd?: string;
  /** called with the process and the stdout seen so far, after each stdout chunk */
  onStdout?: (child: ReturnType<typeof spawn>, stdout: string) => void;
  timeoutMs?: number;
}

function simc(args: string[], opts: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(SIMC, args, {
      cwd: opts.cwd ?? dir,
      // fast by default; tests that need pacing set FAKE_SIMC_ITER_US themselves
      env: { ...process.env, FAKE_SIMC_ITER_US: '0', FAKE_SIMC_HW_THREADS: '4', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      opts.onStdout?.(child, stdout);
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.end(opts.input ?? '');
  });
}

const firstLine = (s: string) => s.split('\n')[0];
const readJson = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));
const profile = (text: string) => {
  const f = tmp('profile.simc');
  writeFileSync(f, text);
  return f;
};
/** Tab-separated progressbar_type=1 lines. */
const progressLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => /^(Baseline|Profileset|Scaling)\t/.test(l))
    .map((l) => l.split('\t'));

const BASIC = ['warrior=Tester', 'spec=fury', 'output=/dev/null'];

describe('version line and CLI', () => {
  it('prints the version line first, then a blank line and the Simulating line', async () => {
    const r = await simc([...BASIC, 'iterations=50', 'threads=2']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(DEFAULT_VERSION);
    expect(lines[1]).toBe('');
    expect(lines[2]).toBe(
      'Simulating... ( iterations=50, threads=2, target_error=0.000, max_time=300, vary_combat_length=0.20, optimal_raid=1, fight_style=Patchwerk )',
    );
  });

  it('takes the version line from FAKE_SIMC_VERSION_LINE, also into the json report', async () => {
    const line =
      'SimulationCraft 1210-01 for World of Warcraft 12.1.0.69814 Live (wow build 69814, git build thewarwithin abc1234)';
    const json = tmp('v.json');
    const r = await simc([...BASIC, 'iterations=20', `json2=${json}`], { env: { FAKE_SIMC_VERSION_LINE: line } });
    expect(firstLine(r.stdout)).toBe(line);
    const j = readJson(json);
    expect(j.version).toBe('1210-01');
    expect(j.git_branch).toBe('thewarwithin');
    expect(j.git_revision).toBe('abc1234');
    expect(j.sim.options.dbc.Live.wow_version).toBe('12.1.0.69814');
  });

  it('with no arguments prints version and usage and exits 0', async () => {
    const r = await simc([]);
    expect(r.code).toBe(0);
    expect(firstLine(r.stdout)).toBe(DEFAULT_VERSION);
    expect(r.stdout).toMatch(/Usage: simc/);
    expect(r.stdout).toMatch(/STAND-IN/);
  });

  it('prints the version line first even when the arguments are bad', async () => {
    for (const args of [['nosuchfile'], ['warrior=x', 'level=200'], ['iterations=10']]) {
      const r = await simc(args);
      expect(r.code).toBe(1);
      expect(r.stdout.split('\n')[0]).toBe(DEFAULT_VERSION);
      expect(r.stderr).toMatch(/^Error: /);
    }
  });
});

describe('progress lines (progressbar_type=1)', () => {
  it('baseline lines: Baseline, k, K, cur, total, iter/s/thread, mean, error%, seconds left', async () => {
    const r = await simc([...BASIC, 'progressbar_type=1', 'target_error=0.5', 'seed=1', 'threads=2']);
    expect(r.code).toBe(0);
    const lines = progressLines(r.stdout);
    expect(lines.length).toBeGreaterThan(1);
    for (const f of lines) {
      expect(f[0]).toBe('Baseline');
      expect(f.length).toBe(9);
      expect(f[1]).toBe('1');
      expect(f[2]).toBe('1');
      const [cur, total] = [Number(f[3]), Number(f[4])];
      expect(Number.isInteger(cur) && Number.isInteger(total)).toBe(true);
      expect(cur).toBeLessThanOrEqual(total);
      for (const x of f.slice(5)) expect(x).toMatch(/^\d+(\.\d{3})?$/);
      expect(Number(f[6])).toBeGreaterThan(30000); // mean
    }
    // every 100 iterations while running, then the finished line with cur == total
    expect(lines[0]![3]).toBe('100');
    const last = lines.at(-1)!;
    expect(last[3]).toBe(last[4]);
    // raw stdout has one \n-terminated line per update, no \r
    expect(r.stdout).not.toContain('\r');
  });

  it('without target_error there are no mean/error fields and ~100 updates', async () => {
    const r = await simc([...BASIC, 'progressbar_type=1', 'iterations=1000', 'threads=1']);
    const lines = progressLines(r.stdout);
    expect(lines.length).toBe(100); // 99 running updates (every 10) + the finished one
    for (const f of lines) expect(f.length).toBe(7);
    expect(lines.at(-1)!.slice(3, 5)).toEqual(['1000', '1000']);
  });

  it('profileset lines carry the set name as phase and count phases k/K', async () => {
    // quotes group words in profile files only; argv tokens are taken as they are
    const f = profile('warrior=Tester\nprofileset."Set With Spaces"=talents=AAA\nprofileset.second=talents=BBB\n');
    const r = await simc([f, 'output=/dev/null', 'progressbar_type=1', 'target_error=1', 'seed=3']);
    expect(r.code).toBe(0);
    const lines = progressLines(r.stdout);
    const base = lines.filter((f) => f[0] === 'Baseline');
    const ps = lines.filter((f) => f[0] === 'Profileset');
    expect(base.every((f) => f[1] === '1' && f[2] === '3')).toBe(true);
    const named = ps.filter((f) => f[1] === 'Set With Spaces');
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((f) => f[2] === '2' && f[3] === '3')).toBe(true);
    expect(ps.filter((f) => f[1] === 'second').every((f) => f[2] === '3' && f[3] === '3')).toBe(true);
  });

  it('default progress bar redraws with \\r and ends the phase with \\n', async () => {
    const r = await simc([...BASIC, 'iterations=200', 'threads=1']);
    expect(r.stdout).toMatch(/Generating Baseline: 1\/1 \[[=>.]{20}\] \d+\/200 [\d.]+.*\r/);
    expect(r.stdout).toMatch(/Generating Baseline: 1\/1 \[===================>\] 200\/200 [^\r]*\n/);
  });
});

describe('json2 report', () => {
  const profileText = [
    '# fake.noise=0.03',
    'warrior="Main Guy"',
    'spec=fury',
    'role=attack',
    'talents=BASE',
    '# fake.dps=50000',
    'profileset."zeta high"=fake_dps=58000',
    'profileset.alpha_low=fake_dps=44000',
    'profileset.middle=fake_dps=51000',
    'profileset.dead=fake_dps=0',
  ].join('\n');
  let json: any;
  let raw: string;
  let run: Run;

  it('runs', async () => {
    const file = tmp('r.json');
    run = await simc([profile(profileText), 'iterations=400', 'threads=4', `json2=${file}`, 'output=/dev/null']);
    expect(run.code).toBe(0);
    raw = readFileSync(file, 'utf8');
    json = JSON.parse(raw);
  });

  it('has the fixture top level and sim layout', () => {
    expect(Object.keys(json)).toEqual([
      'version',
      'report_version',
      'ptr_enabled',
      'beta_enabled',
      'build_date',
      'build_time',
      'timestamp',
      'git_revision',
      'git_branch',
      'sim',
    ]);
    expect(json.report_version).toBe('2.0.0');
    expect(Object.keys(json.sim)).toEqual([
      'options',
      'overrides',
      'players',
      'profilesets',
      'statistics',
      'targets',
      'sim_auras',
    ]);
    expect(raw.includes('\n')).toBe(false); // compact, one line
  });

  it('writes the seed as a bare integer literal above 2^53 that JSON.parse cannot hold', () => {
    const m = /"seed":(\d+)/.exec(raw);
    expect(m).not.toBeNull();
    const seed = BigInt(m![1]!);
    expect(seed > 2n ** 53n).toBe(true);
    expect(BigInt(json.sim.options.seed) === seed).toBe(false);
  });

  it('options hold the actual iterations, threads, confidence and metric', () => {
    const o = json.sim.options;
    expect(o.iterations).toBe(400);
    expect(o.threads).toBe(4);
    expect(o.target_error).toBe(0);
    expect(o.confidence).toBe(0.95);
    expect(o.confidence_estimator).toBe(CE);
    expect(o.fight_style).toBe('Patchwerk');
    expect(o.profileset_metric).toBe('dps');
    expect(raw).toContain('"max_time":300.0');
  });

  it('players: extended dps sample with mean_std_dev and no mean_error; count = iterations - threads', () => {
    const p = json.sim.players[0];
    expect(p.name).toBe('Main Guy');
    expect(p.specialization).toBe('Fury Warrior');
    expect(p.role).toBe('attack');
    const dps = p.collected_data.dps;
    expect(Object.keys(dps)).toEqual([
      'sum',
      'count',
      'mean',
      'min',
      'max',
      'median',
      'variance',
      'std_dev',
      'mean_variance',
      'mean_std_dev',
    ]);
    expect(dps).not.toHaveProperty('mean_error');
    expect(dps.count).toBe(400 - 4);
    expect(dps.sum / dps.count).toBeCloseTo(dps.mean, 6);
    expect(dps.mean_std_dev).toBeCloseTo(dps.std_dev / Math.sqrt(dps.count), 6);
    expect(p.custom.stand_in_simc).toMatch(/NOT a SimulationCraft simulation result/);
  });

  it('leaves zero-valued parts out (add_non_zero)', () => {
    const p = json.sim.players[0];
    expect(p.collected_data).not.toHaveProperty('waiting_time');
    expect(p.collected_data).not.toHaveProperty('prioritydps'); // one target
    expect(p.collected_data).not.toHaveProperty('dtps'); // not a tank
    expect(p.collected_data).not.toHaveProperty('target_metric'); // no target_error
    expect(json).not.toHaveProperty('notifications'); // no warnings
    expect(json.sim.statistics).not.toHaveProperty('raid_hps');
  });

  it('profilesets: metric name, input order (unsorted), no baseline, zero-mean sets left out', () => {
    const ps = json.sim.profilesets;
    expect(ps.metric).toBe('Damage per Second');
    expect(ps.results.map((r: any) => r.name)).toEqual(['zeta high', 'alpha_low', 'middle']);
    for (const r of ps.results) {
      expect(Object.keys(r)).toEqual([
        'name',
        'mean',
        'min',
        'max',
        'stddev',
        'mean_stddev',
        'mean_error',
        'median',
        'first_quartile',
        'third_quartile',
        'iterations',
      ]);
      expect(r.mean_error).toBeCloseTo(r.mean_stddev * CE, 6);
      expect(r.iterations).toBe(400);
    }
    const byName = Object.fromEntries(ps.results.map((r: any) => [r.name, r]));
    expect(Math.abs(byName['zeta high'].mean - 58000)).toBeLessThan(4 * byName['zeta high'].mean_error);
    expect(Math.abs(byName.alpha_low.mean - 44000)).toBeLessThan(4 * byName.alpha_low.mean_error);
  });

  it('statistics carry elapsed times and the simulation length sample', () => {
    const s = json.sim.statistics;
    expect(s.elapsed_time_seconds).toBeGreaterThan(0);
    expect(s.elapsed_cpu_seconds).toBeGreaterThan(0);
    expect(s.simulation_length.count).toBe(396);
    expect(s.simulation_length.mean).toBeGreaterThan(240);
    expect(s.simulation_length.mean).toBeLessThan(360);
  });

  it('json=<file> without version writes 3.0.0-alpha1 with per-set metrics, zero sets kept', async () => {
    const file = tmp('r3.json');
    const r = await simc([profile(profileText), 'iterations=200', 'threads=2', `json=${file}`, 'output=/dev/null']);
    expect(r.code).toBe(0);
    const j = readJson(file);
    expect(j.$id).toBe('https://www.simulationcraft.org/reports/3.0.0-alpha1.schema.json');
    expect(j.report_version).toBe('3.0.0-alpha1');
    expect(j.sim.profilesets).not.toHaveProperty('metric');
    expect(j.sim.profilesets.results.map((x: any) => x.name)).toEqual(['zeta high', 'alpha_low', 'middle', 'dead']);
    const m = j.sim.profilesets.results[0].metrics[0];
    expect(m.metric).toBe('Damage per Second');
    expect(m.iterations).toBe(200);
    const dead = j.sim.profilesets.results[3].metrics[0];
    expect(dead.mean).toBe(0);
    expect(dead).not.toHaveProperty('median');
  });

  it('json=<file>,version=2,pretty_print=1 writes an indented 2.0.0 report; notifications hold warnings', async () => {
    const file = tmp('pretty.json');
    const r = await simc([...BASIC, 'iterations=30', 'nonsense_option=1', `json=${file},version=2,pretty_print=1`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("Warning: Unknown option 'nonsense_option' with value '1', ignoring");
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^\{\n {4}"version": "1201-01",\n/);
    const j = JSON.parse(text);
    expect(j.report_version).toBe('2.0.0');
    expect(j.notifications).toEqual(["Warning: Unknown option 'nonsense_option' with value '1', ignoring"]);
  });
});

describe('iterations and target_error', () => {
  const iterationsFor = async (target: number, seed: number) => {
    const file = tmp('te.json');
    const r = await simc([...BASIC, `target_error=${target}`, `seed=${seed}`, 'threads=1', `json2=${file}`]);
    expect(r.code).toBe(0);
    const j = readJson(file);
    const dps = j.sim.players[0].collected_data.dps;
    return { iterations: j.sim.options.iterations as number, errPct: ((dps.mean_std_dev * CE) / dps.mean) * 100 };
  };

  it('stops at the target error; iterations needed scale ~ 1/target²', async () => {
    const coarse = await iterationsFor(0.4, 11);
    const fine = await iterationsFor(0.1, 11);
    expect(coarse.errPct).toBeLessThan(0.4);
    expect(fine.errPct).toBeLessThan(0.1);
    // noise 3 % → n ≈ (1.96·3/target)²: ~216 at 0.4 %, ~3457 at 0.1 %; checked every 100 iterations
    const ratio = fine.iterations / coarse.iterations;
    expect(ratio).toBeGreaterThan(16 / 2);
    expect(ratio).toBeLessThan(16 * 2);
    expect(fine.iterations % 100).toBe(0); // threads=1: stops right at a check
  });

  it('with neither option runs to 0.2 % with a cap of 1,000,000', async () => {
    const r = await simc([...BASIC, 'threads=1', 'seed=5']);
    expect(r.stdout).toContain('Simulating... ( iterations=1000000, threads=1, target_error=0.200,');
  });

  it('iterations=N alone runs exactly N, count = N - threads', async () => {
    const file = tmp('exact.json');
    const r = await simc([...BASIC, 'iterations=1234', 'threads=3', `json2=${file}`]);
    expect(r.code).toBe(0);
    const j = readJson(file);
    expect(j.sim.options.iterations).toBe(1234);
    expect(j.sim.players[0].collected_data.dps.count).toBe(1231);
  });

  it('iterations=1 collects its single iteration', async () => {
    const file = tmp('one.json');
    await simc([...BASIC, 'iterations=1', `json2=${file}`]);
    expect(readJson(file).sim.players[0].collected_data.dps.count).toBe(1);
  });

  it('iterations is a cap when both are given', async () => {
    const file = tmp('cap.json');
    await simc([...BASIC, 'iterations=300', 'target_error=0.01', 'threads=1', `json2=${file}`]);
    expect(readJson(file).sim.options.iterations).toBe(300);
  });

  it('threads=0 uses the hardware threads, threads=-1 one less', async () => {
    const a = await simc([...BASIC, 'iterations=10', 'threads=0'], { env: { FAKE_SIMC_HW_THREADS: '6' } });
    expect(a.stdout).toContain('threads=6,');
    const b = await simc([...BASIC, 'iterations=10', 'threads=-1'], { env: { FAKE_SIMC_HW_THREADS: '6' } });
    expect(b.stdout).toContain('threads=5,');
  });

  it('time is proportional to iterations (FAKE_SIMC_ITER_US)', async () => {
    const r = await simc([...BASIC, 'iterations=2000', 'threads=1'], { env: { FAKE_SIMC_ITER_US: '200' } });
    expect(r.ms).toBeGreaterThanOrEqual(380);
    // Only lower bounds: a loaded machine can make a run slower, never faster, than the time it is told to take.
    const more = await simc([...BASIC, 'iterations=10000', 'threads=1'], { env: { FAKE_SIMC_ITER_US: '100' } });
    expect(more.ms).toBeGreaterThanOrEqual(950);
  });
});

describe('determinism and true DPS', () => {
  const stats = async (extra: string[]) => {
    const file = tmp('det.json');
    await simc([...BASIC, 'target_error=0.3', 'threads=2', `json2=${file}`, ...extra]);
    const j = readJson(file);
    return { it: j.sim.options.iterations, dps: j.sim.players[0].collected_data.dps, raw: readFileSync(file, 'utf8') };
  };

  it('the same seed gives the same numbers, another seed other numbers', async () => {
    const a = await stats(['seed=424242']);
    const b = await stats(['seed=424242']);
    const c = await stats(['seed=424243']);
    expect(b.it).toBe(a.it);
    expect(b.dps).toEqual(a.dps);
    expect(c.dps.mean).not.toBe(a.dps.mean);
    expect(/"seed":424242,/.test(a.raw)).toBe(true);
  });

  it('deterministic=1 uses seed 31459', async () => {
    const file = tmp('det1.json');
    const r = await simc([...BASIC, 'deterministic=1', 'iterations=100', `json2=${file}`]);
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('"seed":31459,');
  });

  it('the true DPS is a stable function of the actor lines', async () => {
    const a = await stats(['seed=1']);
    const b = await stats(['seed=2']);
    const j = (x: typeof a) => JSON.parse(x.raw).sim.players[0].custom.true_dps as number;
    expect(j(a)).toBe(j(b));
    expect(j(a)).toBeGreaterThanOrEqual(40000);
    expect(j(a)).toBeLessThan(60000);
    const other = await stats(['seed=1', 'talents=DIFFERENT']); // CLI token after the file → last actor
    expect(j(other)).not.toBe(j(a));
  });

  it('a # fake.dps directive sets the true DPS; the measured mean is within error of it', async () => {
    const file = tmp('override.json');
    const r = await simc([
      profile('mage=Caster\nspec=frost\n# fake.dps=51234.5\n'),
      'target_error=0.2',
      'seed=99',
      `json2=${file}`,
      'output=/dev/null',
    ]);
    expect(r.code).toBe(0);
    const dps = readJson(file).sim.players[0].collected_data.dps;
    const meanError = dps.mean_std_dev * CE;
    expect(Math.abs(dps.mean - 51234.5)).toBeLessThan(3 * meanError);
    expect((meanError / dps.mean) * 100).toBeLessThan(0.2);
  });

  it('fake_dps / fake_noise tokens work on the command line too', async () => {
    const file = tmp('tok.json');
    await simc([
      ...BASIC,
      'fake_dps=30000',
      'fake_noise=0.1',
      'iterations=2000',
      'threads=1',
      'seed=8',
      `json2=${file}`,
    ]);
    const dps = readJson(file).sim.players[0].collected_data.dps;
    expect(Math.abs(dps.mean - 30000)).toBeLessThan(4 * dps.mean_std_dev * CE);
    expect(dps.std_dev / dps.mean).toBeGreaterThan(0.08);
    expect(dps.std_dev / dps.mean).toBeLessThan(0.12);
  });

  it('a profileset that leaves the actor unchanged has the baseline true DPS', async () => {
    const file = tmp('same.json');
    await simc([
      ...BASIC,
      'talents=XYZ',
      'fake_dps=45000',
      'profileset.same=talents=XYZ',
      'profileset.other=talents=QQQ',
      'iterations=3000',
      'threads=1',
      'seed=4',
      `json2=${file}`,
    ]);
    const j = readJson(file);
    const [same, other] = j.sim.profilesets.results;
    expect(Math.abs(same.mean - 45000)).toBeLessThan(4 * same.mean_error);
    expect(Math.abs(other.mean - 45000)).toBeLessThan(45000 * 0.061 + 4 * other.mean_error);
  });
});

describe('game facts: primary stat, armour, consumables, weights', () => {
  /** The true DPS of the baseline and of each profileset (the report's custom.true_dps and set means). */
  async function sets(text: string, extra: string[] = []) {
    const file = tmp('facts.json');
    const r = await simc([
      profile(text),
      'iterations=2000',
      'threads=2',
      'seed=7',
      `json2=${file}`,
      'output=/dev/null',
      ...extra,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const j = readJson(file);
    const player = j.sim.players[0];
    const means = Object.fromEntries(
      (j.sim.profilesets?.results ?? []).map((x: any) => [x.name, { mean: x.mean, error: x.mean_error }]),
    );
    return { trueDps: player.custom.true_dps as number, mean: player.collected_data.dps.mean as number, means, j };
  }
  const below = (a: { mean: number; error: number }, b: number) => expect(a.mean + 4 * a.error).toBeLessThan(b);

  it('counts gear_<stat> only for the spec primary: gear_agility on a Devourer Demon Hunter adds nothing', async () => {
    const r = await sets(
      [
        'demonhunter=Dev',
        'spec=devourer',
        '# fake.dps=50000',
        'profileset.int=gear_intellect=1000',
        'profileset.agi=gear_agility=1000',
        'profileset.str=gear_strength=1000',
      ].join('\n'),
    );
    expect(r.trueDps).toBe(50000);
    expect(r.means.int!.mean).toBeGreaterThan(51500);
    for (const name of ['agi', 'str'])
      expect(Math.abs(r.means[name]!.mean - 50000)).toBeLessThan(4 * r.means[name]!.error);
    // Havoc is the Agility one
    const havoc = await sets(
      ['demonhunter=Hav', 'spec=havoc', '# fake.dps=50000', 'profileset.agi=gear_agility=1000'].join('\n'),
    );
    expect(havoc.means.agi!.mean).toBeGreaterThan(51500);
  });

  it('an item without the spec primary stat gives no primary: an Agility trinket lowers a Warrior', async () => {
    const r = await sets(
      [
        'warrior=W',
        'spec=fury',
        '# fake.dps=50000',
        'trinket1=,id=249806', // Strength/Agility trinket
        'profileset.agi_trinket=trinket1=,id=249345', // Agility only
        'profileset.agi_trinket+=fake_dps=50000',
        'profileset.unknown_trinket=trinket1=,id=1', // not in the table: on-stat
        'profileset.unknown_trinket+=fake_dps=50000',
      ].join('\n'),
    );
    expect(r.trueDps).toBe(50000);
    below(r.means.agi_trinket!, 50000);
    expect(Math.abs(r.means.unknown_trinket!.mean - 50000)).toBeLessThan(4 * r.means.unknown_trinket!.error);
  });

  it('an armour piece of another type costs the armour bonus: plate on a Warlock, still Intellect', async () => {
    const cloth = ['warlock=L', 'spec=destruction', '# fake.dps=50000', 'shoulder=,id=249328', 'head=,id=249329'];
    const r = await sets(
      [
        ...cloth,
        'profileset.plate=shoulder=,id=249313',
        'profileset.plate+=fake_dps=50000',
        'profileset.cloth=shoulder=,id=249328',
        'profileset.cloth+=fake_dps=50000',
      ].join('\n'),
    );
    expect(r.trueDps).toBe(50000);
    below(r.means.plate!, 50000);
    // 5 % of the gear primary's 30 % share: about 1.5 %
    expect(r.means.plate!.mean).toBeGreaterThan(50000 * 0.98);
    expect(Math.abs(r.means.cloth!.mean - 50000)).toBeLessThan(4 * r.means.cloth!.error);
    // the same plate piece on a Warrior keeps the bonus; on a Hunter it also gives no Agility
    const hunter = await sets(['hunter=H', 'spec=marksmanship', '# fake.dps=50000', 'shoulder=,id=249313'].join('\n'));
    expect(hunter.trueDps).toBeLessThan(50000 * 0.97);
    const warrior = await sets(['warrior=W', 'spec=arms', '# fake.dps=50000', 'shoulder=,id=249313'].join('\n'));
    expect(warrior.trueDps).toBe(50000);
  });

  it("the fixtures' characters wear only their own armour type and primary stat: nothing costs them", async () => {
    const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
    for (const file of [
      'addon/fury-equipped-only.txt',
      'addon/fury-bags-vault.txt',
      'simc/profiles/MID1_Mage_Frost.simc',
    ]) {
      const text = readFileSync(join(fixtures, file), 'utf8').replace(/^(\w+=.*)$/m, '$1\n# fake.dps=50000');
      const r = await sets(text);
      expect(r.trueDps, file).toBe(50000);
    }
    // the Vault's Intellect trinket in the Fury export's bags would cost the Warrior its share of Strength
    const vault = await sets(
      [
        'warrior=W',
        'spec=fury',
        '# fake.dps=50000',
        'trinket1=,id=249342', // Strength
        'profileset.vault=trinket1=,id=249346', // Intellect
        'profileset.vault+=fake_dps=50000',
      ].join('\n'),
    );
    below(vault.means.vault!, 50000);
  });

  it('a flask, food, augment rune and potion are worth having: =disabled simulates lower', async () => {
    const r = await sets(
      [
        'mage=M',
        'spec=fire',
        'flask=flask_of_the_magisters_2',
        'food=harandar_celebration',
        'profileset.no_flask=flask=disabled',
        'profileset.no_food=food=disabled',
        'profileset.no_augment=augmentation=disabled',
        'profileset.no_potion=potion=disabled',
        'profileset.other_flask=flask=flask_of_the_shattered_sun_2',
      ].join('\n'),
    );
    for (const name of ['no_flask', 'no_food', 'no_augment', 'no_potion']) below(r.means[name]!, r.trueDps);
    expect(r.means.no_flask!.mean).toBeLessThan(r.means.no_food!.mean);
    expect(Math.abs(r.means.other_flask!.mean - r.trueDps)).toBeLessThan(4 * r.means.other_flask!.error);
  });

  it('scale factors without fake.weights: positive, the spec primary highest (Intellect for Devourer)', async () => {
    for (const [cls, spec, primary] of [
      ['demonhunter', 'devourer', 'Int'],
      ['warrior', 'fury', 'Str'],
      ['hunter', 'beast_mastery', 'Agi'],
    ] as const) {
      const r = await sets(`${cls}=X\nspec=${spec}\n`, [
        'calculate_scale_factors=1',
        'target_error=0.05',
        'iterations=0',
      ]);
      const sf = r.j.sim.players[0].scale_factors as Record<string, number>;
      expect(Object.keys(sf)).toEqual([primary, 'Crit', 'Haste', 'Mastery', 'Vers']);
      for (const v of Object.values(sf)) expect(v).toBeGreaterThan(0);
      for (const stat of ['Crit', 'Haste', 'Mastery', 'Vers']) expect(sf[primary]).toBeGreaterThan(sf[stat]!);
    }
  });

  it('scale_only=agi on a Devourer measures nothing: its Agility is worth 0, its Intellect the most', async () => {
    const r = await sets('demonhunter=D\nspec=devourer\n', [
      'calculate_scale_factors=1',
      'scale_only=agi,int,crit',
      'target_error=0.05',
      'iterations=0',
    ]);
    const sf = r.j.sim.players[0].scale_factors as Record<string, number>;
    expect(Object.keys(sf)).toEqual(['Agi', 'Int', 'Crit']);
    expect(Math.abs(sf.Agi!)).toBeLessThan(0.5);
    expect(sf.Int!).toBeGreaterThan(sf.Crit! + 0.5);
  });

  it('profileset weights (enchants) without fake.weights: positive, the primary highest', async () => {
    const stats = ['intellect', 'crit_rating', 'haste_rating', 'mastery_rating', 'versatility_rating'];
    const r = await sets(
      ['evoker=E', 'spec=devastation', ...stats.map((s) => `profileset.${s}=enchant_${s}=300`)].join('\n'),
      ['iterations=0', 'target_error=0.05'],
    );
    const gain = (s: string) => (r.means[s]!.mean - r.mean) / 300;
    for (const s of stats) expect(gain(s)).toBeGreaterThan(0);
    for (const s of stats.slice(1)) expect(gain('intellect')).toBeGreaterThan(gain(s));
  });
});

describe('profile syntax', () => {
  it('skips a UTF-8 BOM and # comments, groups "quoted values", expands $(vars)', async () => {
    const f = profile('\uFEFF# comment line\n$(who)="Quoted Name"\nwarrior="$(who)"\n  spec=arms\n');
    const file = tmp('syn.json');
    const r = await simc([f, 'iterations=20', `json2=${file}`, 'output=/dev/null']);
    expect(r.code).toBe(0);
    expect(readJson(file).sim.players[0].name).toBe('Quoted Name');
  });

  it('reads a profile from stdin with -', async () => {
    const file = tmp('stdin.json');
    const r = await simc(['-', 'iterations=20', `json2=${file}`, 'output=/dev/null'], {
      input: 'priest=FromStdin\nspec=shadow\n',
    });
    expect(r.code).toBe(0);
    expect(readJson(file).sim.players[0].specialization).toBe('Shadow Priest');
  });

  it('input= and bare file names are relative to the working directory', async () => {
    const sub = mkdtempSync(join(dir, 'cwd-'));
    writeFileSync(join(sub, 'gear.simc'), 'head=some_helm,id=1,ilevel=250\n');
    writeFileSync(join(sub, 'main.simc'), 'rogue=Sneaky\nspec=outlaw\ninput=gear.simc\n');
    const file = join(sub, 'out.json');
    const r = await simc(['main.simc', 'iterations=20', 'json2=out.json', 'output=/dev/null'], { cwd: sub });
    expect(r.code).toBe(0);
    expect(readJson(file).sim.players[0].gear.head.ilevel).toBe(250);
  });

  it('copy= creates more actors (a multi-actor sim)', async () => {
    const file = tmp('copy.json');
    const f = profile('hunter=One\ncopy=Two\ncopy="Three Four",One\n');
    await simc([f, 'copy=Five', 'iterations=30', `json2=${file}`, 'output=/dev/null']);
    const names = readJson(file).sim.players.map((p: any) => p.name);
    expect(names).toEqual(['One', 'Two', 'Three Four', 'Five']);
  });

  it('text report and html say the numbers are synthetic', async () => {
    const html = tmp('r.html');
    const out = tmp('r.txt');
    const r = await simc(['warrior=X', 'iterations=20', `html=${html}`, `output=${out}`]);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(
      /SYNTHETIC NUMBERS from the stand-in simc.*NOT a SimulationCraft simulation result/,
    );
    const h = readFileSync(html, 'utf8');
    expect(h).toMatch(/<title>STAND-IN simc report \(synthetic numbers\)<\/title>/);
    expect(h).toContain('NOT a SimulationCraft simulation result');
    // output= moves the text report off stdout
    expect(r.stdout).not.toContain('DPS Ranking');
    expect(r.stdout).toContain('HTML report took');
  });
});

describe('errors', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'unknown bare token',
      ['warrior=x', 'typo_file'],
      /^Error: Incorrect option format: Unexpected parameter 'typo_file'\. Expected format: name=value\n$/,
    ],
    [
      'missing input file',
      ['input=nothere.simc'],
      /^Error: Incorrect option format: Unable to open input parameter file 'nothere\.simc'\.\n$/,
    ],
    ['nothing to sim', ['iterations=10'], /^Error: Setup failure: Nothing to sim!\n$/],
    [
      'out-of-range actor option',
      ['warrior=x', 'level=95'],
      /^Error: Setup failure: Option 'level' with value '95': Option 'level' with value '95' not within valid boundaries \[0\.\.90\]\n$/,
    ],
    [
      'out-of-range sim option',
      ['warrior=x', 'vary_combat_length=2'],
      /^Error: Setup failure: Option 'vary_combat_length' with value '2': .*not within valid boundaries \[0\.\.1\]\n$/,
    ],
    [
      'bad bool',
      ['warrior=x', 'report_details=yes'],
      /^Error: Setup failure: Option 'report_details' with value 'yes': Acceptable values for 'report_details' are '1' or '0'\n$/,
    ],
    [
      'deterministic + target_error',
      ['warrior=x', 'deterministic=1'],
      /^Error: Setup failure: deterministic=1 cannot be used with non-zero target_error values!\n$/,
    ],
    [
      'strict parsing',
      ['warrior=x', 'iterations=10', 'tyop=1', 'strict_parsing=1'],
      /^Error: Setup failure: Unknown option 'tyop' with value '1'\.\n$/,
    ],
    [
      'bad json version',
      ['warrior=x', 'json=a.json,version=7'],
      /Cannot generate JSON report with version 7\. Available non-deprecated versions: 3\.0\.0-alpha1 \/ 2\.0\.0\./,
    ],
    [
      'profileset defines an actor',
      ['warrior=x', 'profileset.bad=mage=y'],
      /^Error: Profileset 'bad': Invalid profileset option: Profilesets cannot define additional actors 'mage=y'\.\n$/,
    ],
    [
      'profileset main actor index',
      ['warrior=x', 'profileset.a=talents=1', 'profileset_main_actor_index=2'],
      /^Error: Profileset 'a': Invalid profileset option: 'profileset_main_actor_index=2' out of range, only 1 actors are defined\.\n$/,
    ],
    ['copy without source', ['copy=z'], /No active player as source for profile copy available/],
    [
      'missing template variable',
      ['warrior=x', 'talents=$(nope)'],
      /^Error: Incorrect option format: Missing template variable: 'nope'\n$/,
    ],
    [
      'output file cannot be opened',
      ['warrior=x', 'output=/nonexistent-dir/x.txt'],
      /^Error: Setup failure: Unable to open output file '\/nonexistent-dir\/x\.txt'\n$/,
    ],
  ];
  for (const [name, args, re] of cases) {
    it(`${name} → Error: on stderr, exit 1`, async () => {
      const r = await simc(args);
      expect(r.code).toBe(1);
      expect(firstLine(r.stdout)).toBe(DEFAULT_VERSION);
      expect(r.stderr).toMatch(re);
    });
  }

  it('iterations=-5 is not an error in simc (int option, ≤ 0 means "auto")', async () => {
    const r = await simc([...BASIC, 'iterations=-5', 'threads=1', 'seed=1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('iterations=1000000, threads=1, target_error=0.200');
  });

  it('unknown options are warnings by default', async () => {
    const r = await simc([...BASIC, 'iterations=10', 'xml=out.xml']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("Warning: Unknown option 'xml' with value 'out.xml', ignoring\n");
  });
});

describe('failure knobs and signals', () => {
  it('crash (exit mode): simc handler line on stderr, exit code 11, no report', async () => {
    const file = tmp('crash.json');
    const r = await simc([...BASIC, 'iterations=1000', 'threads=1', 'progressbar_type=1', `json2=${file}`], {
      env: { FAKE_SIMC_CRASH_AFTER: '3' },
    });
    expect(r.code).toBe(11);
    expect(r.stderr).toMatch(/^sim_signal_handler: Segmentation fault! Iteration=30 Seed=\d+ TargetHealth=\d+\n$/);
    expect(progressLines(r.stdout)).toHaveLength(3);
    expect(existsSync(file)).toBe(false);
  });

  it('crash (signal mode): killed by SIGSEGV', async () => {
    const r = await simc([
      profile('warrior=x\n# fake.crash_after=1\n# fake.crash_mode=signal\n'),
      'iterations=500',
      'output=/dev/null',
    ]);
    expect(r.code).toBeNull();
    expect(r.signal).toBe('SIGSEGV');
  });

  it('hang: stops after N progress lines until killed', async () => {
    let lines = 0;
    let sawHang = false;
    const r = await simc([...BASIC, 'iterations=1000', 'threads=1', 'progressbar_type=1'], {
      env: { FAKE_SIMC_HANG_AFTER: '2' },
      onStdout: (child, out) => {
        const n = progressLines(out).length;
        if (n === 2 && lines < 2) {
          setTimeout(() => {
            sawHang = child.exitCode === null;
            child.kill('SIGTERM');
          }, 600);
        }
        lines = n;
      },
    });
    expect(sawHang).toBe(true);
    expect(lines).toBe(2);
    expect(r.signal).toBe('SIGTERM');
  });

  it('no_report: exit 0 without the json file', async () => {
    const file = tmp('none.json');
    const r = await simc([...BASIC, 'iterations=50', `json2=${file}`], { env: { FAKE_SIMC_NO_REPORT: '1' } });
    expect(r.code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  for (const mode of ['truncate', 'empty', 'garbage', 'writer_error']) {
    it(`bad_report=${mode}: exit 0, json file does not parse`, async () => {
      const file = tmp(`bad-${mode}.json`);
      const r = await simc([...BASIC, 'iterations=50', `json2=${file}`], { env: { FAKE_SIMC_BAD_REPORT: mode } });
      expect(r.code).toBe(0);
      expect(() => JSON.parse(readFileSync(file, 'utf8'))).toThrow();
      if (mode === 'writer_error')
        expect(r.stderr).toContain('Error generating JSON report: JSON Writer did not accept document.');
    });
  }

  it('slow start delays the version line', async () => {
    const r = await simc([...BASIC, 'iterations=10'], { env: { FAKE_SIMC_START_DELAY_MS: '600' } });
    expect(r.ms).toBeGreaterThanOrEqual(590);
    expect(firstLine(r.stdout)).toBe(DEFAULT_VERSION);
  });

  it('SIGTERM: no handler, killed by the signal', async () => {
    let sent = false;
    const r = await simc([...BASIC, 'iterations=100000', 'threads=1', 'progressbar_type=1'], {
      env: { FAKE_SIMC_ITER_US: '200' },
      onStdout: (child, out) => {
        if (!sent && progressLines(out).length > 0) {
          sent = true;
          child.kill('SIGTERM');
        }
      },
    });
    expect(r.code).toBeNull();
    expect(r.signal).toBe('SIGTERM');
  });

  it('SIGINT in a plain sim: stops early, writes the report with fewer iterations, exit 0', async () => {
    const file = tmp('int.json');
    let sent = false;
    const r = await simc([...BASIC, 'iterations=100000', 'threads=2', 'progressbar_type=1', `json2=${file}`], {
      env: { FAKE_SIMC_ITER_US: '200' },
      onStdout: (child, out) => {
        if (!sent && progressLines(out).length >= 2) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^sim_signal_handler: Interrupt! Iteration=\d+ Seed=\d+ TargetHealth=\d+\n$/);
    const j = readJson(file);
    expect(j.sim.options.iterations).toBeGreaterThan(1000);
    expect(j.sim.options.iterations).toBeLessThan(100000);
    expect(j.sim.players[0].collected_data.dps.count).toBe(j.sim.options.iterations - 2);
  });

  it('SIGINT with profilesets cancels: exit 1, no report', async () => {
    const file = tmp('intps.json');
    let sent = false;
    const r = await simc(
      [...BASIC, 'iterations=100000', 'threads=2', 'progressbar_type=1', `json2=${file}`, 'profileset.a=talents=1'],
      {
        env: { FAKE_SIMC_ITER_US: '200' },
        onStdout: (child, out) => {
          if (!sent && progressLines(out).length >= 1) {
            sent = true;
            child.kill('SIGINT');
          }
        },
      },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Simulation was canceled.');
    expect(existsSync(file)).toBe(false);
  });
});
