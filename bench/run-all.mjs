#!/usr/bin/env node
// `npm run bench`: build once, then run every bench in turn; each prints its own figures.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const benches = ['startup', 'polling', 'local-overhead', 'local-throughput', 'result-all', 'multistage', 'download-memory'];
const only = process.argv.slice(2);

const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
let failed = 0;
for (const name of benches.filter((b) => only.length === 0 || only.includes(b))) {
  console.log(`\n== bench/${name}.ts`);
  const run = spawnSync(process.execPath, [resolve(root, 'scripts', 'tsrun.mjs'), resolve(root, 'bench', `${name}.ts`)], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
