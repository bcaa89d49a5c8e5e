/**
 * Room under local.concurrency, as the worker and a waiting CLI claim it: a job takes room while its simc runs, and
 * gives it up when its simc has ended, though it stays running (and findable for recovery) until its result is written.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { claimJob } from '../../../src/local/claim.js';
import { newLocalJobId } from '../../../src/local/ids.js';
import { LocalStore, type LocalJob } from '../../../src/local/store.js';
import { tempDir } from '../../helpers/temp.js';

function queuedJob(id: string): LocalJob {
  const now = new Date().toISOString();
  return {
    schema: 1, id, status: 'queued', priority: 'standard', channel: 'latest', gitBranch: null,
    createdAt: now, queuedAt: now, startedAt: null, completedAt: null, updatedAt: now, cancelRequestedAt: null,
    errorCode: null, statusReason: null, simcExitCode: null, metadata: null,
    simc: { path: '/opt/simc', source: 'flag' }, maxRuntimeSeconds: null, maxQueueSeconds: null, multiStage: false,
    multiStageSummary: { enabled: false, reason: 'disabled_by_option' } as LocalJob['multiStageSummary'],
    outputs: { html: false, csv: false, jsonVersion: '2' }, webhook: false,
    mainActor: { index: 0, metric: 'dps' } as LocalJob['mainActor'],
    attempt: 0, retried: false, owner: null, simcPid: null, build: null, simDurationMs: null, totalDurationMs: null,
    hasResult: false, idempotency: null,
  } as LocalJob;
}

async function storeWithQueued(count: number): Promise<{ store: LocalStore; ids: string[] }> {
  const store = new LocalStore(join(tempDir('simjob-claim-'), 'data'));
  await store.init();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const job = queuedJob(newLocalJobId(Date.now() + i));
    await store.createJob(job, { 'input.simc': { data: 'warrior="A"\n' } });
    await store.enqueue(job);
    ids.push(job.id);
  }
  return { store, ids };
}

const owner = { pid: process.pid, nonce: 'test' };

it('a job takes room while its simc runs, and gives it up once its simc has ended', async () => {
  const { store, ids } = await storeWithQueued(3);
  const [first, second, third] = ids as [string, string, string];
  expect((await claimJob(store, first, owner, 1))?.status).toBe('running');
  expect(await claimJob(store, second, owner, 1)).toBeUndefined(); // concurrency 1: no room

  await store.markSimcEnded(first);
  expect((await claimJob(store, second, owner, 1))?.status).toBe('running');
  // The first job is still running (its result is being written) and its marker stays, for recovery.
  expect((await store.readJob(first))?.status).toBe('running');
  expect((await store.runningIds()).sort()).toEqual([first, second].sort());
  expect(await store.busyIds()).toEqual([second]);
  expect(await claimJob(store, third, owner, 1)).toBeUndefined(); // the second one's simc runs
});

it('marking the simc of a job that has ended already leaves no marker behind', async () => {
  const { store, ids } = await storeWithQueued(1);
  const [id] = ids as [string];
  await claimJob(store, id, owner, 1);
  await store.unmarkRunning(id); // the job ended
  await store.markSimcEnded(id);
  expect(existsSync(join(store.runningDir, id))).toBe(false);
  expect(await store.runningIds()).toEqual([]);
});
