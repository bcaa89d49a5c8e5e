import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { localArtifactPath, type ArtifactSource } from '../api/artifact-rules.js';
import type { Artifact, ResultRecord } from '../resources/schemas.js';
import { ExitCode, SimjobError } from '../../errors.js';
import type { JobBackend } from './backend.js';
import { userAgent } from '../../version.js';
import {
  parseProfilesetList,
  PROFILESET_LIST_FILE,
  ProfilesetMerger,
  profilesetsFromReport,
  type RankedProfileset,
} from '../../domain/report/profileset-list.js';

export interface DownloadOptions {
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/**
 * Every profileset of a finished job, read from its JSON report artifact(s), ranked by mean. The artifact is fetched
 * from its public URL (never with the API key); a refused URL is re-issued through the API once. A multistage job has
 * one report per stage: a profileset's figures come from the last stage it reached, and `stage` says which.
 */
export async function readAllProfilesets(
  backend: JobBackend,
  record: ResultRecord,
  options: DownloadOptions = {},
): Promise<RankedProfileset[]> {
  const reports = (record.result.artifacts ?? [])
    .filter((a) => a.kind === 'json_report')
    .sort((a, b) => (a.stage ?? 0) - (b.stage ?? 0));
  if (reports.length === 0) {
    throw new SimjobError(
      `Job ${record.id} has no JSON report artifact, so --all cannot list every profileset.`,
      ExitCode.ERROR,
      record.status === 'completed'
        ? `Artifacts are kept ${record.retentionDays ?? 'a limited number of'} days after the job ends; without --all the summary's top ${record.result.summary?.mainActor?.profilesets?.results.length ?? 200} is shown.`
        : 'Only a completed job has a report.',
    );
  }
  const source = backend.artifactSource(record.id);
  if (source.kind === 'local') {
    const listed = await readProfilesetList(source.jobDir);
    if (listed) return listed;
  }
  const metric = record.result.summary?.metric;
  const merged = new ProfilesetMerger();
  let dir: string | undefined; // made only for reports that must be downloaded
  try {
    for (const artifact of reports) {
      const label = `the JSON report (${artifact.stage ? `stage ${artifact.stage}, ` : ''}${artifact.id})`;
      const path =
        source.kind === 'local'
          ? await localArtifactPath(artifact.url, source.jobDir, label) // read where it lies, not copied: so checked here, not by downloadTo
          : await download(
              backend,
              artifact,
              join((dir ??= await mkdtemp(join(tmpdir(), 'simjob-report-'))), `${artifact.id}.json`),
              { ...options, source, label },
            );
      merged.add(profilesetsFromReport(await parseJson(artifact, path), metric), artifact.stage ?? 1);
    }
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
  return merged.ranked();
}

/**
 * One JSON report artifact of a finished job, parsed: read where it lies for a local job, downloaded to a temporary
 * file (removed after) for a remote one. Used by `statweights`, whose scale factors are only in the report.
 */
export async function readReportArtifact(
  backend: JobBackend,
  record: ResultRecord,
  artifact: Artifact,
  options: DownloadOptions = {},
): Promise<unknown> {
  const source = backend.artifactSource(record.id);
  const label = `the JSON report (${artifact.stage ? `stage ${artifact.stage}, ` : ''}${artifact.id})`;
  if (source.kind === 'local') return parseJson(artifact, await localArtifactPath(artifact.url, source.jobDir, label));
  const dir = await mkdtemp(join(tmpdir(), 'simjob-report-'));
  try {
    const path = await download(backend, artifact, join(dir, `${artifact.id}.json`), { ...options, source, label });
    return await parseJson(artifact, path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The compact list a local job wrote when it ended (profileset-list.ts), read only inside its job folder (symlinks
 * resolved); undefined when there is none (a job made before it existed) or it is unreadable: the reports are read.
 */
async function readProfilesetList(jobDir: string): Promise<RankedProfileset[] | undefined> {
  try {
    const path = await localArtifactPath(
      pathToFileURL(join(jobDir, PROFILESET_LIST_FILE)),
      jobDir,
      'the profileset list',
    );
    return parseProfilesetList(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

async function download(
  backend: JobBackend,
  artifact: Artifact,
  path: string,
  options: DownloadOptions & { source: ArtifactSource; label: string },
): Promise<string> {
  // Loaded only for a remote report: it brings the HTTP client (node:http).
  const { DownloadRefused, downloadArtifact } = await import('../api/download.js');
  try {
    await downloadArtifact(artifact, path, backend, {
      userAgent: userAgent(),
      source: options.source,
      label: options.label,
      overwrite: true,
      signal: options.signal,
      env: options.env,
    });
    return path;
  } catch (error) {
    if (error instanceof DownloadRefused) {
      throw new SimjobError(
        `The artifact host refused the JSON report (artifact ${artifact.id}, HTTP ${error.status}), even with a fresh URL.`,
        ExitCode.ERROR,
        'It may have expired; without --all the summary is shown.',
      );
    }
    throw error;
  }
}

async function parseJson(artifact: Artifact, path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    throw new SimjobError(
      `The JSON report (${artifact.kind}${artifact.stage ? `, stage ${artifact.stage}` : ''}) is not valid JSON: ${(error as Error).message}.`,
      ExitCode.ERROR,
    );
  }
}
