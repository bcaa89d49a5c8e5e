import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
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
    const loader = new BundleLoader(join(dir, 'cache'), nodeRequire);
    const cli = loader.load(join(dir, 'cli.js')) as { main(): string };
    expect(cli.main()).toBe('core true cli.js true');
    const core = loader.load(join(dir, 'chunks', '..', 'chunks', 'core.js')) as { seenReady: boolean };
    expect(core.seenReady).toBe(false); // core ran while cli.js was still loading
  });

  it('writes nothing until the command has run, then a cache of each file it loaded', () => {
    const dir = bundle();
    const cache = join(dir, 'cache');
    const loader = new BundleLoader(cache, nodeRequire);
    (loader.load(join(dir, 'cli.js')) as { main(): string }).main();
    expect(existsSync(cache)).toBe(false);
    loader.saveCaches();
    const written = readdirSync(cache).sort();
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(new RegExp(`^cli\\.js\\.${statSync(join(dir, 'cli.js')).size}-\\d+$`));
    expect(written[1]).toMatch(/^core\.js\.\d+-\d+$/);
  });

  // Whether V8 takes a cache shows only in a new process (within one, V8 reuses what it compiled): see
  // test/e2e/code-cache.test.ts.

  it('keeps each command in a folder of its own, under the Node that made it', () => {
    const env = { SIMJOB_CACHE_DIR: '/c' };
    expect(cacheFolderFor(['status', 'x'], env)).toBe(join('/c', 'code-cache', `${process.version}-${process.arch}`, 'status'));
    expect(cacheFolderFor(['../../etc', 'x'], env)).toBe(join('/c', 'code-cache', `${process.version}-${process.arch}`, 'other'));
    expect(cacheFolderFor([], env)).toMatch(/other$/);
  });
});
