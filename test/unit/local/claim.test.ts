import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimJob, localConcurrency } from '../../../src/core/local/claim.js';
import { recoverInterrupted } from '../../../src/core/local/control.js';
import { requeueForRetry } from '../../../src/core/local/lifecycle.js';
import { LocalStore, type LocalJob } from '../../../src/core/local/store.js';

const id = 'local-01m889dkm5c7t7n6p5';
let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A store with one job in the given state; queued jobs get their queue marker. */
async function storeWith(job: Partial<LocalJob>): Promise<LocalStore> {
  root = mkdtempSync(join(tmpdir(), 'simjob-claim-'));
  const store = new LocalStore(root);
  await store.init();
  mkdirSync(store.jobDir(id));
  const now = new Date().toISOString();
  const record = {
    schema: 1,
    id,
    status: 'queued',
    priority: 'standard',
    queuedAt: now,
    createdAt: now,
    updatedAt: now,
    maxQueueSeconds: null,
    attempt: 0,
    retried: false,
    owner: null,
    simcPid: null,
    simc: { path: 'simc', source: 'PATH' },
    outputs: { html: false, csv: false, jsonVersion: '2' },
    channel: 'latest',
    gitBranch: null,
    startedAt: null,
    completedAt: null,
    cancelRequestedAt: null,
    errorCode: null,
    statusReason: null,
    simcExitCode: null,
    metadata: null,
    maxRuntimeSeconds: null,
    multiStage: false,
    multiStageSummary: { enabled: false, reason: null, stages: [] },
    webhook: false,
    build: null,
    simDurationMs: null,
    totalDurationMs: null,
    hasResult: false,
    ...job,
  };
  writeFileSync(store.file(id, 'job.json'), JSON.stringify(record));
  if (record.status === 'queued') await store.enqueue(record as LocalJob);
  return store;
}

const inode = (path: string) => statSync(path).ino;
const owner = { pid: process.pid, nonce: 'claim-test' };

describe('claiming a queued job', () => {
  it('moves its queue marker into the running folder (the same file: nothing made or freed)', async () => {
    const store = await storeWith({});
    const marker = inode(join(store.queueDir, `1-${id}`));
    const claimed = await claimJob(store, id, owner, 1);
    expect(claimed).toMatchObject({ status: 'running', attempt: 1, owner });
    expect(readdirSync(store.queueDir)).toEqual([]);
    expect(inode(join(store.runningDir, id))).toBe(marker);
    expect((await store.readJob(id))?.status).toBe('running');
  });

  it('puts the marker back in the queue when the job is not taken after all (its queue time ran out)', async () => {
    const store = await storeWith({ maxQueueSeconds: 1, queuedAt: new Date(Date.now() - 5_000).toISOString() });
    expect(await claimJob(store, id, owner, 1)).toBeUndefined();
    expect(readdirSync(store.queueDir)).toEqual([`1-${id}`]);
    expect(readdirSync(store.runningDir)).toEqual([]);
  });

  it('is undone by recovery when its runner died between moving the marker and writing the record', async () => {
    const store = await storeWith({});
    expect(await store.moveQueuedToRunning(id)).toBeTruthy(); // the claim's first step, then the runner died
    await recoverInterrupted(store);
    expect(readdirSync(store.queueDir)).toEqual([`1-${id}`]);
    expect(readdirSync(store.runningDir)).toEqual([]);
    expect(await claimJob(store, id, owner, 1)).toMatchObject({ status: 'running' });
  });
});

describe('a retry', () => {
  it('moves the running marker back into the queue in one step', async () => {
    const store = await storeWith({});
    await claimJob(store, id, owner, 1);
    const marker = inode(join(store.runningDir, id));
    const job = await requeueForRetry(store, id, () => true);
    expect(job).toMatchObject({ status: 'queued', retried: true });
    expect(readdirSync(store.runningDir)).toEqual([]);
    expect(inode(join(store.queueDir, `1-${id}`))).toBe(marker);
  });
});

describe('localConcurrency', () => {
  const settings = (value: unknown) => ({ setting: () => value }) as Parameters<typeof localConcurrency>[0];
  it('takes SIMJOB_LOCAL_CONCURRENCY over the setting, for the background and the hosted worker alike', () => {
    expect(localConcurrency(settings(2), { SIMJOB_LOCAL_CONCURRENCY: '3' })).toBe(3);
    expect(localConcurrency(settings(2), {})).toBe(2);
    expect(localConcurrency(settings(2), { SIMJOB_LOCAL_CONCURRENCY: '0' })).toBe(2);
    expect(localConcurrency(settings('many'))).toBe(1);
  });
});
