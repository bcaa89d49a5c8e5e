import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createExclusive, readJson, tryLock, withLock, writeJsonAtomic } from '../../../src/local/fsutil.js';
import { isAlive } from '../../../src/local/pids.js';

let dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'simjob-fsutil-'));
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

describe('locks', () => {
  it('serialise read-modify-write: no increment is lost among many concurrent ones', async () => {
    const dir = tempDir();
    const counter = join(dir, 'counter.json');
    await writeJsonAtomic(counter, { n: 0 });
    await Promise.all(
      Array.from({ length: 40 }, () =>
        withLock(join(dir, 'lock'), async () => {
          const { n } = (await readJson<{ n: number }>(counter))!;
          await new Promise((r) => setTimeout(r, Math.random() * 3));
          await writeJsonAtomic(counter, { n: n + 1 });
        }),
      ),
    );
    expect((await readJson<{ n: number }>(counter))!.n).toBe(40);
  });

  it('are refused while a live owner holds them, and taken over when the owner died', async () => {
    const dir = tempDir();
    const path = join(dir, 'worker.lock');
    const held = await tryLock(path, { staleMs: 60_000 });
    expect(held).toBeDefined();
    expect(await tryLock(path, { staleMs: 60_000 })).toBeUndefined();
    await held!.release();

    writeFileSync(path, JSON.stringify({ pid: await deadPid(), nonce: 'dead', host: hostname(), at: Date.now() }));
    const taken = await tryLock(path, { staleMs: 60_000 });
    expect(taken).toBeDefined();
    expect(JSON.parse(readFileSync(path, 'utf8')).nonce).toBe(taken!.owner.nonce);
  });

  it('let exactly one of many contenders take over a dead owner\'s lock', async () => {
    const dir = tempDir();
    const path = join(dir, 'worker.lock');
    writeFileSync(path, JSON.stringify({ pid: await deadPid(), nonce: 'dead', host: hostname(), at: Date.now() }));
    const results = await Promise.all(Array.from({ length: 20 }, () => tryLock(path, { staleMs: 60_000 })));
    const winners = results.filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(JSON.parse(readFileSync(path, 'utf8')).nonce).toBe(winners[0]!.owner.nonce);
  });

  it('do not release a lock that was taken over by someone else meanwhile', async () => {
    const dir = tempDir();
    const path = join(dir, 'lock');
    const mine = (await tryLock(path, { staleMs: 60_000 }))!;
    writeFileSync(path, JSON.stringify({ pid: process.pid, nonce: 'someone-else', host: hostname(), at: Date.now() }));
    await mine.release();
    expect(JSON.parse(readFileSync(path, 'utf8')).nonce).toBe('someone-else');
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

  it('isAlive tells this process from a finished one', async () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(await deadPid())).toBe(false);
    expect(isAlive(-1)).toBe(false);
  });
});
