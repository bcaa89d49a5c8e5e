#!/usr/bin/env node
// Make docs/report.png: the page `simjob report` writes for a multistage job with 30 profilesets, in headless
// chromium. The job runs on the local test server (test/server): its numbers are synthetic, not a simulation.
// Needs Debian's chromium (apt-get install -y chromium) and a build (npm run build).
// Usage: node docs/report-demo.mjs        (SIMJOB_BIN=/path/to/bin/simjob.js to use another build)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const bin = process.env.SIMJOB_BIN ?? join(root, 'bin', 'simjob.js');

// 1. the test server and a profile with 30 trinkets to compare
const server = spawn(
  process.execPath,
  [join(root, 'scripts', 'tsrun.mjs'), join(root, 'test', 'server', 'main.ts'), '--queue-ms', '50', '--run-ms', '300'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const { url } = JSON.parse(await new Promise((done) => createInterface({ input: server.stdout }).once('line', done)));
const home = mkdtempSync(join(tmpdir(), 'simjob-demo-'));
try {
  const trinkets = [
    'Signet of the Priory',
    'Treacherous Transmitter',
    'Mad Queens Mandate',
    'Spymasters Web',
    'Skarmorak Shard',
    'Ovinaxs Mercurial Egg',
    'Ara-Kara Sacbrood',
    'Unbound Changeling',
    'Carved Blazikon Wax',
    'Bursting Lightshard',
    'Empowering Crystal',
    'High Speakers Accretion',
    'Sikrans Endless Arsenal',
    'Cirral Concoctory',
    'Fateweaved Needle',
    'Imperfect Ascendancy Serum',
    'Gruesome Syringe',
    'Harvesters Edict',
    'Sigil of Algari Concordance',
    'Entropic Skardyn Core',
    'Swarmlords Authority',
    'Quickwick Candlestick',
    'Oppressive Orators Larynx',
    'Twin Fang Instruments',
    'Remnant of Darkness',
    'Burin of the Candle King',
    'Tome of Lights Devotion',
    'Shadowbinding Ritual Knife',
    'Mereldars Toll',
    'Kaheti Shadeweavers Emblem',
  ];
  const lines = ['warrior="Bloodfang"', 'level=80', 'spec=fury', 'race=orc', 'iterations=10000', ''];
  trinkets.forEach((t, i) => lines.push(`profileset."${t}"+=trinket1=,id=${219300 + i}`));
  writeFileSync(join(home, 'fury-trinkets.simc'), `${lines.join('\n')}\n`);
  const env = {
    ...process.env,
    SIMJOB_CONFIG_DIR: join(home, 'cfg'),
    SIMJOB_BASE_URL: url,
    SIMJOB_API_KEY: 'sk_test_good',
  };
  const simjob = (...args) =>
    execFileSync(process.execPath, [bin, ...args], { env, cwd: home, stdio: ['ignore', 'pipe', 'ignore'] }).toString();

  // 2. the commands of the README
  const { id } = JSON.parse(
    simjob('submit', 'fury-trinkets.simc', '--channel', 'nightly', '--multistage', '--wait', '--json'),
  );
  simjob('report', id, '-o', 'report.html');

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
