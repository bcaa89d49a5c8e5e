import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileSeenEvents } from '../../../src/core/webhook/seen.js';
import { tempDir } from '../../helpers/temp.js';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function file(): string {
  const dir = tempDir('simjob-seen-');
  dirs.push(dir);
  return join(dir, 'data', 'seen.json');
}

describe('the webhook seen-events store', () => {
  it('forgets an id after the window, keeps at most `max`, oldest first', async () => {
    let now = 1_000_000;
    const path = file();
    const store = await fileSeenEvents(path, { ttlMs: 300_000, now: () => now, max: 3 });
    for (const id of ['a', 'b', 'c', 'd']) {
      await store.add(id);
      now += 1000;
    }
    expect(['a', 'b', 'c', 'd'].map((id) => store.has(id))).toEqual([false, true, true, true]);
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).seen)).toEqual(['b', 'c', 'd']);
    now += 300_000 - 1500; // b is now 301.5 s old, c 300.5 s, d 299.5 s
    expect([store.has('b'), store.has('d')]).toEqual([false, true]);
    await store.add('e');
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).seen).sort()).toEqual(['d', 'e']);
  });

  it("two listeners on one data folder keep each other's ids", async () => {
    const path = file();
    const one = await fileSeenEvents(path, { ttlMs: 60_000 });
    const two = await fileSeenEvents(path, { ttlMs: 60_000 });
    await one.add('from-one');
    await two.add('from-two');
    const reopened = await fileSeenEvents(path, { ttlMs: 60_000 });
    expect([reopened.has('from-one'), reopened.has('from-two')]).toEqual([true, true]);
  });

  it.each([
    ['not JSON', '{"seen":'],
    ['wrong shape', '[1,2]'],
    ['wrong types', '{"version":1,"seen":{"a":"x","b":null,"c":5}}'],
  ])('a damaged file (%s) is reported once and replaced', async (_name, text) => {
    const path = file();
    const problems: string[] = [];
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    const store = await fileSeenEvents(path, { ttlMs: 1e12, onProblem: (t) => problems.push(t) });
    expect(problems.length).toBeLessThanOrEqual(1);
    await store.add('z');
    expect(JSON.parse(readFileSync(path, 'utf8')).seen).toHaveProperty('z');
  });
});
