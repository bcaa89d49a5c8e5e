/**
 * What local mode costs on top of simc: wall time of `simjob submit <profile> --local --wait` against running the
 * stand-in simc directly on the same profile with the same report options, one run of each per round, medians over
 * the rounds. Two simjob figures:
 *   - cold: a fresh data dir each round, so simjob also starts its background worker (the usual single run);
 *   - warm: the worker of the previous round is still there (a run within its 2 s idle grace).
 * Target (issue 4): cold at most 150 ms more than simc alone. simjob's own CLI start-up and the worker's are each a
 * Node start-up, so the figure is also printed in Node start-ups (`node -e 0`) to compare machines.
 * Run: npm run build && node scripts/tsrun.mjs bench/local-overhead.ts [rounds]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const rounds = Number(process.argv[2] ?? 9);
const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'simjob.js');
const simc = join(root, 'test', 'fake-simc', 'simc');
const TARGET_MS = 150;

const fixture = join(root, '..', 'shared', 'fixtures', 'simc', 'profiles', 'MID1_Warrior_Fury.simc');
const base = existsSync(fixture) ? readFileSync(fixture, 'utf8') : 'warrior="Bench"\nspec=fury\nlevel=90\n';
const work = mkdtempSync(join(tmpdir(), 'simjob-bench-local-'));
const profile = join(work, 'bench.simc');
writeFileSync(profile, `${base.trimEnd()}\niterations=1000\nprofileset."a"=potion=disabled\nprofileset."b"=flask=disabled\n`);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function timed(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }): number {
  const started = process.hrtime.bigint();
  const child = spawnSync(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${child.status}: ${child.stderr.toString()}`);
  return ms;
}

const bareNode: number[] = [];
const direct: number[] = [];
const cold: number[] = [];
const warm: number[] = [];
const warmEnv = { ...process.env, SIMJOB_DATA_DIR: join(work, 'warm', 'data'), SIMJOB_CONFIG_DIR: join(work, 'warm', 'config') };
const submit = ['submit', profile, '--local', '--wait', '--json', '--simc', simc];

try {
  for (let round = -1; round < rounds; round++) {
    // simc alone, as simjob runs it: in a folder of its own, with the same report and progress options.
    const dir = join(work, `direct-${round}`);
    mkdirSync(dir);
    const d = timed(simc, [profile, 'json2=report.json', 'output=simc-output.txt', 'progressbar_type=1'], { cwd: dir });
    const coldEnv = { ...process.env, SIMJOB_DATA_DIR: join(work, `cold-${round}`, 'data'), SIMJOB_CONFIG_DIR: join(work, `cold-${round}`, 'config') };
    const c = timed(process.execPath, [bin, ...submit], { env: coldEnv });
    const w = timed(process.execPath, [bin, ...submit], { env: warmEnv });
    const n = timed(process.execPath, ['-e', '0'], {});
    if (round >= 0) {
      // Round -1 warms the disk cache and Node's compile cache.
      bareNode.push(n);
      direct.push(d);
      cold.push(c);
      warm.push(w);
    }
  }
  const [md, mc, mw, mn] = [median(direct), median(cold), median(warm), median(bareNode)];
  console.log(`Local-mode overhead, median of ${rounds} rounds (Node ${process.versions.node}, stand-in simc):`);
  console.log(`  node -e 0 (one Node start-up, for scale)  ${mn.toFixed(1).padStart(7)} ms`);
  console.log(`  simc directly                             ${md.toFixed(1).padStart(7)} ms`);
  console.log(`  simjob submit --local --wait (cold worker) ${mc.toFixed(1).padStart(7)} ms   +${(mc - md).toFixed(1)} ms`);
  console.log(`  simjob submit --local --wait (warm worker) ${mw.toFixed(1).padStart(7)} ms   +${(mw - md).toFixed(1)} ms`);
  console.log(`  overhead in Node start-ups: cold ${((mc - md) / mn).toFixed(1)}, warm ${((mw - md) / mn).toFixed(1)}`);
  console.log(`Target: at most +${TARGET_MS} ms (cold): ${mc - md <= TARGET_MS ? 'met' : 'MISSED'}`);
} finally {
  // Let the workers this bench started leave on their own (2 s idle grace) before their data dirs go.
  await new Promise((r) => setTimeout(r, 3_000));
  rmSync(work, { recursive: true, force: true });
}
