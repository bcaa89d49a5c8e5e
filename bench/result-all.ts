/**
 * `simjob result <id> --all` on a local job with many profilesets (stand-in simc, synthetic numbers), piped (the
 * TSV table) as scripts read it, against `node -e 0` in the same interleaved rounds: medians of wall and CPU time.
 * Target (issue 15): at most 6× a bare Node start-up at 20,000 profilesets.
 * Run: npm run build && node scripts/tsrun.mjs bench/result-all.ts [rounds] [sizes, e.g. 5000,20000]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { medianCpu, medianWall, timed, type Sample } from './lib/measure.js';
import { printFigures } from './lib/figures.js';

const rounds = Number(process.argv[2] ?? 15);
const sizes = (process.argv[3] ?? '5000,20000').split(',').map(Number);
const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'simjob.js');
const simc = join(root, 'test', 'fake-simc', 'simc');
const TARGET = { size: 20000, ratio: 6 };

const work = mkdtempSync(join(tmpdir(), 'simjob-bench-result-all-'));
const env = {
  ...process.env,
  SIMJOB_DATA_DIR: join(work, 'data'),
  SIMJOB_CONFIG_DIR: join(work, 'config'),
  NO_COLOR: '1',
};

/** A finished local job with `count` profilesets (few iterations each: the stand-in's run time is not measured). */
function jobWith(count: number): string {
  const lines = ['warrior="Bench"', 'spec=fury', 'level=90', 'iterations=10'];
  for (let i = 0; i < count; i++) lines.push(`profileset."set ${i}"=potion=disabled`);
  const profile = join(work, `p${count}.simc`);
  writeFileSync(profile, `${lines.join('\n')}\n`);
  const out = execFileSync(process.execPath, [bin, 'submit', profile, '--local', '--wait', '--json', '--simc', simc], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(out.toString()) as { id: string }).id;
}

try {
  const jobs = new Map(sizes.map((n) => [n, jobWith(n)]));
  const node: Sample[] = [];
  const all = new Map<number, Sample[]>(sizes.map((n) => [n, []]));
  for (let round = -1; round < rounds; round++) {
    const n = timed(process.execPath, ['-e', '0']);
    const results = sizes.map(
      (size) => [size, timed(process.execPath, [bin, 'result', jobs.get(size) as string, '--all'], { env })] as const,
    );
    if (round < 0) continue; // warms the disk cache and the compile cache
    node.push(n);
    for (const [size, sample] of results) all.get(size)?.push(sample);
  }
  const nodeWall = medianWall(node);
  const nodeCpu = medianCpu(node);
  console.log(
    `result --all, piped, median of ${rounds} interleaved rounds (Node ${process.versions.node}, stand-in simc):`,
  );
  console.log(
    `  node -e 0                   ${nodeWall.toFixed(1).padStart(7)} ms  cpu ${nodeCpu.toFixed(0).padStart(4)} ms`,
  );
  const figures: Record<string, { wallMs: number; cpuMs: number; ratio: number; cpuRatio: number }> = {};
  for (const size of sizes) {
    const samples = all.get(size) ?? [];
    const wallMs = medianWall(samples);
    const cpuMs = medianCpu(samples);
    figures[size] = { wallMs, cpuMs, ratio: wallMs / nodeWall, cpuRatio: cpuMs / nodeCpu };
    const rows =
      samples[0]?.stdout
        .toString()
        .split('\n')
        .filter((l) => /^\d+\t/.test(l)).length ?? 0;
    console.log(
      `  ${`${size.toLocaleString('en-US')} profilesets`.padEnd(27)} ${wallMs.toFixed(1).padStart(7)} ms  cpu ${cpuMs.toFixed(0).padStart(4)} ms  ${(wallMs / nodeWall).toFixed(2)}× node (cpu ${(cpuMs / nodeCpu).toFixed(2)}×)  ${rows} rows`,
    );
  }
  const ratio = figures[TARGET.size]?.ratio;
  const met = ratio === undefined ? null : ratio <= TARGET.ratio;
  console.log(
    `Target: ≤ ${TARGET.ratio}× node at ${TARGET.size.toLocaleString('en-US')}: ${met === null ? 'not measured' : met ? 'met' : 'MISSED'}`,
  );
  printFigures(
    Object.entries(figures).map(([size, f]) => ({
      name: `result --all, ${Number(size).toLocaleString('en-US')} profilesets, piped / node -e 0`,
      value: f.ratio,
      unit: '×',
      ...(Number(size) === TARGET.size ? { max: TARGET.ratio } : {}),
    })),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
