/**
 * `-o FILE` (topgear, droptimizer, statweights profiles) and `report -o` replace a file only once the new one is
 * whole: on a full disk (a small tmpfs, which needs root and mount) the old file stays as it was, no temp file is
 * left, and the command says why in one line.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADDON_FIXTURES_DIR } from '../helpers/shared.js';
import { noteSkipped } from '../helpers/skip-note.js';
import { tempDir } from '../helpers/temp.js';
import { freshLocalEnvs, run, runQuickJob } from './local-helpers.js';

const freshEnv = freshLocalEnvs();
const FURY = resolve(ADDON_FIXTURES_DIR, 'fury-bags-vault.txt');

const mountable = (() => {
  if (process.getuid?.() !== 0) return false;
  const dir = tempDir('simjob-mount-probe-');
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status === 0;
  if (ok) spawnSync('umount', [dir]);
  return ok;
})();
if (!mountable) noteSkipped('the full-disk tests of -o', 'they need root and mount (a small tmpfs)');

/** A folder that is a tmpfs of `size` with `free` bytes left in it (a filler file takes the rest). */
async function withFullFolder(size: string, fill: number, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir('simjob-full-');
  expect(spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status).toBe(0);
  try {
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'filler'), Buffer.alloc(fill));
    await body(join(dir, 'out'));
  } finally {
    spawnSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
}

const OLD = 'the old file, which must survive\n';

describe('on a full disk', () => {
  it.skipIf(!mountable)('topgear -o leaves the old profile whole and no temp file', async () => {
    const env = freshEnv();
    await withFullFolder('256k', 0, async (dir) => {
      const out = join(dir, 'topgear.simc');
      writeFileSync(out, OLD);
      const result = await run(env, ['topgear', FURY, '-o', out]); // about 700 KB: more than the disk holds
      expect(result.exitCode).not.toBe(0);
      const errors = result.stderr.split('\n').filter((line) => line.startsWith('Error: '));
      expect(errors).toEqual([expect.stringMatching(new RegExp(`^Error: Cannot write ${out}: .*no space left`))]);
      expect(readFileSync(out, 'utf8')).toBe(OLD);
      expect(readdirSync(dir)).toEqual(['topgear.simc']);
    });
  });

  it.skipIf(!mountable)('report -o leaves the old page whole and no temp file', async () => {
    const env = freshEnv();
    const job = await runQuickJob(env, 'Page');
    await withFullFolder('64k', 60 * 1024, async (dir) => {
      const out = join(dir, 'page.html');
      writeFileSync(out, OLD);
      const result = await run(env, ['report', job.id as string, '-o', out]);
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^Error: Cannot write the report to ${out}: .*no space left`)),
      ]);
      expect(readFileSync(out, 'utf8')).toBe(OLD);
      expect(readdirSync(dir)).toEqual(['page.html']);
    });
  });
});

describe('-o over an existing file', () => {
  it('replaces it whole and keeps its permissions', async () => {
    const env = freshEnv();
    const dir = tempDir('simjob-o-');
    const out = join(dir, 'topgear.simc');
    writeFileSync(out, OLD, { mode: 0o640 });
    const result = await run(env, ['topgear', FURY, '--slots', 'trinket', '-o', out]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('profileset."');
    expect(spawnSync('stat', ['-c', '%a', out], { encoding: 'utf8' }).stdout.trim()).toBe('640');
    expect(readdirSync(dir)).toEqual(['topgear.simc']);
  });
});
