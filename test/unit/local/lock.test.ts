import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createExclusive, writeFileAtomic, writeJsonAtomic } from '../../../src/util/data-files.js';
import { tryLock, withLock } from '../../../src/core/local/lock.js';
import { isAlive } from '../../../src/core/local/pids.js';

let dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'simjob-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A pid that certainly is not running: a child that already exited (and was reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

/** 40 concurrent read-modify-writes of a counter under one lock; the count at the end (40 when none was lost). */
async function countUnderLock(dir: string): Promise<number> {
  const counter = join(dir, 'counter.json');
  await writeJsonAtomic(counter, { n: 0 });
  await Promise.all(
    Array.from({ length: 40 }, () =>
      withLock(join(dir, 'lock'), async () => {
        const { n } = JSON.parse(readFileSync(counter, 'utf8')) as { n: number };
        await new Promise((r) => setTimeout(r, Math.random() * 3));
        await writeJsonAtomic(counter, { n: n + 1 });
      }),
    ),
  );
  return (JSON.parse(readFileSync(counter, 'utf8')) as { n: number }).n;
}

describe('locks', () => {
  it('serialise read-modify-write: no increment is lost among many concurrent ones', async () => {
    expect(await countUnderLock(tempDir())).toBe(40);
  });

  it('are refused while a live owner holds them, and taken over when the owner died', async () => {
    const dir = tempDir();
    const path = join(dir, 'worker.lock');
    const held = await tryLock(path);
    expect(held).toBeDefined();
    expect(await tryLock(path)).toBeUndefined();
    await held!.release();

    writeFileSync(path, JSON.stringify({ pid: await deadPid(), nonce: 'dead' }));
    const taken = await tryLock(path);
    expect(taken).toBeDefined();
    expect(JSON.parse(readFileSync(path, 'utf8')).nonce).toBe(taken!.owner.nonce);
  });

  it("let exactly one of many contenders take over a dead owner's lock", async () => {
    const dir = tempDir();
    const path = join(dir, 'worker.lock');
    writeFileSync(path, JSON.stringify({ pid: await deadPid(), nonce: 'dead' }));
    const results = await Promise.all(Array.from({ length: 20 }, () => tryLock(path)));
    const winners = results.filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(JSON.parse(readFileSync(path, 'utf8')).nonce).toBe(winners[0]!.owner.nonce);
  });

  it('do not release a lock that was taken over by someone else meanwhile', async () => {
    const dir = tempDir();
    const path = join(dir, 'lock');
    const mine = (await tryLock(path))!;
    writeFileSync(path, JSON.stringify({ pid: process.pid, nonce: 'someone-else' }));
    await mine.release();
    expect(JSON.parse(readFileSync(path, 'utf8')).nonce).toBe('someone-else');
  });
});

describe('locks: one small file each, naming its process', () => {
  it('are stale when their pid is now another process (another start time)', async () => {
    const path = join(tempDir(), 'lock');
    writeFileSync(path, JSON.stringify({ pid: process.pid, start: 'an earlier process', nonce: 'old' }));
    const taken = (await tryLock(path))!;
    expect(taken).toBeDefined();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, nonce: taken.owner.nonce });
    await taken.release();
    expect(readdirSync(dirname(path))).toEqual([]);
  });

  it('name the path when a folder is where the lock file belongs', async () => {
    const path = join(tempDir(), 'claim.lock');
    mkdirSync(path);
    await expect(tryLock(path)).rejects.toThrow(`${path}: a folder is where simjob keeps a file.`);
  });
});

describe('files', () => {
  it('createExclusive creates once, with its content, and never overwrites', async () => {
    const dir = tempDir();
    const path = join(dir, 'key');
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => createExclusive(path, `writer ${i}`)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(readFileSync(path, 'utf8')).toBe(`writer ${outcomes.indexOf(true)}`);
  });

  it('a write that fails leaves no temp file behind and names the path', async () => {
    const dir = tempDir();
    const target = join(dir, 'job.json');
    mkdirSync(target); // rename over a folder fails
    await expect(writeFileAtomic(target, '{}')).rejects.toThrow(`${target}: a folder is where simjob keeps a file.`);
    expect(readdirSync(dir)).toEqual(['job.json']);
  });

  it('isAlive tells this process from a finished one', async () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(await deadPid())).toBe(false);
    expect(isAlive(-1)).toBe(false);
  });
});
