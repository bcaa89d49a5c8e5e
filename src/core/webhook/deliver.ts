/**
 * Local delivery of `job.terminal` (spec §6), made exactly as the service makes it: the same body, headers and
 * signature, one event id for every attempt, a new delivery id per attempt, retried on 408/429/5xx and on no
 * answer within 10 s, never on other statuses.
 *
 * Retry schedule (the spec leaves it open): 6 attempts at most, the waits between them doubling from 2 s:
 *   attempt 1 at once, then after 2 s, 4 s, 8 s, 16 s, 32 s  (the last one ~62 s after the first).
 *
 * The delivery's state lives in a record (the job folder's webhook.json), written before and after every attempt:
 * a process that stops and starts again resumes with the same event id and body, never re-sends a delivered event,
 * and counts an attempt cut off midway as made (the receiver deduplicates by event id, so at-least-once is safe).
 */
import { sleep as sleepFor } from '../../util/sleep.js';
import { readJson, writeJsonAtomic } from '../../util/data-files.js';
import { RECORDS } from '../record-schemas.js';
import { userAgent } from '../../version.js';
import { deliveryHeaders, describeOutcome, isRetryableOutcome, isSuccess, postRaw, type PostOutcome } from './post.js';
import { signatureHeader } from './signature.js';
import { nodeCrypto } from '../../util/crypto.js';

