/** Jobs as the API shows them: record (spec 2.3), status (notes §8), result (spec 2.4), list item (notes §2.5). */
import { CREDITS_PER_SECOND, VCPUS } from './accounts.js';
import { jobBuildView } from './builds.js';
import { round1, type Engine } from './engine.js';
import { stageLabels, stagesOf } from './results.js';
import type { Clock } from './clock.js';
import type { ArtifactRecord, Job } from './types.js';

export interface ViewContext {
  clock: Clock;
  engine: Engine;
  artifactUrl: string;
  retentionDays: number;
}

const iso = (ctx: ViewContext, ms: number | null) => (ms === null ? null : ctx.clock.iso(ms));
const isTerminal = (job: Job) => job.completedAt !== null;

export function links(ctx: ViewContext, job: Job): { share: string; manifest?: string } {
  const share = `${ctx.artifactUrl}/share/${job.id}`;
  if (!isTerminal(job)) return { share };
  return { share, manifest: `${ctx.artifactUrl}/manifest/${job.id}/attempt-${job.attempt}.json` };
}

export function artifactUrlOf(ctx: ViewContext, a: ArtifactRecord): string {
  return `${ctx.artifactUrl}/a/${a.id}/${a.filename}`;
}

export function jobRecord(ctx: ViewContext, job: Job): Record<string, unknown> {
  const terminal = isTerminal(job);
  return {
    id: job.id,
    status: job.status,
    priority: job.submission.priority,
    createdAt: iso(ctx, job.createdAt),
    startedAt: iso(ctx, job.startedAt),
    completedAt: iso(ctx, job.completedAt),
    cancelRequestedAt: iso(ctx, job.cancelRequestedAt),
    errorCode: job.errorCode,
    statusReason: job.statusReason,
    simcExitCode: job.simcExitCode,
    retentionDays: ctx.retentionDays,
    metadata: job.submission.metadata,
    runtime: {
      simDurationMs: job.simDurationMs,
      totalDurationMs: terminal && job.startedAt !== null ? (job.completedAt ?? 0) - job.startedAt : null,
      creditsConsumed: job.creditsConsumed,
      priorityFeeCredits: job.priorityFeeCredits,
      creditsPerSecond: job.startedAt !== null ? CREDITS_PER_SECOND : null,
      vcpus: job.startedAt !== null ? VCPUS : null,
      ceiling: {
        maxCredits: job.submission.maxCredits,
        runtimeSeconds: job.submission.maxRuntimeSeconds,
        queueSeconds: job.submission.maxQueueSeconds,
      },
    },
    retried: job.retried,
    build: job.build ? jobBuildView(job.build, job.submission.channel) : null,
    links: links(ctx, job),
  };
}

function progress(job: Job, now: number): { percent: number | null; stage: Record<string, unknown> | null } {
  if (job.status !== 'running' || job.runningAt === null) return { percent: job.progressPercent, stage: null };
  const fraction = Math.min(0.999, Math.max(0, (now - job.runningAt) / Math.max(1, job.plan.runMs)));
  const plan = stagesOf(job);
  const total = plan.enabled ? plan.stages : 1;
  const current = Math.min(total, Math.floor(fraction * total) + 1);
  const within = fraction * total - (current - 1);
  return {
    percent: round1(fraction * 100),
    stage: {
      current,
      total,
      label: stageLabels(total)[current - 1] ?? 'final',
      percent: round1(Math.min(1, within) * 100),
    },
  };
}

function logEntries(job: Job, now: number): Array<{ source: 'stdout' | 'stderr'; message: string; ts: number }> {
  const start = job.runningAt ?? now;
  const entries: Array<{ source: 'stdout' | 'stderr'; message: string; ts: number }> = [
    { source: 'stdout', message: 'SimulationCraft starting up.', ts: start },
    { source: 'stderr', message: 'Warning: profile has no talents string; using defaults.', ts: start + 1 },
  ];
  const pct = Math.floor(Math.min(99, ((now - start) / Math.max(1, job.plan.runMs)) * 100));
  entries.push({ source: 'stdout', message: `Generating baseline: ${pct}%`, ts: now });
  return entries;
}

export function statusRecord(ctx: ViewContext, job: Job, includeLogs: boolean): Record<string, unknown> {
  const now = ctx.clock.now();
  const waiting = job.status === 'pending' || job.status === 'queued';
  return {
    status: job.status,
    errorCode: job.errorCode,
    statusReason: job.statusReason,
    simcExitCode: job.simcExitCode,
    queue: waiting
      ? {
          queuedAt: ctx.clock.iso(job.queuedAt),
          estimatedStartSeconds: Math.ceil(ctx.engine.estimatedStartMs(job) / 1000),
          estimatedStartUpdatedAt: ctx.clock.iso(now),
        }
      : null,
    progress: progress(job, now),
    logEntries: includeLogs && job.status === 'running' ? logEntries(job, now) : null,
    startedAt: iso(ctx, job.startedAt),
    updatedAt: iso(ctx, job.updatedAt),
    retried: job.retried,
  };
}

/** The job plus `result`; the caller checked it is terminal with a result. Expired artifacts are dropped. */
export function resultRecord(ctx: ViewContext, job: Job): Record<string, unknown> {
  const result = job.result;
  const artifacts = !result || ctx.engine.isExpired(job) ? [] : result.artifacts;
  return {
    ...jobRecord(ctx, job),
    result: {
      summary: result?.summary ?? null,
      artifacts: artifacts.map((a) => ({
        id: a.id,
        url: artifactUrlOf(ctx, a),
        kind: a.kind,
        mimeType: a.mimeType,
        stage: a.stage,
      })),
    },
  };
}

export function listItem(ctx: ViewContext, job: Job): Record<string, unknown> {
  return {
    id: job.id,
    status: job.status,
    createdAt: iso(ctx, job.createdAt),
    completedAt: iso(ctx, job.completedAt),
    errorCode: job.errorCode,
    metadata: job.submission.metadata,
    buildId: job.build?.id ?? null,
    links: links(ctx, job),
  };
}
