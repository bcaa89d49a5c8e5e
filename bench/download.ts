/**
 * `simjob artifacts <id> --download` against `curl -o` on the same local URL, in the same run: wall time as a ratio
 * to curl (target ≤ 1.2×, start-up of the command included) and peak RSS (target ≤ 64 MB), for artifacts of 1, 50
 * and 500 MB. Median of RUNS alternating runs each; GNU time's %e (wall s) and %M (max RSS, KiB).
 * bench/floors/download.cjs, a bare node:http GET streamed to a file, runs in the same rounds: the least a download
 * on node:http costs, so the gap between it and simjob is simjob's own share.
 * Run: npm run build && node scripts/tsrun.mjs bench/download.ts [sizes in MB...]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BIN as bin, startServerProcess } from './lib/server-process.js';
import { median, printFigures } from './lib/figures.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const sizesMb = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
if (sizesMb.length === 0) sizesMb.push(1, 50, 500);
const server = await startServerProcess(['--queue-ms', '10', '--run-ms', '10']);
const dir = mkdtempSync(join(tmpdir(), 'simjob-dl-'));
const env = {
  ...process.env,
  SIMJOB_CONFIG_DIR: join(dir, 'cfg'),
  SIMJOB_DATA_DIR: join(dir, 'data'),
  SIMJOB_BASE_URL: server.url,
  SIMJOB_API_KEY: 'sk_test_good',
};

interface Run {
  wallS: number;
  rssMb: number;
}

function timed(command: string, args: string[]): Run {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', command, ...args], { env });
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr.toString()}`);
  const [wall, kib] = run.stderr.toString().trim().split('\n').pop()!.split(' ').map(Number);
  return { wallS: wall!, rssMb: kib! / 1024 };
}

try {
  console.log(
    `node ${process.version}; median of ${RUNS} runs each, alternating; the machine may be shared, so treat ratios as noisy`,
  );
  console.log(
    'size      curl -o wall / RSS     simjob wall / RSS       simjob / curl   floor wall / RSS    floor / curl',
  );
  const floorScript = resolve(import.meta.dirname, 'floors', 'download.cjs');
  const figures: Parameters<typeof printFigures>[0] = [];
  for (const mb of sizesMb) {
    const bytes = mb * 1024 * 1024;
    const submitted = execFileSync(
      process.execPath,
      [bin, 'submit', '-', '--channel', 'nightly', '--json', '--meta', `test.artifactBytes=${bytes}`],
      { env, input: 'warrior="Dl"\n' },
    );
    const { id } = JSON.parse(submitted.toString()) as { id: string };
    await server.waitForJob(id);
    const listed = execFileSync(process.execPath, [bin, 'artifacts', id, '--kind', 'json_report', '--json'], { env });
    const url = (JSON.parse(listed.toString()) as Array<{ url: string }>)[0]!.url;
    const curl: Run[] = [];
    const simjob: Run[] = [];
    const floor: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const curlOut = join(dir, `curl-${mb}-${i}`);
      curl.push(timed('curl', ['-sSfL', '-o', curlOut, url]));
      rmSync(curlOut);
      const out = join(dir, `out-${mb}-${i}`);
      simjob.push(timed(process.execPath, [bin, 'artifacts', id, '--download', '--kind', 'json_report', '-o', out]));
      if (statSync(join(out, 'json_report.json')).size !== bytes)
        throw new Error('simjob wrote the wrong number of bytes');
      rmSync(out, { recursive: true });
      const floorOut = join(dir, `floor-${mb}-${i}`);
      floor.push(timed(process.execPath, [floorScript, url, floorOut]));
      if (statSync(floorOut).size !== bytes) throw new Error('the floor wrote the wrong number of bytes');
      rmSync(floorOut);
    }
    const c = { wall: median(curl.map((r) => r.wallS)), rss: median(curl.map((r) => r.rssMb)) };
    const s = { wall: median(simjob.map((r) => r.wallS)), rss: median(simjob.map((r) => r.rssMb)) };
    const f = { wall: median(floor.map((r) => r.wallS)), rss: median(floor.map((r) => r.rssMb)) };
    console.log(
      `${String(mb).padStart(4)} MB   ${c.wall.toFixed(2).padStart(6)} s / ${c.rss.toFixed(1).padStart(5)} MB   ${s.wall.toFixed(2).padStart(6)} s / ${s.rss.toFixed(1).padStart(5)} MB   ${(s.wall / c.wall).toFixed(2)}×  ${f.wall.toFixed(2).padStart(6)} s / ${f.rss.toFixed(1).padStart(5)} MB   ${(f.wall / c.wall).toFixed(2)}×`,
    );
    const big = mb >= 500; // the targets are for 500 MB; a 1 MB download is over before curl's clock ticks
    if (Number.isFinite(s.wall / c.wall))
      figures.push({
        name: `artifacts --download ${mb} MB / curl -o, wall`,
        value: s.wall / c.wall,
        unit: '×',
        ...(big ? { max: 1.2 } : {}),
      });
    if (Number.isFinite(f.wall / c.wall))
      figures.push({
        name: `floor: bare node:http download ${mb} MB / curl -o, wall`,
        value: f.wall / c.wall,
        unit: '×',
      });
    figures.push({ name: `floor: bare node:http download ${mb} MB, peak RSS`, value: f.rss, unit: 'MB' });
    figures.push({
      name: `artifacts --download ${mb} MB, peak RSS`,
      value: s.rss,
      unit: 'MB',
      ...(big ? { max: 64 } : {}),
    });
  }
  printFigures(figures);
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
