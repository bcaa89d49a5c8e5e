#!/usr/bin/env node
// Run a TypeScript file (a bench, the test server, a helper script) in place, without a build step, through tsx's
// loader: files keep their real paths, so import.meta.dirname and relative imports work as in the source tree.
// Usage: node scripts/tsrun.mjs path/to/file.ts [args...]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

if (!process.argv[2]) {
  console.error('usage: node scripts/tsrun.mjs <file.ts> [args...]');
  process.exit(2);
}
const entry = resolve(process.argv[2]);
register();
process.argv.splice(1, 2, entry);
await import(pathToFileURL(entry).href);
