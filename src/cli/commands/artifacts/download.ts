/** `artifacts --download`: file names, the existing-file rule, and the downloads themselves (api/download.ts). */
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkArtifactUrl,
  DownloadRefused,
  downloadArtifact,
  FileExists,
  type DownloadOptions,
} from '../../../core/api/download.js';
import type { Artifact } from '../../../core/resources/schemas.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../errors.js';
import type { JobBackend } from '../../../core/jobs/backend.js';
import { formatNumber } from '../../../util/format.js';
import { errnoCode } from '../../../util/errno.js';
import { userAgent } from '../../../version.js';

export interface DownloadChoices {
  dir: string;
  clobber: boolean;
  skipExisting: boolean;
}

/**
 * Save the chosen artifacts of a job into `dir`, each under its own name. Every rule is checked before anything is
 * written: an unsafe URL or (without --clobber / --skip-existing) a file in the way stops the whole command.
 */
export async function downloadAll(
  ctx: Context,
  backend: JobBackend,
  id: string,
  chosen: Artifact[],
  options: DownloadChoices,
): Promise<void> {
  const { dir } = options;
  const source = backend.artifactSource(id);
  const planned = withFileNames(chosen).map(({ artifact, name }) => ({
    artifact,
    path: join(dir, name),
    label: labelOf(artifact),
  }));
  // All up front, so one bad URL stops the batch before any file is written (downloadTo checks each again, for any caller).
  for (const p of planned) await checkArtifactUrl(p.artifact.url, source, p.label);
  if (!options.clobber && !options.skipExisting) {
    for (const p of planned) if (exists(p.path)) throw new FileExists(p.path);
  }
  makeFolder(dir);
  const saved: Array<{ kind: string; stage: number | null; path: string; bytes: number; skipped: boolean }> = [];
  for (const { artifact, path, label } of planned) {
    const stage = artifact.stage ?? null;
    if (options.skipExisting && exists(path)) {
      saved.push({ kind: artifact.kind, stage, path, bytes: statSync(path).size, skipped: true });
      if (!ctx.out.json) ctx.out.notice(`Skipped ${label}: ${path} already exists.`);
      continue;
    }
    await saveArtifact(backend, artifact, path, {
      userAgent: userAgent(),
      source,
      label,
      overwrite: options.clobber,
      signal: ctx.signal,
      env: ctx.env,
    });
    const bytes = statSync(path).size;
    saved.push({ kind: artifact.kind, stage, path, bytes, skipped: false });
    // formatNumber, not toLocaleString: Intl's first use reads in ICU's data, which adds to the peak RSS.
    if (!ctx.out.json) ctx.out.notice(`Saved ${label} → ${path} (${formatNumber(bytes)} bytes)`);
  }
  if (ctx.out.json) ctx.out.printJson(saved);
}

/** The download folder, made if missing; a path in the way is the user's to fix (exit 2), not a failure of simjob. */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new UsageError(
        `--dir ${dir} is a file, not a folder.`,
        'Give a folder to download into (made if missing).',
      );
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new UsageError(`Cannot make the folder ${dir} (${code}).`, 'Choose a folder you can write to with --dir.');
    throw error;
  }
}

/** The artifact to `path`, with a fresh URL if the first is refused (api/download.ts). */
async function saveArtifact(
  backend: JobBackend,
  artifact: Artifact,
  path: string,
  opts: DownloadOptions,
): Promise<void> {
  try {
    await downloadArtifact(artifact, path, backend, opts);
  } catch (error) {
    if (error instanceof DownloadRefused) {
      throw new UsageError(
        `The artifact host refused ${opts.label} of this job (HTTP ${error.status}), even with a fresh URL.`,
        'It may have expired; re-run the sim to produce it again.',
      );
    }
    throw error;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** "json_report (stage 2, art_…)": how errors and notices name an artifact. */
function labelOf(artifact: Artifact): string {
  return `${artifact.kind} (${artifact.stage ? `stage ${artifact.stage}, ` : ''}${artifact.id})`;
}

const EXTENSIONS: Record<string, string> = {
  'application/json': 'json',
  'text/html': 'html',
  'text/csv': 'csv',
  'text/plain': 'txt',
};

/**
 * A distinct file name per artifact: the first of a kind and stage gets the plain name, any later one with the
 * same name (ignoring case, for case-insensitive file systems) adds its artifact id.
 */
function withFileNames(artifacts: Artifact[]): Array<{ artifact: Artifact; name: string }> {
  const taken = new Set<string>();
  return artifacts.map((artifact) => {
    let name = fileName(artifact);
    if (taken.has(name.toLowerCase()))
      name = fileName(artifact, `-${artifact.id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80)}`);
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = fileName(artifact, `-${n}`);
    taken.add(name.toLowerCase());
    return { artifact, name };
  });
}

/** `json_report.json`, `html_report-stage3.html`, `input.simc`, `stdout_log.txt`. */
function fileName(artifact: Artifact, suffix = ''): string {
  const stage = artifact.stage ? `-stage${artifact.stage}` : '';
  const ext = artifact.kind === 'input' ? 'simc' : (EXTENSIONS[artifact.mimeType ?? ''] ?? 'bin');
  const safeKind = artifact.kind.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `${safeKind}${stage}${suffix}.${ext}`;
}