export const RETRY_DELAYS_MS: readonly number[] = [2_000, 4_000, 8_000, 16_000, 32_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface TerminalJob {
  id: string;
  status: string;
  statusReason: string | null;
}

export interface DeliveryAttempt {
  deliveryId: string;
  at: string;
  /** `sending` until the answer is known; a record left at `sending` was cut off by a stop. */
  result: 'sending' | 'delivered' | 'retry' | 'rejected' | 'interrupted';
  status: number | null;
  detail: string | null;
}

/** webhook.json: no secret and no signature in it, only what is needed to resume and to explain what happened. */
export interface DeliveryRecord {
  schema: 1;
  eventId: string;
  jobId: string;
  /** The exact body, sent byte for byte on every attempt. */
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  nextAttemptAt: string;
  finishedAt: string | null;
  /** Why it failed without an attempt (e.g. no signing secret where the worker runs). */
  reason?: string;
}

export interface RecordStore {
  read(): Promise<DeliveryRecord | undefined>;
  write(record: DeliveryRecord): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${nodeCrypto().randomUUID().replace(/-/g, '')}`;

/** The event as the service words it (spec 6.3); the timestamp is when the event was created. */
function terminalEventBody(job: TerminalJob, createdAt: Date): string {
  return JSON.stringify({
    kind: 'job.terminal',
    version: 'v1',
    timestamp: createdAt.toISOString(),
    payload: { id: job.id, status: job.status, statusReason: job.statusReason },
  });
}

/** The record of a new event, pending its first attempt. */
export function newDeliveryRecord(job: TerminalJob, now = new Date()): DeliveryRecord {
  return {
    schema: 1,
    eventId: newId('evt'),
    jobId: job.id,
    body: terminalEventBody(job, now),
    state: 'pending',
    attempts: [],
    nextAttemptAt: now.toISOString(),
    finishedAt: null,
  };
}

/** The waiting time after attempt `n` (1-based) failed and may be retried. */
function retryDelayMs(attempt: number, delays: readonly number[] = RETRY_DELAYS_MS): number {
  return delays[Math.min(attempt, delays.length) - 1] ?? 0;
}

export interface DeliverOptions {
  job: TerminalJob;
  target: WebhookTarget;
  store: RecordStore;
  signal?: AbortSignal;
  delaysMs?: readonly number[];
  timeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** One line per attempt, for the worker's log. */
  log?: (line: string) => void;
}

/**
 * Deliver the job's terminal event, resuming the recorded state. Returns the final record: delivered, failed, or
 * still pending when `signal` stopped it (the next call carries on).
 */
export async function deliverTerminalEvent(options: DeliverOptions): Promise<DeliveryRecord> {
  const now = options.now ?? Date.now;
  const delays = options.delaysMs ?? RETRY_DELAYS_MS;
  const sleep = options.sleep ?? sleepFor;
  const maxAttempts = delays.length + 1;
  let record = (await options.store.read()) ?? newDeliveryRecord(options.job, new Date(now()));
  if (record.state !== 'pending') return record;
  const save = async (change: Partial<DeliveryRecord>) => {
    record = { ...record, ...change };
    await options.store.write(record);
  };
  await save({
    attempts: record.attempts.map((a) =>
      a.result === 'sending' ? { ...a, result: 'interrupted' as const, detail: 'stopped before the answer' } : a,
    ),
  });

  while (record.attempts.length < maxAttempts) {
    const wait = Date.parse(record.nextAttemptAt) - now();
    if (wait > 0) {
      try {
        await sleep(wait, options.signal);
      } catch {
        return record; // stopped while waiting: still pending
      }
    }
    if (options.signal?.aborted) return record;
    const number = record.attempts.length + 1;
    const attempt: DeliveryAttempt = {
      deliveryId: newId('dlv'),
      at: new Date(now()).toISOString(),
      result: 'sending',
      status: null,
      detail: null,
    };
    // Recorded before sending, with the next slot, so a stop mid-attempt still counts it and keeps the schedule.
    await save({
      attempts: [...record.attempts, attempt],
      nextAttemptAt: new Date(now() + retryDelayMs(number, delays)).toISOString(),
    });
    const outcome = await send(options, record, attempt.deliveryId, now);
    const result = isSuccess(outcome)
      ? 'delivered'
      : options.signal?.aborted
        ? 'interrupted'
        : isRetryableOutcome(outcome)
          ? 'retry'
          : 'rejected';
    const done = {
      ...attempt,
      result,
      status: outcome.kind === 'answered' ? outcome.status : null,
      detail: describeOutcome(outcome),
    } as DeliveryAttempt;
    const attempts = [...record.attempts.slice(0, -1), done];
    const last = number >= maxAttempts;
    const state =
      result === 'delivered'
        ? 'delivered'
        : result === 'rejected' || (result !== 'interrupted' && last)
          ? 'failed'
          : 'pending';
    await save({ attempts, state, finishedAt: state === 'pending' ? null : new Date(now()).toISOString() });
    const tail =
      state !== 'pending'
        ? ` (${state})`
        : result === 'interrupted'
          ? ' (stopped; resumes later)'
          : `; next in ${retryDelayMs(number, delays) / 1000} s`;
    options.log?.(
      `webhook ${record.eventId} for ${record.jobId}: attempt ${number}/${maxAttempts} ${attempt.deliveryId} → ${describeOutcome(outcome)}${tail}`,
    );
    if (state !== 'pending' || result === 'interrupted') return record;
  }
  // Only reached when a stop cut off the last attempt: its answer is unknown, and the attempts are used up.
  await save({ state: 'failed', finishedAt: new Date(now()).toISOString() });
  return record;
}

function send(
  options: DeliverOptions,
  record: DeliveryRecord,
  deliveryId: string,
  now: () => number,
): Promise<PostOutcome> {
  const body = Buffer.from(record.body, 'utf8');
  const t = Math.floor(now() / 1000);
  const signature = signatureHeader(options.target.secret, t, body);
  const headers = { ...deliveryHeaders({ signature, eventId: record.eventId, deliveryId }), 'user-agent': userAgent() };
  return postRaw(options.target.url, body, headers, { timeoutMs: options.timeoutMs, signal: options.signal });
}

/** A record kept as a JSON file (the job folder's webhook.json), replaced atomically on every write. */
export function fileRecordStore(path: string): RecordStore {
  return {
    read: () => readJson<DeliveryRecord>(path, RECORDS.delivery),
    write: (record) => writeJsonAtomic(path, record),
  };
}
