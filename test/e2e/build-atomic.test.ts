/**
 * `npm run build` replaces dist/ in one step: a simjob run from the checkout while the tests rebuild finds the old
 * build or the new one, never a dist/ without its files. Built here in a copy of the checkout's sources, so the
 * dist/ the other tests run is left alone.
 */
import { execa } from 'execa';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/shared.js';
import { tempDir } from '../helpers/temp.js';

it('a rebuild keeps dist/cli.js and dist/worker.js in place throughout, then swaps in the new build', async () => {
  const copy = tempDir('simjob-build-');
  for (const part of ['src', 'scripts', 'package.json', 'tsconfig.json'])
    cpSync(join(REPO_ROOT, part), join(copy, part), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // The "old build": stand-ins for the two files bin/simjob.js loads first.
  mkdirSync(join(copy, 'dist'));
  for (const file of ['cli.js', 'worker.js']) writeFileSync(join(copy, 'dist', file), '// old build\n');

  const build = execa(process.execPath, [join(copy, 'scripts', 'build.mjs')], { cwd: copy, reject: false });
  let done = false;
  void build.finally(() => (done = true));
  const missing = new Set<string>();
  let looks = 0;
  while (!done) {
    for (const file of ['cli.js', 'worker.js']) if (!existsSync(join(copy, 'dist', file))) missing.add(file);
    looks += 1;
    await setImmediate();
  }
  const result = await build;
  expect(result.exitCode, result.stderr).toBe(0);
  expect(looks).toBeGreaterThan(1);
  expect([...missing], 'files of dist/ missing while the build ran').toEqual([]);
  expect(readFileSync(join(copy, 'dist', 'cli.js'), 'utf8')).not.toContain('// old build');
  expect(existsSync(join(copy, 'dist', 'cli.js'))).toBe(true);
  expect(
    readdirSync(copy).filter((name) => name.startsWith('.dist-')),
    'work folders left behind',
  ).toEqual([]);
}, 180_000);
