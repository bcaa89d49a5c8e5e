/**
 * The spec's records (service-interface §2.2–2.4, notes §2.5, §2.7, §8) built from a local job, so `--json`
 * output and scripts read the same shapes from a local job as from the service. Local differences, all honest:
 * no credits (0 once terminal), no retention (null: kept until you delete the folder), no queue ETA (null),
 * `links.share` is the job folder, artifact URLs are file: URLs, and ceilings are null unless you set one.
 */
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { StatusRecord, Summary } from '../resources/schemas.js';
import { stageJsonFile } from '../../domain/multistage/files.js';
import { isActive, isTerminal } from '../jobs/states.js';
import { ARTIFACT_FILES, type ArtifactKind, type LocalJob, type LocalProgress, type LocalStore } from './store.js';

/**
 * Artifact ids name their job and kind, so artifactUrl() finds the file without an index: `<job>.<kind>`, or
 * `<job>.json_report.<stage>` for the JSON report of a non-final stage of a staged run.
 */
export function parseArtifactId(id: string): { jobId: string; kind: ArtifactKind; file: string } | undefined {
  const staged = /^(.+)\.json_report\.([1-9]\d*)$/.exec(id);
  if (staged) return { jobId: staged[1] as string, kind: 'json_report', file: stageJsonFile(Number(staged[2])) };
  const dot = id.lastIndexOf('.');
  if (dot < 0) return undefined;
  const kind = id.slice(dot + 1);
  if (!(kind in ARTIFACT_FILES)) return undefined;
  return { jobId: id.slice(0, dot), kind: kind as ArtifactKind, file: ARTIFACT_FILES[kind as ArtifactKind].file };
}

function links(store: LocalStore, job: LocalJob) {
  return { share: pathToFileURL(store.jobDir(job.id)).href };
}

function buildSummary(job: LocalJob) {
  const b = job.build;
  if (!b) return null;
  return { id: b.id, channel: b.channel, commit: b.commit, ci: null, simcVersion: b.simcVersion, path: b.path };
}

export function submitResponse(store: LocalStore, job: LocalJob) {
  return {
    success: true,
    id: job.id,
    runtime: {
      ceiling: { maxCredits: null, runtimeSeconds: job.maxRuntimeSeconds, queueSeconds: job.maxQueueSeconds },
      priorityFeeCredits: 0,
    },
    links: links(store, job),
  };
}

export function jobRecord(store: LocalStore, job: LocalJob) {
  const terminal = isTerminal(job.status);
  return {
    id: job.id,
    status: job.status,
    priority: job.priority,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    completedAt: job.completedAt,
    cancelRequestedAt: job.cancelRequestedAt,
    errorCode: job.errorCode,
    statusReason: job.statusReason,
    simcExitCode: job.simcExitCode,
    retentionDays: null,
    metadata: job.metadata,
    runtime: {
      simDurationMs: job.simDurationMs,
      totalDurationMs: job.totalDurationMs,
      creditsConsumed: terminal ? 0 : null,
      priorityFeeCredits: 0,
      // openapi 1.19.1 fields: local runs are not metered and have no credit budget
      creditsPerSecond: job.startedAt ? 0 : null,
      vcpus: job.startedAt ? availableParallelism() : null,
      ceiling: { maxCredits: null, runtimeSeconds: job.maxRuntimeSeconds, queueSeconds: job.maxQueueSeconds },
    },
    retried: job.retried,
    build: buildSummary(job),
    links: links(store, job),
  };
}

export function statusRecord(job: LocalJob, progress: LocalProgress | undefined): StatusRecord {
  const running = isActive(job.status);
  let progressBlock: StatusRecord['progress'] = null;
  if (running) {
    const percent = progress?.percent ?? 0;
    // A staged job's stage is known once its runner has written it; until then, none rather than a made-up one.
    const single = { current: 1, total: 1, label: 'initial', percent };
    progressBlock = { percent, stage: progress?.stage ?? (job.multiStageSummary?.enabled ? null : single) };
  } else if (job.status === 'completed') {
    progressBlock = { percent: 100, stage: null };
  } else if (isTerminal(job.status) && job.startedAt && progress?.percent !== undefined && progress.percent !== null) {
    progressBlock = { percent: progress.percent, stage: null };
  }
  return {
    status: job.status,
    errorCode: job.errorCode,
    statusReason: job.statusReason,
    simcExitCode: job.simcExitCode,
    queue: { queuedAt: job.queuedAt, estimatedStartSeconds: null, estimatedStartUpdatedAt: null },
    progress: progressBlock,
    logEntries: null,
    startedAt: job.startedAt,
    updatedAt: progress && running && progress.updatedAt > job.updatedAt ? progress.updatedAt : job.updatedAt,
    retried: job.retried,
  };
}

export function listItem(store: LocalStore, job: LocalJob) {
  return {
    id: job.id,
    status: job.status,
    createdAt: job.createdAt,
    completedAt: job.completedAt,
    errorCode: job.errorCode,
    metadata: job.metadata,
    buildId: job.build?.id ?? null,
    links: links(store, job),
  };
}

/** Staged runs (summary.multiStage.enabled): a JSON report per stage, the final one's and the HTML carry its stage. */
export function artifactList(store: LocalStore, job: LocalJob, kinds: ArtifactKind[], summary?: Summary | null) {
  const finalStage = summary?.multiStage?.enabled ? (summary.multiStage.stages?.length ?? 0) : 0;
  return kinds.flatMap((kind) => {
    const own = {
      id: `${job.id}.${kind}`,
      url: pathToFileURL(store.file(job.id, ARTIFACT_FILES[kind].file)).href,
      kind,
      mimeType: ARTIFACT_FILES[kind].mimeType,
      stage: finalStage > 0 && (kind === 'json_report' || kind === 'html_report') ? finalStage : null,
    };
    if (kind !== 'json_report' || finalStage < 2) return [own];
    const earlier = Array.from({ length: finalStage - 1 }, (_, i) => ({
      ...own,
      id: `${own.id}.${i + 1}`,
      url: pathToFileURL(store.file(job.id, stageJsonFile(i + 1))).href,
      stage: i + 1,
    }));
    return [...earlier, own];
  });
}
