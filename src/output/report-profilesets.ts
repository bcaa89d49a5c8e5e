import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localArtifactPath, type ArtifactSource } from '../api/artifact-rules.js';
import type { Artifact, ResultRecord } from '../api/schemas.js';
import { ExitCode, SimjobError } from '../errors.js';
import type { JobBackend } from '../jobs/backend.js';
import { userAgent } from '../version.js';
import { rankByMean } from './stats.js';

/** One profileset as the views rank it: the summary's entries and the JSON report's alike. */
export interface RankedProfileset {
  name: string;
  mean: number;
  mean_error?: number | null;
  mean_stddev?: number | null;
  /** Highest multistage stage reached (1 for single pass). */
  stage?: number | null;
}

const Z95 = 1.96;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * Every profileset of a simc JSON report (`sim.profilesets.results`). Two shapes (shared/simc/contract.md §4.5, §4.7):
 *   json2 (2.0.0): `{name, mean, mean_stddev, mean_error, ...}` per entry; sets whose mean is 0 are left out;
 *   3.0.0-alpha1:  `{name, metrics: [{metric, mean, mean_stddev, mean_error, ...}], ...}`, primary metric first.
 * Either way the entries are in input order (not ranked) and the baseline is not among them. `mean_error` is
 * recomputed from `mean_stddev` when absent, with the report's own confidence estimator.
 */
export function profilesetsFromReport(doc: unknown, metric?: string | null): RankedProfileset[] {
  const sim = isObject(doc) && isObject(doc.sim) ? doc.sim : undefined;
  const sets = sim && isObject(sim.profilesets) ? sim.profilesets : undefined;
  if (!sets || !Array.isArray(sets.results)) return [];
  const options = isObject(sim?.options) ? sim.options : {};
  const z = num(options.confidence_estimator) ?? Z95;
  const out: RankedProfileset[] = [];
  for (const entry of sets.results) {
    if (!isObject(entry) || typeof entry.name !== 'string') continue;
    let figures: Json = entry;
    if (Array.isArray(entry.metrics)) {
      const metrics = entry.metrics.filter(isObject);
      figures = metrics.find((m) => metric && typeof m.metric === 'string' && m.metric.toLowerCase() === metric.toLowerCase()) ?? metrics[0] ?? {};
    }
    const mean = num(figures.mean);
    if (mean === undefined) continue;
    const stddev = num(figures.mean_stddev);
    out.push({ name: entry.name, mean, mean_stddev: stddev, mean_error: num(figures.mean_error) ?? (stddev === undefined ? undefined : stddev * z) });
  }
  return out;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/**
 * Every profileset of a finished job, read from its JSON report artifact(s), ranked by mean. The artifact is fetched
 * from its public URL (never with the API key); a refused URL is re-issued through the API once. A multistage job has
 * one report per stage: a profileset's figures come from the last stage it reached, and `stage` says which.
 */
export async function readAllProfilesets(backend: JobBackend, record: ResultRecord, options: DownloadOptions = {}): Promise<RankedProfileset[]> {
  const reports = (record.result.artifacts ?? []).filter((a) => a.kind === 'json_report').sort((a, b) => (a.stage ?? 0) - (b.stage ?? 0));
  if (reports.length === 0) {
    throw new SimjobError(
      `Job ${record.id} has no JSON report artifact, so --all cannot list every profileset.`,
      ExitCode.ERROR,
      record.status === 'completed' ? `Artifacts are kept ${record.retentionDays ?? 'a limited number of'} days after the job ends; without --all the summary's top ${record.result.summary?.mainActor?.profilesets?.results.length ?? 200} is shown.` : 'Only a completed job has a report.',
    );
  }
  const metric = record.result.summary?.metric;
  const byName = new Map<string, RankedProfileset>();
  let dir: string | undefined; // made only for reports that must be downloaded
  const source = backend.artifactSource(record.id);
  try {
    for (const artifact of reports) {
      const label = `the JSON report (${artifact.stage ? `stage ${artifact.stage}, ` : ''}${artifact.id})`;
      const path = source.kind === 'local'
        ? await localArtifactPath(artifact.url, source.jobDir, label) // read where it lies, inside the job folder only
        : await download(backend, artifact, join((dir ??= await mkdtemp(join(tmpdir(), 'simjob-report-'))), `${artifact.id}.json`), { ...options, source, label });
      for (const row of profilesetsFromReport(await parseJson(artifact, path), metric)) byName.set(row.name, { ...row, stage: artifact.stage ?? 1 });
    }
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
  return rankByMean([...byName.values()]);
}

async function download(backend: JobBackend, artifact: Artifact, path: string, options: DownloadOptions & { source: ArtifactSource; label: string }): Promise<string> {
  // Loaded only for a remote report: it brings node:http, which on Node 24 loads Node's bundled undici (~10 ms).
  const { DownloadRefused, downloadArtifact } = await import('../api/download.js');
  try {
    await downloadArtifact(artifact, path, backend, { userAgent: userAgent(), source: options.source, label: options.label, overwrite: true, signal: options.signal, env: options.env });
    return path;
  } catch (error) {
    if (error instanceof DownloadRefused) {
      throw new SimjobError(`The artifact host refused the JSON report (artifact ${artifact.id}, HTTP ${error.status}), even with a fresh URL.`, ExitCode.ERROR, 'It may have expired; without --all the summary is shown.');
    }
    throw error;
  }
}

async function parseJson(artifact: Artifact, path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    throw new SimjobError(`The JSON report (${artifact.kind}${artifact.stage ? `, stage ${artifact.stage}` : ''}) is not valid JSON: ${(error as Error).message}.`, ExitCode.ERROR);
  }
}
