import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DownloadRefused, downloadArtifact } from '../../api/download.js';
import type { Artifact } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { JobBackend } from '../../jobs/backend.js';
import { printTable } from '../../output/table.js';
import { userAgent } from '../../version.js';
import { checkJobId } from '../ids.js';

export interface ArtifactsOptions {
  download?: boolean;
  kind: string[];
  dir?: string;
}

export async function run(ctx: Context, [rawId]: string[], options: ArtifactsOptions): Promise<void> {
  const id = checkJobId(rawId);
  const backend = await ctx.backendFor(id);
  const result = await backend.result(id);
  const all = result.data.result.artifacts ?? [];
  const chosen = options.kind.length ? all.filter((a) => options.kind.includes(a.kind)) : all;
  if (options.kind.length && chosen.length === 0) {
    throw new UsageError(
      `Job ${id} has no artifact of kind ${options.kind.join(', ')}.`,
      all.length ? `Its kinds: ${[...new Set(all.map((a) => a.kind))].join(', ')}.` : 'It has no artifacts (they may have expired).',
    );
  }

  if (!options.download) {
    if (ctx.out.json) return ctx.out.printJson(options.kind.length ? chosen : (result.raw as { result?: { artifacts?: unknown } }).result?.artifacts ?? []);
    if (chosen.length === 0) {
      ctx.out.notice(`Job ${id} has no artifacts${result.data.retentionDays ? ` (kept ${result.data.retentionDays} days after completion)` : ''}.`);
      return;
    }
    printTable(ctx.out, chosen, [
      { header: 'Kind', value: (a) => a.kind },
      { header: 'Stage', value: (a) => (a.stage ? String(a.stage) : '') },
      { header: 'Type', value: (a) => a.mimeType ?? '' },
      { header: 'ID', value: (a) => a.id },
      { header: 'URL', value: (a) => a.url, shrinkable: true },
    ]);
    return;
  }

  if (chosen.length === 0) throw new UsageError(`Job ${id} has no artifacts to download (they may have expired).`);
  const dir = resolve(options.dir ?? id);
  await mkdir(dir, { recursive: true });
  const saved: Array<{ kind: string; stage: number | null; path: string; bytes: number }> = [];
  for (const artifact of chosen) {
    const path = join(dir, fileName(artifact));
    await saveArtifact(ctx, backend, artifact, path);
    const bytes = (await stat(path)).size;
    saved.push({ kind: artifact.kind, stage: artifact.stage ?? null, path, bytes });
    if (!ctx.out.json) ctx.out.notice(`Saved ${artifact.kind}${artifact.stage ? ` (stage ${artifact.stage})` : ''} → ${path} (${bytes.toLocaleString('en-US')} bytes)`);
  }
  if (ctx.out.json) ctx.out.printJson(saved);
}

/** The artifact to `path`, with a fresh URL if the first is refused (api/download.ts). */
async function saveArtifact(ctx: Context, backend: JobBackend, artifact: Artifact, path: string): Promise<void> {
  try {
    await downloadArtifact(artifact, path, backend, { userAgent: userAgent(), signal: ctx.signal, env: ctx.env });
  } catch (error) {
    if (error instanceof DownloadRefused) {
      throw new UsageError(`The artifact host refused ${artifact.kind} of this job (HTTP ${error.status}), even with a fresh URL.`, 'It may have expired; re-run the sim to produce it again.');
    }
    throw error;
  }
}

const EXTENSIONS: Record<string, string> = {
  'application/json': 'json',
  'text/html': 'html',
  'text/csv': 'csv',
  'text/plain': 'txt',
};

/** `json_report.json`, `html_report-stage3.html`, `input.simc`, `stdout_log.txt`. */
function fileName(artifact: Artifact): string {
  const stage = artifact.stage ? `-stage${artifact.stage}` : '';
  const ext = artifact.kind === 'input' ? 'simc' : EXTENSIONS[artifact.mimeType ?? ''] ?? 'bin';
  const safeKind = artifact.kind.replace(/[^A-Za-z0-9_.-]/g, '_');
  return `${safeKind}${stage}.${ext}`;
}
