#!/usr/bin/env node
// `npm run demo`: a local sim end to end, through the stand-in simc (test/fake-simc), in a throw-away data dir.
// It runs exactly what a user runs — `simjob submit <profile> --local --wait --simc <simc>` — on a real profile
// (the MID1 Fury Warrior of the shared fixtures) with a few profilesets appended. The numbers are SYNTHETIC: the
// stand-in follows simc's process contract but simulates nothing. Pass --keep to keep the data dir afterwards.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const keep = process.argv.includes('--keep');
const bin = join(root, 'bin', 'simjob.js');
const fakeSimc = join(root, 'test', 'fake-simc', 'simc');

// The shared fixtures sit beside the repo (locally and on CI); a copy under test/fixtures/ is used if one exists.
const FIXTURE = 'MID1_Warrior_Fury.simc';
const candidates = [
  join(root, '..', 'shared', 'fixtures', 'simc', 'profiles', FIXTURE),
  join(root, 'test', 'fixtures', 'simc', 'profiles', FIXTURE),
];
const fixture = candidates.find((p) => existsSync(p));
// Without the fixture: a small profile of our own, enough for the stand-in.
const base = fixture
  ? readFileSync(fixture, 'utf8')
  : 'warrior="Demo_Warrior_Fury"\nspec=fury\nlevel=90\nrace=pandaren\nrole=attack\nposition=back\n';

const profileText = `${base.trimEnd()}

# --- simjob demo: profilesets to rank against the baseline ---
iterations=3000
profileset."no_potion"=potion=disabled
profileset."no_flask"=flask=disabled
profileset."other_food"=food=fated_fortune_cookie
profileset."no_augment"=augmentation=disabled
`;

const line = '='.repeat(78);
const banner = (text) => process.stderr.write(`\n${line}\n${text}\n${line}\n\n`);

if (!existsSync(join(root, 'dist', 'cli.js'))) {
  process.stderr.write('Building simjob first (npm run build)…\n');
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const work = mkdtempSync(join(tmpdir(), 'simjob-demo-'));
const profile = join(work, 'demo.simc');
writeFileSync(profile, profileText);
const env = {
  ...process.env,
  SIMJOB_DATA_DIR: join(work, 'data'),
  SIMJOB_CONFIG_DIR: join(work, 'config'),
};
delete env.SIMJOB_SIMC;

banner([
  'DEMO: a local simjob run against the STAND-IN simc (test/fake-simc/simc).',
  'Every number below is SYNTHETIC, made up by the stand-in. These are NOT simulation results.',
  `Profile: ${fixture ? `${FIXTURE} (shared fixtures)` : 'a built-in demo warrior'} + 4 profilesets.`,
  `Command: simjob submit demo.simc --local --wait --csv --simc test/fake-simc/simc`,
].join('\n'));

const child = spawn(process.execPath, [bin, 'submit', profile, '--local', '--wait', '--csv', '--simc', fakeSimc], { env, stdio: 'inherit' });
const code = await new Promise((done) => child.on('exit', (c, signal) => done(c ?? (signal ? 1 : 0))));

banner([
  'Again: the numbers above are SYNTHETIC (stand-in simc), not simulation results.',
  `simjob exited ${code}. ${keep ? `Data dir kept: ${env.SIMJOB_DATA_DIR}` : 'Run with --keep to keep the job folder (report, CSV, logs).'}`,
].join('\n'));

if (!keep) {
  // Let the background worker finish its idle wait and leave before its data dir goes.
  const lock = join(env.SIMJOB_DATA_DIR, 'worker.lock');
  for (let i = 0; i < 60 && existsSync(lock); i++) await new Promise((r) => setTimeout(r, 100));
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
