#!/usr/bin/env node
// Make docs/report.png: the page `simjob report` writes for the top gear of the shipped addon export (its
// trinkets: 9 combinations, multistage), in headless chromium. The job runs on the local test server
// (test/server): its numbers are synthetic, not a simulation.
// Needs Debian's chromium (apt-get install -y chromium) and a build (npm run build).
// Usage: node docs/report-demo.mjs        (SIMJOB_BIN=/path/to/bin/simjob.js to use another build)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const bin = process.env.SIMJOB_BIN ?? join(root, 'bin', 'simjob.js');

// 1. the test server; the export is the shipped example, examples/addon/fury-bags-vault.txt (Midnight gear)
const server = spawn(
  process.execPath,
  [join(root, 'scripts', 'tsrun.mjs'), join(root, 'test', 'server', 'main.ts'), '--queue-ms', '50', '--run-ms', '300'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const { url } = JSON.parse(await new Promise((done) => createInterface({ input: server.stdout }).once('line', done)));
const home = mkdtempSync(join(tmpdir(), 'simjob-demo-'));
try {
  const env = {
    ...process.env,
    SIMJOB_CONFIG_DIR: join(home, 'cfg'),
    SIMJOB_BASE_URL: url,
    SIMJOB_API_KEY: 'sk_test_good',
  };
  const simjob = (...args) =>
    execFileSync(process.execPath, [bin, ...args], { env, cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString();

  // 2. the commands of the README: top gear of the shipped export's trinkets, then its page
  const exportFile = join('examples', 'addon', 'fury-bags-vault.txt');
  const { id } = JSON.parse(
    simjob('topgear', exportFile, '--slots', 'trinket', '--channel', 'nightly', '--wait', '--json'),
  );
  simjob('report', id, '-o', join(home, 'report.html'));

  // 3. the page in headless chromium, from the top to the first rows of the table
  const profile = mkdtempSync(join(tmpdir(), 'simjob-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1100, height: 900 },
    deviceScaleFactor: 1,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(home, 'report.html')).href);
    const table = await page.locator('table.sets').boundingBox();
    await page.screenshot({
      path: join(root, 'docs', 'report.png'),
      fullPage: true,
      clip: { x: 0, y: 0, width: 1100, height: Math.round((table?.y ?? 1800) + 260) },
    });
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`docs/report.png: simjob report ${id} (test server, synthetic numbers)`);
} finally {
  server.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
}
