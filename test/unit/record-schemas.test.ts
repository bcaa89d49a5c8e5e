/**
 * Every record simjob reads back from its data dir goes through its schema (src/core/record-schemas.ts): one that
 * is not what simjob writes is one error line naming the file and the field; fields a later simjob adds are kept.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalError } from '../../src/errors.js';
import type { LocalJob } from '../../src/core/local/store.js';
import { LocalStore } from '../../src/core/local/store.js';
import { readJson } from '../../src/util/data-files.js';
import { RECORDS } from '../../src/core/record-schemas.js';
import { fileRecordStore } from '../../src/core/webhook/deliver.js';
import { tempDir } from '../helpers/temp.js';

const id = 'local-01m89000000000000a';
const now = '2026-11-29T07:00:00.000Z';
const job: LocalJob = {
  schema: 1,
  id,
  status: 'completed',
  priority: 'standard',
  channel: 'latest',
  gitBranch: null,
  createdAt: now,
  queuedAt: now,
  startedAt: now,
  completedAt: now,
  updatedAt: now,
  cancelRequestedAt: null,
  errorCode: null,
  statusReason: null,
  simcExitCode: '0',
  metadata: { guild: 'x' },
  simc: { path: '/usr/bin/simc', source: 'PATH' },
  maxRuntimeSeconds: null,
  maxQueueSeconds: null,
  multiStage: false,
  multiStageSummary: { enabled: false, reason: 'no_profilesets', stages: [] },
  outputs: { html: false, csv: false, jsonVersion: '2' },
  webhook: false,
  mainActor: { index: 0, name: 'Fury', metric: 'dps' },
  attempt: 1,
  retried: false,
  owner: null,
  simcPid: null,
  build: null,
  simDurationMs: 10,
  totalDurationMs: 20,
  hasResult: true,
};

async function storeWith(file: string, value: unknown): Promise<LocalStore> {
  const store = new LocalStore(join(tempDir('simjob-records-'), 'data'));
  await store.init();
  mkdirSync(store.jobDir(id));
  writeFileSync(store.file(id, file), typeof value === 'string' ? value : JSON.stringify(value));
  return store;
}

const oneLine = (error: unknown) => {
  expect(error).toBeInstanceOf(LocalError);
  expect((error as Error).message).not.toContain('\n');
  return (error as Error).message;
};

describe('a job record', () => {
  it('as simjob writes it reads back, with a field a later simjob may add kept', async () => {
    const store = await storeWith('job.json', { ...job, addedLater: true });
    expect(await store.readJob(id)).toEqual({ ...job, addedLater: true });
  });

  it.each([
    [{ ...job, attempt: '1' }, 'attempt: '],
    [{ ...job, simc: 'simc' }, 'simc: '],
    [{ ...job, outputs: { html: true } }, 'outputs.csv: '],
    [{ ...job, metadata: { n: 1 } }, 'metadata.n: '],
    [{ ...job, hasResult: undefined }, 'hasResult: '],
  ])('with a field of the wrong type is one error naming the file and the field (%#)', async (record, field) => {
    const store = await storeWith('job.json', record);
    const message = oneLine(await store.readJob(id).catch((e: unknown) => e));
    expect(message).toContain(`${store.file(id, 'job.json')}: not a job record of simjob (${field}`);
  });
});

describe('the other records', () => {
  it('a result: its summary must be one', async () => {
    const store = await storeWith('result.json', { summary: { mainActor: { name: 'A', mean: 'lots' } } });
    expect(oneLine(await store.readResult(id).catch((e: unknown) => e))).toContain(
      'result.json: not a result record of simjob (summary.mainActor.mean: ',
    );
    const fine = await storeWith('result.json', { summary: null, notifications: ['Warning: x'] });
    expect(await fine.readResult(id)).toEqual({ summary: null, notifications: ['Warning: x'] });
  });

  it('progress: best effort, so a bad one reads as none', async () => {
    const store = await storeWith('progress.json', { percent: 'half' });
    expect(await store.readProgress(id)).toBeUndefined();
    await expect(readJson(store.file(id, 'progress.json'), RECORDS.progress)).rejects.toThrow(
      /progress\.json: not a progress record of simjob \(percent: /,
    );
  });

  it('an idempotency key, a webhook delivery and a subscription', async () => {
    const dir = tempDir('simjob-records-');
    const file = (name: string, value: unknown) => {
      writeFileSync(join(dir, name), JSON.stringify(value));
      return join(dir, name);
    };
    await expect(readJson(file('key', { jobId: 7 }), RECORDS.idempotencyKey)).rejects.toThrow(
      /key: not an idempotency key record of simjob \(jobId: /,
    );
    expect(await readJson(file('key2', { jobId: id, digest: 'd' }), RECORDS.idempotencyKey)).toEqual({
      jobId: id,
      digest: 'd',
    });
    await expect(fileRecordStore(file('webhook.json', { schema: 1, state: 'sent' })).read()).rejects.toThrow(
      /webhook\.json: not a webhook delivery record of simjob/,
    );
    await expect(readJson(file('sub.json', { url: 1 }), RECORDS.subscription)).rejects.toThrow(
      /sub\.json: not a webhook subscription of simjob \(url: /,
    );
    await expect(readJson(file('bad.json', 'x') + '', RECORDS.subscription)).rejects.toThrow(/not a webhook/);
    writeFileSync(join(dir, 'torn.json'), '{"url":');
    await expect(readJson(join(dir, 'torn.json'), RECORDS.subscription)).rejects.toThrow(
      'torn.json: damaged (not JSON).',
    );
    expect(await readJson(join(dir, 'absent.json'), RECORDS.subscription)).toBeUndefined();
  });
});
