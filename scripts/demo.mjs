#!/usr/bin/env node
// `npm run demo`: a local sim end to end, through the stand-in simc (test/fake-simc), with the shipped example
// examples/fury-profilesets.simc. It runs exactly what a user runs — `simjob submit <profile> --local --wait --simc
// <simc>` — in a data dir of its own, .cache/demo/ (the user's jobs are left alone), which stays after the demo so the
// hints it prints (the share link, `simjob artifacts … --download`) point at something that exists. The numbers are
// SYNTHETIC: the stand-in follows simc's process contract but simulates nothing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'simjob.js');
const fakeSimc = join(root, 'test', 'fake-simc', 'simc');
const profile = join(root, 'examples', 'fury-profilesets.simc');
// SIMJOB_DEMO_DIR: elsewhere (the tests use a temp folder).
const home = process.env.SIMJOB_DEMO_DIR ? resolve(process.env.SIMJOB_DEMO_DIR) : join(root, '.cache', 'demo');

const line = '='.repeat(78);
const banner = (text) => process.stderr.write(`\n${line}\n${text}\n${line}\n\n`);

if (!existsSync(join(root, 'dist', 'cli.js'))) {
  process.stderr.write('Building simjob first (npm run build)…\n');
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// A fresh data dir each time: the demo's jobs only.
rmSync(home, { recursive: true, force: true });
const env = { ...process.env, SIMJOB_DATA_DIR: join(home, 'data'), SIMJOB_CONFIG_DIR: join(home, 'config') };
delete env.SIMJOB_SIMC;

banner(
  [
    'DEMO: a local simjob run against the STAND-IN simc (test/fake-simc/simc).',
    'Every number below is SYNTHETIC, made up by the stand-in. These are NOT simulation results.',
    'Profile: examples/fury-profilesets.simc (a Fury Warrior with 4 profilesets).',
    'Command: simjob submit examples/fury-profilesets.simc --local --wait --csv --simc test/fake-simc/simc',
  ].join('\n'),
);

const child = spawn(process.execPath, [bin, 'submit', profile, '--local', '--wait', '--csv', '--simc', fakeSimc], {
  env,
  stdio: 'inherit',
});
const code = await new Promise((done) => child.on('exit', (c, signal) => done(c ?? (signal ? 1 : 0))));

const here = relative(process.cwd(), home) || '.';
banner(
  [
    'Again: the numbers above are SYNTHETIC (stand-in simc), not simulation results.',
    `simjob exited ${code}. The demo's jobs are kept in ${here}/ (replaced by the next demo).`,
    'To follow the hints above in this shell (simjob artifacts, result, report), first run:',
    `  export SIMJOB_DATA_DIR=${env.SIMJOB_DATA_DIR} SIMJOB_CONFIG_DIR=${env.SIMJOB_CONFIG_DIR}`,
    `  alias simjob="node ${bin}"   # unless simjob is installed`,
  ].join('\n'),
);
process.exit(code);
