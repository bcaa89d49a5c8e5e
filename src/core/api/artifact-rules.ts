/**
 * The rules an artifact URL must keep before simjob reads or fetches it (issue 11): light on purpose (no network
 * modules), so a local job's report can be checked and read where it lies without loading the downloader.
 */
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExitCode, SimjobError } from '../../errors.js';

/**
 * Where a job's artifacts may come from. A remote job's from `https:` URLs (or `http:` on a loopback host when the
 * base URL is itself `http:` on loopback, for a service on this machine); a local job's from `file:` URLs inside
 * its own job folder, symlinks resolved. Nothing else is ever read.
 */
export type ArtifactSource = { kind: 'remote'; baseUrl: string } | { kind: 'local'; jobDir: string };

/** An artifact URL that breaks the rules above. Exit 1: the server (or a changed job folder) is at fault. */
export class UnsafeArtifactUrl extends SimjobError {
  constructor(label: string, why: string) {
    super(
      `Refusing to download ${label}: ${why}.`,
      ExitCode.ERROR,
      'Nothing was written. The job record lists an artifact URL simjob will not follow; report it to the service operator.',
    );
  }
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Why a remote artifact URL is refused, or undefined when it may be fetched. */
export function remoteUrlProblem(url: URL, baseUrl: string): string | undefined {
  if (url.protocol === 'https:') return undefined;
  const base = new URL(baseUrl);
  if (url.protocol === 'http:') {
    if (base.protocol === 'http:' && isLoopback(base.hostname) && isLoopback(url.hostname)) return undefined;
    return `its URL is plain http: to ${url.hostname}, and a remote job's artifacts are fetched over https: only`;
  }
  return `its URL is a ${url.protocol} URL, and a remote job's artifacts are fetched over https: only`;
}

/** The real path of a local artifact, or an UnsafeArtifactUrl when it is not a file inside the job folder. */
export async function localArtifactPath(link: string | URL, jobDir: string, label: string): Promise<string> {
  const url = typeof link === 'string' ? parseArtifactUrl(link, label) : link;
  if (url.protocol !== 'file:')
    throw new UnsafeArtifactUrl(
      label,
      `its URL is a ${url.protocol} URL, and a local job's artifacts are files in its job folder`,
    );
  let real: string;
  let folder: string;
  try {
    real = realpathSync.native(fileURLToPath(url));
    folder = realpathSync.native(jobDir);
  } catch (error) {
    throw new SimjobError(
      `Cannot read ${label}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file is gone' : (error as Error).message}.`,
      ExitCode.ERROR,
      'The job folder may have been cleaned up.',
    );
  }
  if (!real.startsWith(folder + sep)) throw new UnsafeArtifactUrl(label, 'its file lies outside the job folder');
  return real;
}

/**
 * Check an artifact URL against the rules without fetching it, so a bad one is refused before anything is written.
 * A local artifact is checked by finding its real path: that is returned, as the file to read.
 */
export async function checkArtifactUrl(
  url: string,
  source: ArtifactSource,
  label: string,
): Promise<string | undefined> {
  const parsed = parseArtifactUrl(url, label);
  if (source.kind === 'local') return localArtifactPath(parsed, source.jobDir, label);
  const problem = remoteUrlProblem(parsed, source.baseUrl);
  if (problem) throw new UnsafeArtifactUrl(label, problem);
  return undefined;
}

function parseArtifactUrl(url: string, label: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new UnsafeArtifactUrl(label, 'its URL is not a valid URL');
  }
}
