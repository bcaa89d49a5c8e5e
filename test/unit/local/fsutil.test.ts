import { spawn, spawnSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createExclusive, prepareTemp, readJson, tryLock, withLock, writeFileAtomic, writeJsonAtomic, type LockOptions } from '../../../src/local/fsutil.js';
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

/** 40 concurrent read-modify-writes of a counter under one lock; the count at the end (40 when none was lost). */
async function countUnderLock(dir: string, options?: LockOptions): Promise<number> {
  const counter = join(dir, 'counter.json');
  await writeJsonAtomic(counter, { n: 0 });
  await Promise.all(
    Array.from({ length: 40 }, () =>
      withLock(join(dir, 'lock'), async () => {
        const { n } = (await readJson<{ n: number }>(counter))!;
        await new Promise((r) => setTimeout(r, Math.random() * 3));
        await writeJsonAtomic(counter, { n: n + 1 });
      }, options),
    ),
  );
  return (await readJson<{ n: number }>(counter))!.n;
}

describe('locks', () => {
  it('serialise read-modify-write: no increment is lost among many concurrent ones', async () => {
    expect(await countUnderLock(tempDir())).toBe(40);
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

describe('locks linked to an owner file (an owners folder given)', () => {
  it('are hard links to one owner file of this process: taking and releasing one makes and frees no file', async () => {
    const dir = tempDir();
    const ownersDir = join(dir, 'owners');
    const options = { staleMs: 30_000, ownersDir };
    const first = (await tryLock(join(dir, 'a.lock'), options))!;
    const [ownerName] = readdirSync(ownersDir);
    const ownerFile = join(ownersDir, ownerName!);
    expect(ownerName).toBe(`${process.pid}.${first.owner.nonce}`);
    expect(JSON.parse(readFileSync(join(dir, 'a.lock'), 'utf8'))).toMatchObject({ pid: process.pid, nonce: first.owner.nonce });
    const second = (await tryLock(join(dir, 'b.lock'), options))!;
    expect(statSync(join(dir, 'b.lock')).ino).toBe(statSync(ownerFile).ino);
    expect(statSync(ownerFile).nlink).toBe(3);
    expect(await tryLock(join(dir, 'a.lock'), options)).toBeUndefined();
    await first.release();
    await second.release();
    expect(readdirSync(dir).sort()).toEqual(['owners']);
    expect(statSync(ownerFile).nlink).toBe(1);
  });

  it('serialise read-modify-write among many concurrent takers', async () => {
    const dir = tempDir();
    expect(await countUnderLock(dir, { staleMs: 30_000, ownersDir: join(dir, 'owners') })).toBe(40);
  });

  it("take over a dead process's lock, and remove its owner file", async () => {
    const dir = tempDir();
    const ownersDir = join(dir, 'owners');
    mkdirSync(ownersDir);
    const dead = { pid: await deadPid(), nonce: 'deadbeef', host: hostname(), at: Date.now() };
    const deadOwnerFile = join(ownersDir, `${dead.pid}.${dead.nonce}`);
    writeFileSync(deadOwnerFile, JSON.stringify(dead));
    linkSync(deadOwnerFile, join(dir, 'lock'));
    const taken = (await tryLock(join(dir, 'lock'), { staleMs: 30_000, ownersDir }))!;
    expect(taken).toBeDefined();
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).nonce).toBe(taken.owner.nonce);
    expect(readdirSync(ownersDir)).toEqual([`${process.pid}.${taken.owner.nonce}`]);
    await taken.release();
  });

  it('fail in a data dir that was removed, without making it again', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    await expect(tryLock(join(data, 'claim.lock'), { staleMs: 30_000, ownersDir: join(data, 'owners') })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('take a lock again after this process\'s owner file was removed', async () => {
    const dir = tempDir();
    const ownersDir = join(dir, 'owners');
    const options = { staleMs: 30_000, ownersDir };
    await (await tryLock(join(dir, 'lock'), options))!.release();
    rmSync(ownersDir, { recursive: true });
    const again = (await tryLock(join(dir, 'lock'), options))!;
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    await again.release();
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

  it('a prepared temp is the file a later atomic write fills and renames: the write itself creates none', async () => {
    const dir = tempDir();
    const target = join(dir, 'result.json');
    prepareTemp(target);
    const [temp] = readdirSync(dir);
    expect(temp).toMatch(/^result\.json\.\d+\.[0-9a-f]{8}\.tmp$/);
    const prepared = statSync(join(dir, temp!)).ino;
    await writeFileAtomic(target, '{"a":1}');
    expect(readdirSync(dir)).toEqual(['result.json']);
    expect(statSync(target).ino).toBe(prepared);
    expect(readFileSync(target, 'utf8')).toBe('{"a":1}');
    // taken once: the next write of the same file makes its own temp
    await writeFileAtomic(target, '{"a":2}');
    expect(statSync(target).ino).not.toBe(prepared);
    expect(readdirSync(dir)).toEqual(['result.json']);
  });

  it('a write that asks for a mode makes its own temp, and a temp no write took is removed at exit', () => {
    const dir = tempDir();
    const fsutil = join(import.meta.dirname, '../../../src/local/fsutil.ts');
    const script = `
      import { prepareTemp, writeFileAtomic } from ${JSON.stringify(fsutil)};
      import { readdirSync, statSync } from 'node:fs';
      prepareTemp(${JSON.stringify(join(dir, 'secret'))});
      prepareTemp(${JSON.stringify(join(dir, 'unused.json'))});
      await writeFileAtomic(${JSON.stringify(join(dir, 'secret'))}, 'x', 0o600);
      console.log(JSON.stringify({ files: readdirSync(${JSON.stringify(dir)}).length, mode: statSync(${JSON.stringify(join(dir, 'secret'))}).mode & 0o777 }));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    // during the run: the secret, its unused prepared temp and the other prepared temp
    expect(JSON.parse(run.stdout)).toEqual({ files: 3, mode: 0o600 });
    expect(readdirSync(dir)).toEqual(['secret']);
  });

  it('isAlive tells this process from a finished one', async () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(await deadPid())).toBe(false);
    expect(isAlive(-1)).toBe(false);
  });
});
