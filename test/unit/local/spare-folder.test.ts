import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSpareFolder, moveSpareFolder, returnSpareFolder, SPARE_DIR, takeSpareFolder } from '../../../src/local/spare-folder.js';
import { tempDir } from '../../helpers/temp.js';

const FILES = ['input.simc', 'stdout.log', 'stderr.log'];
const root = tempDir('simjob-spare-');
let n = 0;
/** A data dir of its own for each test. */
function dataDir(): string {
  const dir = join(root, `data-${n++}`);
  mkdirSync(join(dir, 'early'), { recursive: true });
  mkdirSync(join(dir, 'jobs'), { recursive: true });
  return dir;
}
const spares = (dir: string) => (existsSync(join(dir, SPARE_DIR)) ? readdirSync(join(dir, SPARE_DIR)) : []);

describe('a folder made ahead for the next head start', () => {
  it('is made whole, once: the empty files a run starts with and a marker', () => {
    const dir = dataDir();
    makeSpareFolder(dir, FILES);
    makeSpareFolder(dir, FILES); // one is ready: no second
    const [name] = spares(dir);
    expect(spares(dir)).toHaveLength(1);
    expect(name).toMatch(/^[0-9a-f]{16}$/);
    expect(readdirSync(join(dir, SPARE_DIR, name!)).sort()).toEqual(['input.simc', 'marker', 'stderr.log', 'stdout.log']);
  });

  it('is taken by one head start only: its marker becomes the early marker, its folder the job folder', () => {
    const dir = dataDir();
    makeSpareFolder(dir, FILES);
    const [name] = spares(dir);
    const folder = takeSpareFolder(dir, join(dir, 'early', 'local-a'));
    expect(folder).toBe(join(dir, SPARE_DIR, name!));
    expect(takeSpareFolder(dir, join(dir, 'early', 'local-b'))).toBeUndefined(); // its marker is gone
    expect(existsSync(join(dir, 'early', 'local-b'))).toBe(false);
    const inode = statSync(join(folder!, 'input.simc')).ino;
    expect(moveSpareFolder(folder!, join(dir, 'jobs', 'local-a'))).toBe(true);
    expect(statSync(join(dir, 'jobs', 'local-a', 'input.simc')).ino).toBe(inode);
    expect(spares(dir)).toEqual([]);
    expect(existsSync(join(dir, 'early', 'local-a'))).toBe(true);
  });

  it('goes back with its marker when its head start goes no further, ready for the next', () => {
    const dir = dataDir();
    makeSpareFolder(dir, FILES);
    const marker = join(dir, 'early', 'local-a');
    const folder = takeSpareFolder(dir, marker)!;
    writeFileSync(marker, '123\n');
    returnSpareFolder(folder, marker);
    expect(existsSync(marker)).toBe(false);
    expect(takeSpareFolder(dir, join(dir, 'early', 'local-b'))).toBe(folder);
  });

  it('takes a used head start\'s marker as its own, emptied, or removes it when a folder is ready: none made or freed', () => {
    const dir = dataDir();
    const used = join(dir, 'early', 'local-a');
    writeFileSync(used, '123 456\n');
    const inode = statSync(used).ino;
    makeSpareFolder(dir, FILES, used);
    const [name] = spares(dir);
    expect(existsSync(used)).toBe(false);
    expect(statSync(join(dir, SPARE_DIR, name!, 'marker')).ino).toBe(inode);
    expect(readFileSync(join(dir, SPARE_DIR, name!, 'marker'), 'utf8')).toBe(''); // its pid and group are gone
    const another = join(dir, 'early', 'local-b');
    writeFileSync(another, '789 1011\n');
    makeSpareFolder(dir, FILES, another); // one is ready
    expect(existsSync(another)).toBe(false);
    expect(spares(dir)).toEqual([name]);
  });

  it('left without its marker or half made for a minute is removed by the next maker; a fresh one is left alone', () => {
    const dir = dataDir();
    makeSpareFolder(dir, FILES);
    const [taken] = spares(dir);
    takeSpareFolder(dir, join(dir, 'early', 'local-a')); // its taker then stopped before moving it
    mkdirSync(join(dir, SPARE_DIR, '.half'));
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(join(dir, SPARE_DIR, taken!), old, old);
    makeSpareFolder(dir, FILES); // the half-made one is fresh: it stays
    expect(spares(dir)).toContain('.half');
    expect(spares(dir)).not.toContain(taken);
    expect(spares(dir).filter((name) => !name.startsWith('.'))).toHaveLength(1);
    utimesSync(join(dir, SPARE_DIR, '.half'), old, old);
    makeSpareFolder(dir, FILES);
    expect(spares(dir)).not.toContain('.half');
  });

  it('is never made where the data dir cannot be written, and never throws', () => {
    const file = join(root, 'not-a-folder');
    writeFileSync(file, 'x');
    expect(() => makeSpareFolder(file, FILES)).not.toThrow();
    expect(takeSpareFolder(file, join(root, 'marker'))).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});
