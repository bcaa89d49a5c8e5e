#!/usr/bin/env node
// Run a TypeScript file (a bench, the test server, a helper script) without a separate build step:
// bundle it with esbuild into .tmp/ and import it. Usage: node scripts/tsrun.mjs path/to/file.ts [args...]
import { build } from 'esbuild';
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const entry = resolve(process.argv[2] ?? '');
if (!process.argv[2]) {
  console.error('usage: node scripts/tsrun.mjs <file.ts> [args...]');
  process.exit(2);
}
const outDir = join(root, '.tmp', 'tsrun');
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, `${basename(entry).replace(/\.ts$/, '')}-${process.pid}.mjs`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  define: { __SIMJOB_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'error',
});
process.argv.splice(1, 2, entry);
await import(pathToFileURL(outfile).href);
