/**
 * The records simjob writes in its data dir and reads back, as zod schemas: a record that does not match (edited by
 * hand, cut short, written by another program) is one error naming its file, never a crash further down. Read
 * leniently as the API's answers are: fields a later simjob adds are kept, so an older simjob can still read them.
 * Built on first use, like src/core/resources/schemas.ts: a command that reads none never builds them.
 *
 * Not here: config.json and credentials.json (every command reads them, zod included would cost every start-up;
 * src/core/config/keys.ts checks each setting with the parser `config set` uses) and job.json's fields a runner
 * decides on (lock.ts reads the lock files it made itself with their own checks).
 */
import * as z from 'zod/mini';
import type { RecordKind } from '../util/data-files.js';
import { Summary } from './resources/schemas.js';

const nstr = z.nullable(z.string());
const nnum = z.nullable(z.number());

let built: ReturnType<typeof build> | undefined;
const schemas = () => (built ??= build());

function build() {
  const mainActor = z.looseObject({ index: z.number(), name: nstr, metric: z.optional(z.string()) });
  const stage = z.looseObject({ stage: z.number(), label: z.nullish(z.string()) });
  const job = z.looseObject({
    schema: z.literal(1),
    id: z.string(),
    status: z.string(),
    priority: z.string(),
    channel: z.string(),
    gitBranch: nstr,
    createdAt: z.string(),
    queuedAt: z.string(),
    startedAt: nstr,
    completedAt: nstr,
    updatedAt: z.string(),
    cancelRequestedAt: nstr,
    errorCode: nstr,
    statusReason: nstr,
    simcExitCode: z.nullable(z.union([z.string(), z.number()])),
    metadata: z.nullable(z.record(z.string(), z.string())),
    simc: z.looseObject({ path: z.string(), source: z.string() }),
    maxRuntimeSeconds: nnum,
    maxQueueSeconds: nnum,
    multiStage: z.boolean(),
    multiStageSummary: z.looseObject({
      enabled: z.boolean(),
      reason: z.nullish(z.string()),
      stages: z.nullish(z.array(stage)),
    }),
    outputs: z.looseObject({ html: z.boolean(), csv: z.boolean(), jsonVersion: z.string() }),
    webhook: z.boolean(),
    // Records made before profileset_metric support (2026-11-24) have none.
    mainActor: z.optional(mainActor),
    attempt: z.number(),
    retried: z.boolean(),
    owner: z.nullable(
      z.looseObject({
        pid: z.number(),
        nonce: z.string(),
      }),
    ),
    simcPid: nnum,
    detached: z.optional(z.boolean()),
    build: z.nullable(z.looseObject({ id: z.string(), path: z.string(), versionLine: z.nullish(z.string()) })),
    simDurationMs: nnum,
    totalDurationMs: nnum,
    hasResult: z.boolean(),
  });
  const progress = z.looseObject({
    percent: nnum,
    phase: nstr,
    stage: z.nullish(z.looseObject({ current: z.number(), total: z.number(), label: nstr, percent: z.number() })),
    updatedAt: z.string(),
  });
  const result = z.looseObject({ summary: z.nullable(Summary), notifications: z.optional(z.array(z.string())) });
  const idempotencyKey = z.looseObject({ jobId: z.string(), digest: z.string() });
  const delivery = z.looseObject({
    schema: z.literal(1),
    eventId: z.string(),
    jobId: z.string(),
    body: z.string(),
    state: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.array(
      z.looseObject({
        deliveryId: z.string(),
        at: z.string(),
        result: z.enum(['sending', 'delivered', 'retry', 'rejected', 'interrupted']),
        status: nnum,
        detail: nstr,
      }),
    ),
    nextAttemptAt: z.string(),
    finishedAt: nstr,
    reason: z.optional(z.string()),
  });
  const subscription = z.looseObject({ url: z.string(), profile: z.string() });
  return { job, progress, result, idempotencyKey, delivery, subscription };
}

function kind(what: string, schema: () => z.ZodMiniType): RecordKind {
  return {
    what,
    check(value) {
      const parsed = z.safeParse(schema(), value);
      if (parsed.success) return { ok: true, value: parsed.data };
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'the record';
      return { ok: false, problem: `${where}: ${issue?.message ?? 'not as simjob writes it'}` };
    },
  };
}

/** The record kinds: each schema is what a record must have for the code that reads it. */
export const RECORDS = {
  job: kind('a job record', () => schemas().job),
  progress: kind('a progress record', () => schemas().progress),
  result: kind('a result record', () => schemas().result),
  idempotencyKey: kind('an idempotency key record', () => schemas().idempotencyKey),
  delivery: kind('a webhook delivery record', () => schemas().delivery),
  subscription: kind('a webhook subscription', () => schemas().subscription),
};
