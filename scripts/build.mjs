#!/usr/bin/env node
// Bundle src/ into dist/ with esbuild: one ESM entry (dist/cli.js) plus a chunk per lazily imported command, so
// start-up loads only the entry and the chunk of the command that runs. Libraries are bundled in: the published
// package has no runtime dependencies to resolve.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
rmSync(resolve(root, 'dist'), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  // dist/worker.js: the background worker of local jobs, an entry of its own so it starts without the CLI;
  // dist/worker-start.js: what bin/simjob.js loads to start it early on `submit --local`, before the CLI bundle.
  entryPoints: { cli: 'src/cli.ts', worker: 'src/local/worker-main.ts', 'worker-start': 'src/local/worker-start.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Maps give --debug stack traces src/ file:line positions (bin/simjob.js turns them on). Without the sources
  // embedded: that would triple the package (~4.7 MB of maps against ~1.4 MB of code) for text nobody reads there.
  sourcemap: 'linked',
  sourcesContent: false,
  minify: true,
  chunkNames: 'chunks/[name]-[hash]',
  define: { __SIMJOB_VERSION__: JSON.stringify(pkg.version) },
  // Some bundled libraries are CommonJS and call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __simjobRequire } from 'node:module'; const require = __simjobRequire(import.meta.url);" },
  logLevel: 'warning',
});
