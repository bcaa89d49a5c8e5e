/**
 * What local mode costs on top of simc: wall time of `simjob submit <profile> --local --wait` against running the
 * stand-in simc directly on the same profile with the same report options, one run of each per round, interleaved,
 * medians over the rounds. Two simjob figures:
 *   - cold: a fresh data dir each round (the usual single run);
 *   - warm: the data dir of the previous round (its jobs and log; the waiting command runs the queue either way).
 * The overhead is given in Node start-ups (`node -e 0`, measured in the same rounds), so machines compare.
 * Target (the developers' standard): each within 2 start-ups of the floor below. CPU times (user + system, with
 * /usr/bin/time) are printed too: on a shared machine they move less than wall times.
 * bench/floors/local.cjs runs in the same rounds: a Node script that starts simc with the same options, waits and
 * reads its report, the least a local submit on Node can cost; the gap between it and simjob is simjob's own share.
 * Run: npm run build && node scripts/tsrun.mjs bench/local-overhead.ts [rounds]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { medianCpu, medianWall, timed, type Sample } from './lib/measure.js';
import { printFigures } from './lib/figures.js';

const rounds = Number(process.argv[2] ?? 15);
const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'simjob.js');
const simc = join(root, 'test', 'fake-simc', 'simc');
/** Start-ups over the floor's. */
const TARGET = 2;

const base = readFileSync(join(root, 'test', 'fixtures', 'simc', 'profiles', 'MID1_Warrior_Fury.simc'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'simjob-bench-local-'));
const profile = join(work, 'bench.simc');
writeFileSync(
  profile,
  `${base.trimEnd()}\niterations=1000\nprofileset."a"=potion=disabled\nprofileset."b"=flask=disabled\n`,
);

const samples: Record<'node' | 'direct' | 'cold' | 'warm' | 'floor', Sample[]> = {
  node: [],
  direct: [],
  cold: [],
  warm: [],
  floor: [],
};
const floorScript = join(root, 'bench', 'floors', 'local.cjs');
const warmEnv = {
  ...process.env,
  SIMJOB_DATA_DIR: join(work, 'warm', 'data'),
  SIMJOB_CONFIG_DIR: join(work, 'warm', 'config'),
};
const submit = ['submit', profile, '--local', '--wait', '--json', '--simc', simc];

try {
  for (let round = -1; round < rounds; round++) {
    // simc alone, as simjob runs it: in a folder of its own, with the same report and progress options.
    const dir = join(work, `direct-${round}`);
    mkdirSync(dir);
    const d = timed(simc, [profile, 'json2=report.json', 'output=simc-output.txt', 'progressbar_type=1'], { cwd: dir });
    const coldEnv = {
      ...process.env,
      SIMJOB_DATA_DIR: join(work, `cold-${round}`, 'data'),
      SIMJOB_CONFIG_DIR: join(work, `cold-${round}`, 'config'),
    };
    const c = timed(process.execPath, [bin, ...submit], { env: coldEnv });
    const w = timed(process.execPath, [bin, ...submit], { env: warmEnv });
    const n = timed(process.execPath, ['-e', '0']);
    const floorDir = join(work, `floor-${round}`);
    mkdirSync(floorDir);
    const f = timed(process.execPath, [floorScript, simc, profile, floorDir]);
    if (round < 0) continue; // round -1 warms the disk cache and the code caches
    samples.node.push(n);
    samples.direct.push(d);
    samples.cold.push(c);
    samples.warm.push(w);
    samples.floor.push(f);
  }
  const wall = {
    node: medianWall(samples.node),
    direct: medianWall(samples.direct),
    cold: medianWall(samples.cold),
    warm: medianWall(samples.warm),
    floor: medianWall(samples.floor),
  };
  const cpu = {
    node: medianCpu(samples.node),
    direct: medianCpu(samples.direct),
    cold: medianCpu(samples.cold),
    warm: medianCpu(samples.warm),
    floor: medianCpu(samples.floor),
  };
  const startups = {
    cold: (wall.cold - wall.direct) / wall.node,
    warm: (wall.warm - wall.direct) / wall.node,
    floor: (wall.floor - wall.direct) / wall.node,
  };
  const cpuStartups = { cold: (cpu.cold - cpu.direct) / cpu.node, warm: (cpu.warm - cpu.direct) / cpu.node };
  const row = (name: string, w: number, c: number, extra = '') =>
    console.log(`  ${name.padEnd(38)} ${w.toFixed(1).padStart(7)} ms  cpu ${c.toFixed(0).padStart(4)} ms${extra}`);
  console.log(
    `Local-mode overhead, median of ${rounds} interleaved rounds (Node ${process.versions.node}, stand-in simc):`,
  );
  row('node -e 0 (one Node start-up)', wall.node, cpu.node);
  row('simc directly', wall.direct, cpu.direct);
  row(
    'submit --local --wait (cold data dir)',
    wall.cold,
    cpu.cold,
    `  +${(wall.cold - wall.direct).toFixed(1)} ms = ${startups.cold.toFixed(2)} start-ups (cpu ${cpuStartups.cold.toFixed(2)})`,
  );
  row(
    'submit --local --wait (warm data dir)',
    wall.warm,
    cpu.warm,
    `  +${(wall.warm - wall.direct).toFixed(1)} ms = ${startups.warm.toFixed(2)} start-ups (cpu ${cpuStartups.warm.toFixed(2)})`,
  );
  row(
    'floor: Node starts simc, reads report',
    wall.floor,
    cpu.floor,
    `  +${(wall.floor - wall.direct).toFixed(1)} ms = ${startups.floor.toFixed(2)} start-ups`,
  );
  const overFloor = { cold: startups.cold - startups.floor, warm: startups.warm - startups.floor };
  const said = (over: number) => `${over >= 0 ? '+' : ''}${over.toFixed(2)} (${over <= TARGET ? 'met' : 'MISSED'})`;
  console.log(
    `Over the floor, in start-ups (target ≤ +${TARGET}): cold ${said(overFloor.cold)}, warm ${said(overFloor.warm)}`,
  );
  printFigures([
    {
      name: 'submit --local --wait over the floor, cold, in Node start-ups',
      value: overFloor.cold,
      unit: '×',
      max: TARGET,
    },
    {
      name: 'submit --local --wait over the floor, warm, in Node start-ups',
      value: overFloor.warm,
      unit: '×',
      max: TARGET,
    },
    {
      name: 'floor: a bare Node script that runs simc, over simc, in Node start-ups',
      value: startups.floor,
      unit: '×',
    },
  ]);
} finally {
  // Let any worker this bench started leave on its own (2 s idle grace) before its data dir goes.
  await new Promise((r) => setTimeout(r, 3_000));
  rmSync(work, { recursive: true, force: true });
}
