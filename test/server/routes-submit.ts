/**
 * POST /v1/sim/jobs (spec 4.1, 4.7; notes §2.1, §2.2, §4, §5, §9, §10). Checks in this order: rate limit (replays
 * count) → body size → body and schema → idempotency key (replay / 409) → webhook config → profile directives →
 * account runtime/queue maxima → test knobs → in-flight limit → credits → create.
 */
import { VCPUS, type Account } from './accounts.js';
import { buildFor } from './builds.js';
import { activeHeaders, type Answer, type Call, type ServerContext } from './context.js';
import { ApiFailure, invalid, single } from './http.js';
import { BLOCKED_SAMPLE, scanProfile, type Line } from './profile.js';
import { checkAccountLimits, decodeSubmit, digestOf, MAX_BODY_BYTES, readPlan, toSubmission } from './submit.js';
import { links } from './views.js';
import type { Submission } from './types.js';

export const IDEMPOTENCY_KEY = /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/;
const DOCS = 'https://docs.example.invalid';

export function createJob(ctx: ServerContext, call: Call): Answer {
  const { account } = call;
  ctx.engine.advance();
  const headers = () => ({ ...account.rateHeaders(ctx.clock), ...activeHeaders(ctx, account) });
  try {
    account.takeSubmission(ctx.clock);
    const answer = submit(ctx, call, account);
    return { ...answer, headers: { ...headers(), ...answer.headers } };
  } catch (error) {
    if (error instanceof ApiFailure)
      throw new ApiFailure(error.status, error.code, error.message, error.meta, { ...headers(), ...error.headers });
    throw error;
  }
}

function submit(ctx: ServerContext, call: Call, account: Account): Answer {
  if (call.bytes === null) {
    throw new ApiFailure(413, 'payload_too_large', 'The request body exceeds the 3 MB maximum.', {
      maxBytes: MAX_BODY_BYTES,
    });
  }
  const json = decodeSubmit(single(call.headers['content-type']), call.bytes, call.query, call.headers);
  const sub = toSubmission(json, account);

  const key = single(call.headers['idempotency-key']);
  const digest = digestOf(json);
  if (key !== undefined) {
    if (key.length > 255 || !IDEMPOTENCY_KEY.test(key)) {
      throw invalid('Invalid idempotency-key: 1–255 printable ASCII characters, no leading or trailing space.');
    }
    const seen = account.idempotency.get(key);
    if (seen && seen.digest === digest)
      return { status: 200, body: seen.body, headers: { 'x-idempotent-replay': 'true' } };
    if (seen) {
      throw new ApiFailure(
        409,
        'idempotency_key_reuse',
        'This idempotency-key was already used with a different payload.',
        {
          reason: 'idempotency_key_reuse',
          originalJobId: seen.jobId,
          docsUrl: `${DOCS}/idempotency`,
        },
      );
    }
  }

  if (sub.webhookEvents.length > 0 && !account.webhook) {
    throw new ApiFailure(
      400,
      'webhook_not_configured',
      'This job subscribes to webhooks, but the client has no webhook URL and signing secret configured.',
    );
  }
  const scan = scanProfile(sub.profileText, buildFor(sub.channel).manifest);
  rejectDirectives(scan.blocked, sub.credentials ? [] : scan.armory);
  checkAccountLimits(sub, account);
  const plan = readPlan(sub.metadata, ctx.settings);

  const active = ctx.engine.activeJobs(account.key).length;
  if (active >= account.limits.maxActiveJobs) {
    throw new ApiFailure(
      429,
      'max_active_jobs_exceeded',
      `The account already has ${active} jobs in flight.`,
      {
        reason: 'max_active_jobs_exceeded',
        maxActiveJobs: account.limits.maxActiveJobs,
        activeJobs: active,
      },
      { 'retry-after': String(ctx.engine.retryAfterSeconds(account.key)) },
    );
  }
  const { fee, reserve } = checkCredits(sub, account);

  const job = ctx.engine.create(account, sub, plan, scan.applied, scan.warnings, reserve, fee);
  const body: Record<string, unknown> = {
    success: true,
    id: job.id,
    runtime: {
      ceiling: { maxCredits: sub.maxCredits, runtimeSeconds: sub.maxRuntimeSeconds, queueSeconds: sub.maxQueueSeconds },
      priorityFeeCredits: fee,
    },
    links: links(ctx.views, job),
  };
  if (scan.warnings.length) body.warnings = scan.warnings;
  if (key !== undefined) account.idempotency.set(key, { digest, jobId: job.id, body });
  return { status: 200, body };
}

/** 422 `input_sanitized_rejected` (notes §9); `armory=` without provider credentials is rejected the same way. */
function rejectDirectives(blocked: Line[], armory: Line[]): void {
  const lines = [...blocked, ...armory].sort((a, b) => a.line - b.line);
  if (lines.length === 0) return;
  const parts: string[] = [];
  if (blocked.length)
    parts.push(
      'the profile uses directives the service does not allow (file output, file or network access, thread control, plots)',
    );
  if (armory.length)
    parts.push('armory= needs provider credentials (credentials.providerClientId and providerClientSecret)');
  const message = `Input rejected: ${parts.join('; ')}.`;
  throw new ApiFailure(422, 'input_sanitized_rejected', message, {
    reason: 'input_sanitized_rejected',
    message,
    docsUrl: `${DOCS}/simc/directives`,
    blocked: lines.slice(0, BLOCKED_SAMPLE),
    blockedCount: lines.length,
    blockedTruncated: lines.length > BLOCKED_SAMPLE,
  });
}

/** 402s of notes §10: the high fee first (`insufficient_credits_liability`), then the runtime reservation. */
function checkCredits(sub: Submission, account: Account): { fee: number; reserve: number } {
  const fee = sub.priority === 'high' ? account.limits.priorityFeeCredits : 0;
  if (fee > account.available) {
    throw new ApiFailure(
      402,
      'insufficient_credits_liability',
      `The balance cannot cover the high-priority fee of ${fee} credits.`,
      {
        reason: 'insufficient_credits_liability',
        priorityFeeCredits: fee,
        docsUrl: `${DOCS}/credits`,
      },
    );
  }
  const reserve = sub.maxCredits + fee;
  if (reserve > account.available) {
    throw new ApiFailure(
      402,
      'insufficient_credits',
      `Not enough credits to reserve ${reserve} credits for this job.`,
      {
        reason: 'insufficient_credits',
        ceilingMaxCredits: sub.maxCredits,
        maxAffordableCredits: Math.max(0, account.available - fee),
        ceilingRuntimeSeconds: sub.maxRuntimeSeconds,
        maxAffordableRuntimeSeconds: Math.max(0, Math.floor((account.available - fee) / VCPUS)),
        docsUrl: `${DOCS}/credits`,
      },
    );
  }
  return { fee, reserve };
}
