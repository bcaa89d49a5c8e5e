// The least a local `submit --wait` can do: start simc with the report options simjob gives it, wait for it, read
// its JSON report and print one line (bench/local-overhead.ts times it beside simc run directly and simjob).
// Usage: node local.cjs <simc> <profile> <job folder>
'use strict';
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const [simc, profile, dir] = process.argv.slice(2);
const args = [profile, 'json2=report.json', 'output=simc-output.txt', 'progressbar_type=1'];
spawn(simc, args, { cwd: dir, stdio: 'ignore' }).on('exit', (code) => {
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  process.stdout.write(`${code} ${report.sim.players[0].collected_data.dps.mean}\n`);
});
