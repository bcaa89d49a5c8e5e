/** Job reads and cancel (spec 4.2–4.5, notes §2.3–§2.8). */
import { createHash } from 'node:crypto';
import { activeHeaders, ownJob, type Answer, type Call, type ServerContext } from './context.js';
import { ApiFailure, invalid, notFound } from './http.js';
import { newId } from './ids.js';
import { artifactUrlOf, jobRecord, listItem, resultRecord, statusRecord } from './views.js';
import type { ArtifactRecord, Job } from './types.js';

const DAY_MS = 86_400_000;

export function getJob(ctx: ServerContext, call: Call): Answer {
  return { status: 200, body: jobRecord(ctx.views, ownJob(ctx, call)), headers: activeHeaders(ctx, call.account) };
}

export function getJobStatus(ctx: ServerContext, call: Call): Answer {
  const job = ownJob(ctx, call);
  const include = (call.query.include ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = include.filter((v) => v !== 'logEntries');
  if (unknown.length) throw invalid(`Unsupported include value: ${unknown.join(', ')} (supported: logEntries).`);
  return {
    status: 200,
    body: statusRecord(ctx.views, job, include.includes('logEntries')),
    headers: activeHeaders(ctx, call.account),
  };
}

export function getJobResult(ctx: ServerContext, call: Call): Answer {
  const job = ownJob(ctx, call);
  if (job.completedAt === null) {
    throw new ApiFailure(409, 'result_not_ready', `Job ${job.id} is ${job.status}; its result is not ready.`, {
      status: job.status,
    });
  }
  if (!job.result) {
    throw new ApiFailure(422, 'result_unavailable', `Job ${job.id} ended ${job.status} without a result.`, {
      status: job.status,
    });
  }
  const body = resultRecord(ctx.views, job) as { result: { artifacts: unknown[] } };
  if (ctx.extras.on && !ctx.engine.isExpired(job)) {
    const extra = flamegraph(ctx, job);
    body.result.artifacts.push({
      id: extra.id,
      url: artifactUrlOf(ctx.views, extra),
      kind: extra.kind,
      mimeType: extra.mimeType,
      stage: null,
    });
  }
  return { status: 200, body };
}

const flamegraphs = new WeakMap<Job, ArtifactRecord>();

/** Extra-fields mode: an artifact of a kind 1.5.0 does not know, served by the artifact host like any other. */
function flamegraph(ctx: ServerContext, job: Job): ArtifactRecord {
  let a = flamegraphs.get(job);
  if (!a) {
    a = {
      id: newId(),
      jobId: job.id,
      kind: 'flamegraph',
      mimeType: 'image/svg+xml',
      stage: null,
      filename: 'flamegraph.svg',
    };
    flamegraphs.set(job, a);
    ctx.registry.set(a.id, a);
  }
  return a;
}

export function cancelJob(ctx: ServerContext, call: Call): Answer {
  return { status: 200, body: ctx.engine.cancel(ownJob(ctx, call)) };
}

/** Cursors are opaque, bound to the client that got them: base64url of `{v, s: seq, k: key hash}`. */
function encodeCursor(seq: number, key: string): string {
  return Buffer.from(JSON.stringify({ v: 1, s: seq, k: keyTag(key) })).toString('base64url');
}

function decodeCursor(cursor: string, key: string): number {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      v?: unknown;
      s?: unknown;
      k?: unknown;
    };
    if (c.v === 1 && Number.isInteger(c.s) && c.k === keyTag(key)) return c.s as number;
  } catch {
    // fall through
  }
  throw new ApiFailure(400, 'invalid_cursor', 'The cursor is not valid; use page.nextCursor from a previous response.');
}

function keyTag(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

export function listJobs(ctx: ServerContext, call: Call): Answer {
  for (const name of Object.keys(call.query))
    if (name !== 'limit' && name !== 'cursor') throw invalid(`Unknown query parameter '${name}'.`);
  const rawLimit = call.query.limit;
  if (rawLimit !== undefined && !/^\d+$/.test(rawLimit)) throw invalid('limit must be an integer from 1 to 100.');
  const limit = rawLimit === undefined ? 25 : Number(rawLimit);
  if (limit < 1 || limit > 100) throw invalid('limit must be an integer from 1 to 100.');
  const cursor = call.query.cursor;
  if (cursor !== undefined && (cursor.length < 1 || cursor.length > 512))
    throw new ApiFailure(400, 'invalid_cursor', 'The cursor is not valid.');
  const after = cursor === undefined ? Infinity : decodeCursor(cursor, call.account.key);
  const now = ctx.clock.now();
  const jobs = [...ctx.engine.jobs.values()]
    .filter((j) => j.owner === call.account.key && j.seq < after && !ctx.engine.isExpired(j))
    .sort((a, b) => b.seq - a.seq);
  const page = jobs.slice(0, limit);
  const hasMore = jobs.length > limit;
  const last = page[page.length - 1];
  return {
    status: 200,
    body: {
      jobs: page.map((j) => listItem(ctx.views, j)),
      page: {
        limit,
        hasMore,
        nextCursor: hasMore && last ? encodeCursor(last.seq, call.account.key) : null,
        since: ctx.clock.iso(now - ctx.settings.retentionDays * DAY_MS),
      },
    },
    headers: activeHeaders(ctx, call.account),
  };
}

export function getArtifactUrl(ctx: ServerContext, call: Call): Answer {
  const id = call.params.id ?? '';
  const a = ctx.registry.get(id);
  const job = a ? ctx.engine.jobs.get(a.jobId) : undefined;
  if (!a || !job || job.owner !== call.account.key) throw notFound('Artifact', id);
  if (ctx.engine.isExpired(job)) {
    throw new ApiFailure(410, 'artifact_expired', 'The artifact has expired.', {
      id,
      retentionDays: ctx.settings.retentionDays,
    });
  }
  return { status: 200, body: { url: artifactUrlOf(ctx.views, a) } };
}
