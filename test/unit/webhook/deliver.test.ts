import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  deliverTerminalEvent,
  fileRecordStore,
  MAX_ATTEMPTS,
  newDeliveryRecord,
  RETRY_DELAYS_MS,
  type DeliveryRecord,
  type RecordStore,
} from '../../../src/core/webhook/deliver.js';
import { verifySignature } from '../../../src/core/webhook/signature.js';
import { scriptedReceiver } from './receiver.js';
import { tempDir } from '../../helpers/temp.js';

const SECRET = 'whsec_deliver_test';
const JOB = {
  id: 'local-01j9x4b8c2m6k0p3qr',
  status: 'failed',
  statusReason: 'simc exited with code 1: Ünknown option «x»',
};
const FAST = [5, 10, 20, 40, 80];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

function tempRecord(): { path: string; store: RecordStore } {
  const path = join(tempDir('simjob-deliver-'), 'webhook.json');
  return { path, store: fileRecordStore(path) };
}

async function receiver(script: Array<number | 'hang'>) {
  const r = await scriptedReceiver(script);
  closers.push(r.close);
  return r;
}

describe('deliverTerminalEvent', () => {
  it('500, 500, 200: three attempts, one event id, a new delivery id each, identical signed bodies', async () => {
    const r = await receiver([500, 500, 200]);
    const { path, store } = tempRecord();
    const record = await deliverTerminalEvent({
      job: JOB,
      target: { url: r.url, secret: SECRET },
      store,
      delaysMs: FAST,
    });

    expect(r.requests).toHaveLength(3);
    const eventIds = new Set(r.requests.map((q) => q.headers['x-service-event-id']));
    const deliveryIds = new Set(r.requests.map((q) => q.headers['x-service-delivery-id']));
    expect(eventIds).toEqual(new Set([record.eventId]));
    expect(deliveryIds.size).toBe(3);
    for (const q of r.requests) {
      expect(q.method).toBe('POST');
      expect(q.path).toBe('/hook');
      expect(q.headers['content-type']).toBe('application/json');
      expect(q.body.equals(r.requests[0]!.body)).toBe(true);
      const check = verifySignature({
        secret: SECRET,
        header: q.headers['x-service-signature'] as string,
        rawBody: q.body,
      });
      expect(check.ok).toBe(true);
    }
    expect(JSON.parse(r.requests[0]!.body.toString('utf8'))).toEqual({
      kind: 'job.terminal',
      version: 'v1',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      payload: JOB,
    });

    expect(record.state).toBe('delivered');
    expect(record.attempts.map((a) => [a.result, a.status])).toEqual([
      ['retry', 500],
      ['retry', 500],
      ['delivered', 200],
    ]);
    expect(record.attempts.map((a) => a.deliveryId)).toEqual(r.requests.map((q) => q.headers['x-service-delivery-id']));
    const onDisk = JSON.parse(readFileSync(path, 'utf8')) as DeliveryRecord;
    expect(onDisk).toEqual(record);
    expect(readFileSync(path, 'utf8')).not.toContain(SECRET);
  });

  it('retries 408 and 429, and stops at once on any other 4xx', async () => {
    const retried = await receiver([408, 429, 204]);
    const a = await deliverTerminalEvent({
      job: JOB,
      target: { url: retried.url, secret: SECRET },
      store: tempRecord().store,
      delaysMs: FAST,
    });
    expect(a.attempts.map((x) => x.status)).toEqual([408, 429, 204]);
    expect(a.state).toBe('delivered');

    for (const status of [400, 401, 404, 410, 422]) {
      const permanent = await receiver([status, 200]);
      const b = await deliverTerminalEvent({
        job: JOB,
        target: { url: permanent.url, secret: SECRET },
        store: tempRecord().store,
        delaysMs: FAST,
      });
      expect(permanent.requests).toHaveLength(1);
      expect(b).toMatchObject({ state: 'failed', attempts: [{ result: 'rejected', status }] });
    }
  });

  it('retries when the receiver does not answer in time, or cannot be reached', async () => {
    const slow = await receiver(['hang', 200]);
    const a = await deliverTerminalEvent({
      job: JOB,
      target: { url: slow.url, secret: SECRET },
      store: tempRecord().store,
      delaysMs: FAST,
      timeoutMs: 300,
    });
    expect(a.attempts.map((x) => [x.result, x.status, x.detail])).toEqual([
      ['retry', null, 'no answer within 0.3 s'],
      ['delivered', 200, 'HTTP 200'],
    ]);
    expect(new Set(slow.requests.map((q) => q.headers['x-service-event-id'])).size).toBe(1);

    const gone = await receiver([200]);
    await gone.close();
    const b = await deliverTerminalEvent({
      job: JOB,
      target: { url: gone.url, secret: SECRET },
      store: tempRecord().store,
      delaysMs: [1, 1],
    });
    expect(b.state).toBe('failed');
    expect(b.attempts.map((x) => x.detail)).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts, waiting 2, 4, 8, 16 and 32 s between them`, async () => {
    expect(RETRY_DELAYS_MS).toEqual([2_000, 4_000, 8_000, 16_000, 32_000]);
    const r = await receiver([503]);
    let clock = Date.parse('2025-01-01T00:00:00Z');
    const waits: number[] = [];
    const record = await deliverTerminalEvent({
      job: JOB,
      target: { url: r.url, secret: SECRET },
      store: tempRecord().store,
      now: () => clock,
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    });
    expect(waits).toEqual([2_000, 4_000, 8_000, 16_000, 32_000]);
    expect(r.requests).toHaveLength(6);
    expect(record.state).toBe('failed');
    expect(record.attempts.map((a) => a.at)).toEqual(
      ['00:00', '00:02', '00:06', '00:14', '00:30', '01:02'].map((s) => `2025-01-01T00:${s}.000Z`),
    );
  });

  it('never re-sends a delivered or failed event', async () => {
    const r = await receiver([200]);
    const { store } = tempRecord();
    const first = await deliverTerminalEvent({
      job: JOB,
      target: { url: r.url, secret: SECRET },
      store,
      delaysMs: FAST,
    });
    const again = await deliverTerminalEvent({
      job: JOB,
      target: { url: r.url, secret: SECRET },
      store,
      delaysMs: FAST,
    });
    expect(r.requests).toHaveLength(1);
    expect(again).toEqual(first);
  });

  it('resumes a pending record after a stop: same event id and body, the cut-off attempt counted', async () => {
    const r = await receiver([200]);
    const { store } = tempRecord();
    const pending = newDeliveryRecord(JOB, new Date('2025-01-01T00:00:00Z'));
    pending.attempts = [
      { deliveryId: 'dlv_1', at: '2025-01-01T00:00:00.000Z', result: 'retry', status: 502, detail: 'HTTP 502' },
      { deliveryId: 'dlv_2', at: '2025-01-01T00:00:02.000Z', result: 'sending', status: null, detail: null },
    ];
    pending.nextAttemptAt = '2025-01-01T00:00:06.000Z';
    await store.write(pending);

    const record = await deliverTerminalEvent({
      job: { ...JOB, status: 'completed' },
      target: { url: r.url, secret: SECRET },
      store,
      delaysMs: FAST,
    });
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]!.headers['x-service-event-id']).toBe(pending.eventId);
    expect(r.requests[0]!.body.toString('utf8')).toBe(pending.body);
    expect(record.attempts.map((a) => a.result)).toEqual(['retry', 'interrupted', 'delivered']);
    expect(record.state).toBe('delivered');
  });

  it('a stop while waiting leaves the record pending; the next run carries on with the same event', async () => {
    const r = await receiver([500, 200]);
    const { store } = tempRecord();
    const stop = new AbortController();
    const first = deliverTerminalEvent({
      job: JOB,
      target: { url: r.url, secret: SECRET },
      store,
      delaysMs: [60_000],
      signal: stop.signal,
    });
    while (r.requests.length === 0) await new Promise((res) => setTimeout(res, 5));
    setTimeout(() => stop.abort(), 50);
    const paused = await first;
    expect(paused.state).toBe('pending');
    expect(paused.attempts).toHaveLength(1);

    // A minute later, as a restarted worker would find it: the recorded next slot has come.
    const done = await deliverTerminalEvent({
      job: JOB,
      target: { url: r.url, secret: SECRET },
      store,
      delaysMs: [60_000],
      now: () => Date.now() + 61_000,
    });
    expect(done.state).toBe('delivered');
    expect(r.requests.map((q) => q.headers['x-service-event-id'])).toEqual([paused.eventId, paused.eventId]);
  });
});
