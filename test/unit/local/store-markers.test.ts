import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalStore } from '../../../src/core/local/store.js';
import { tempDir } from '../../helpers/temp.js';

const id = 'local-01m890000000000000';

describe('the queue and running markers', () => {
  it('are plain empty files: a running marker moves back to the queue and out again', async () => {
    const store = new LocalStore(join(tempDir('simjob-markers-'), 'data'));
    await store.init();
    await store.enqueue({ id, priority: 'high' });
    await store.enqueue({ id, priority: 'high' }); // queued already: no error
    expect(await store.moveQueuedToRunning(id)).toBeTruthy();
    expect(await store.moveQueuedToRunning(id)).toBeUndefined(); // moved already
    expect(await store.runningIds()).toEqual([id]);
    expect(await store.moveRunningToQueue({ id, priority: 'high' })).toBe(true);
    expect(await store.queuedIds()).toEqual([id]);
    expect(await store.moveQueuedToRunning(id)).toBeTruthy();
    await store.unmarkRunning(id);
    expect(await store.runningIds()).toEqual([]);
  });

  it('tell a queue entry of an unknown rank or name apart, for the worker to remove', async () => {
    const store = new LocalStore(join(tempDir('simjob-markers-'), 'data'));
    await store.init();
    writeFileSync(join(store.queueDir, `5-${id}`), '');
    writeFileSync(join(store.queueDir, 'notes.txt'), '');
    await store.enqueue({ id, priority: 'standard' });
    expect(await store.queuedIds()).toEqual([id]);
    expect((await store.strayQueueFiles()).sort()).toEqual([
      join(store.queueDir, `5-${id}`),
      join(store.queueDir, 'notes.txt'),
    ]);
  });

  it('see a job queued while the worker looks for strays as a job, never a stray (its marker would be removed)', async () => {
    const store = new LocalStore(join(tempDir('simjob-markers-'), 'data'));
    await store.init();
    // Another process queues 3,000 jobs as fast as it can while this one looks for strays over and over.
    const queuer = spawn(process.execPath, [
      '-e',
      `const fs = require('node:fs');
       for (let i = 0; i < 3000; i++) fs.writeFileSync(process.argv[1] + '/1-local-01m89' + String(i).padStart(13, '0'), '');`,
      store.queueDir,
    ]);
    const ended = new Promise((resolve) => queuer.on('exit', resolve));
    let running = true;
    void ended.then(() => (running = false));
    const taken: string[] = [];
    while (running) {
      taken.push(...(await store.strayQueueFiles()));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await ended).toBe(0);
    expect(taken).toEqual([]);
    expect(await store.queuedIds()).toHaveLength(3000);
  });
});

describe('a job record', () => {
  it.each([
    ['{}', 'its id is undefined'],
    ['[1,2]', 'not an object'],
    [`{"id":"local-01m89000000000000x"}`, 'its id is "local-01m89000000000000x"'],
  ])('of another shape (%s) is an error naming its file', async (text, why) => {
    const store = new LocalStore(join(tempDir('simjob-records-'), 'data'));
    await store.init();
    mkdirSync(store.jobDir(id));
    writeFileSync(store.file(id, 'job.json'), text);
    await expect(store.readJob(id)).rejects.toThrow(
      `${store.file(id, 'job.json')}: not a job record of simjob (${why}`,
    );
  });

  it('is an error naming the folder when a file is where the store keeps a folder', async () => {
    const root = join(tempDir('simjob-records-'), 'data');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'queue'), '');
    await expect(new LocalStore(root).init()).rejects.toThrow(
      `${join(root, 'queue')}: a file is where simjob keeps a folder.`,
    );
  });
});
