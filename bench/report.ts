/**
 * The HTML report of a multistage job with 1,000 profilesets (test server: synthetic numbers): its size, the time
 * `simjob report` takes to write it, and the time headless chromium (Debian's, through playwright-core) takes to
 * render it. Targets (issue 14): under 1 MB, rendered in under 1 s.
 * Run: npm run build && node scripts/tsrun.mjs bench/report.ts [runs]
 *
 * Render time: from the start of navigation to the first frame after the load event (two requestAnimationFrame
 * callbacks), so it covers parsing, the script, style, layout and paint of the whole page; a fresh tab each run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromiumInstalled, CHROMIUM, launchBrowser } from '../test/helpers/browser.js';
import { BIN, startServerProcess } from './lib/server-process.js';
import { median, printFigures } from './lib/figures.js';

const runs = Number(process.argv[2] ?? 9);

if (!chromiumInstalled) {
  console.error(`${CHROMIUM} is missing: apt-get install chromium`);
  process.exit(1);
}

const server = await startServerProcess(['--queue-ms', '20', '--run-ms', '100']);
const dir = mkdtempSync(join(tmpdir(), 'simjob-bench-report-'));
const browser = await launchBrowser();
try {
  const env = {
    ...process.env,
    SIMJOB_CONFIG_DIR: join(dir, 'config'),
    SIMJOB_BASE_URL: server.url,
    SIMJOB_API_KEY: 'sk_test_good',
    NO_COLOR: '1',
  };
  const profile = [
    'warrior="Bench"',
    'level=80',
    ...Array.from({ length: 20 }, (_, i) => `profileset."trinket_${i + 1}"+=trinket1=,id=${200_000 + i}`),
    '',
  ].join('\n');
  const { id } = JSON.parse(
    execFileSync(
      process.execPath,
      [BIN, 'submit', '-', '--channel', 'nightly', '--multistage', '--meta', 'test.profilesets=1000', '--json'],
      { env, input: profile, stdio: ['pipe', 'pipe', 'ignore'] },
    ).toString(),
  ) as { id: string };
  await server.waitForJob(id);

  const file = join(dir, 'report.html');
  const writes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, [BIN, 'report', id, '-o', file], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    writes.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (child.status !== 0) throw new Error(`simjob report failed: ${child.stderr.toString()}`);
  }
  const bytes = statSync(file).size;

  const renders: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    // A string, so this file needs no DOM types: it runs in the page.
    const ms = (await page.evaluate(
      'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now()))))',
    )) as number;
    const rows = await page.locator('table.sets tbody tr').count();
    if (rows !== 1001) throw new Error(`expected 1,001 table rows, got ${rows}`);
    await page.close();
    if (i > 0) renders.push(ms); // the first load warms chromium's caches
  }

  const render = median(renders);
  console.log(
    `HTML report of a multistage job with 1,000 profilesets (test server, synthetic numbers), median of ${runs}:`,
  );
  console.log(
    `  size                      ${(bytes / 1024).toFixed(0).padStart(6)} KB   (${bytes.toLocaleString('en-US')} bytes)`,
  );
  console.log(
    `  simjob report (fetch+write) ${median(writes).toFixed(0).padStart(4)} ms   (the job's result and its 3 JSON reports over HTTP)`,
  );
  console.log(
    `  render in headless chromium ${render.toFixed(0).padStart(4)} ms   (navigation start → first frame after load; min ${Math.min(...renders).toFixed(0)}, max ${Math.max(...renders).toFixed(0)})`,
  );
  console.log(
    `Targets: size < 1 MB (${bytes < 1024 * 1024 ? 'met' : 'MISSED'}), render < 1 s (${render < 1000 ? 'met' : 'MISSED'})`,
  );
  printFigures([
    { name: 'report: page of 1,000 profilesets', value: bytes / 1024 / 1024, unit: 'MB', max: 1 },
    { name: 'report: render in headless chromium', value: render, unit: 'ms', max: 1000 },
  ]);
} finally {
  await browser.close();
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
