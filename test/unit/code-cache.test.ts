import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BundleLoader, cacheFolderFor } from '../../src/code-cache.js';
import { tempDir } from '../helpers/temp.js';

const nodeRequire = createRequire(import.meta.url);

/** A small CommonJS tree as rollup writes one: relative requires both ways, a built-in, a cycle. */
function bundle(): string {
  const dir = tempDir('simjob-code-cache-');
  mkdirSync(join(dir, 'chunks'));
  writeFileSync(join(dir, 'cli.js'), `'use strict';
var core = require('./chunks/core.js');
var path = require('node:path');
exports.main = () => [core.name(), core.cli === exports, path.basename(__filename), require('./chunks/core.js') === core].join(' ');
exports.ready = true;
`);
  writeFileSync(join(dir, 'chunks', 'core.js'), `'use strict';
var cli = require('../cli.js');
exports.cli = cli;
exports.seenReady = cli.ready === true;
exports.name = function name() { return 'core'; };
`);
  return dir;
}

describe('BundleLoader', () => {
  it('runs a CommonJS tree as Node would: one instance per file, built-ins from Node, a cycle sees the exports made so far', () => {
    const dir = bundle();
    const loader = new BundleLoader(dir, join(dir, 'cache'), nodeRequire);
    const cli = loader.load(join(dir, 'cli.js')) as { main(): string };
    expect(cli.main()).toBe('core true cli.js true');
    const core = loader.load(join(dir, 'chunks', '..', 'chunks', 'core.js')) as { seenReady: boolean };
    expect(core.seenReady).toBe(false); // core ran while cli.js was still loading
  });

  it('writes nothing until the command has run, then a cache of each file it loaded', () => {
    const dir = bundle();
    const cache = join(dir, 'cache');
    const loader = new BundleLoader(dir, cache, nodeRequire);
    (loader.load(join(dir, 'cli.js')) as { main(): string }).main();
    expect(existsSync(cache)).toBe(false);
    loader.saveCaches();
    const written = readdirSync(cache).sort();
    expect(written).toEqual(['chunks_core.js', 'cli.js']);
    expect(statSync(join(cache, 'cli.js')).mode & 0o777).toBe(0o600);
  });

  // Whether V8 takes a cache shows only in a new process (within one, V8 reuses what it compiled): see
  // test/e2e/code-cache.test.ts.

  it('keeps each command of each build in a folder of its own, and caches nothing for a bundle without a build id', () => {
    const dir = bundle();
    const env = { SIMJOB_CACHE_DIR: '/c' };
    expect(cacheFolderFor(dir, ['status', 'x'], env)).toBeUndefined();
    writeFileSync(join(dir, 'build-id'), '0123456789abcdef\n');
    const build = `0123456789abcdef-${process.version}-${process.arch}`;
    expect(cacheFolderFor(dir, ['status', 'x'], env)).toBe(join('/c', 'code-cache', build, 'status'));
    expect(cacheFolderFor(dir, ['../../etc', 'x'], env)).toBe(join('/c', 'code-cache', build, 'other'));
    expect(cacheFolderFor(dir, [], env)).toBe(join('/c', 'code-cache', build, 'other'));
    writeFileSync(join(dir, 'build-id'), '../x\n');
    expect(cacheFolderFor(dir, ['status'], env)).toBeUndefined();
  });

  it('keeps the folders of two other builds besides its own when it makes a new one, and nothing else is touched', () => {
    const dir = bundle();
    const root = join(dir, 'code-cache');
    const [old1, old2, old3, current] = ['0000000000000001', '0000000000000002', '0000000000000003', 'aaaaaaaaaaaaaaaa'].map((build) => `${build}-v24.1.0-x64`);
    for (const [i, name] of [old1, old2, old3, 'not-a-build'].entries()) {
      mkdirSync(join(root, name!), { recursive: true });
      utimesSync(join(root, name!), new Date(2026, 0, i + 1), new Date(2026, 0, i + 1));
    }
    const loader = new BundleLoader(dir, join(root, current!, 'status'), nodeRequire);
    loader.load(join(dir, 'cli.js'));
    loader.saveCaches();
    expect(readdirSync(root).sort()).toEqual([old2, old3, current, 'not-a-build'].sort());
  });
});
