import { createReadStream, createWriteStream, existsSync, linkSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NetworkError, SimjobError, UsageError } from '../../errors.js';
import { duration } from '../../util/parse.js';
import { checkArtifactUrl, remoteUrlProblem, UnsafeArtifactUrl, type ArtifactSource } from './artifact-rules.js';
import { describeNetworkError } from './http.js';
import { cutShort, discard, request } from './transport.js';
import { nodeCrypto } from '../../util/crypto.js';

const MAX_REDIRECTS = 5;
/** Inactivity limit of a download; its total deadline is SIMJOB_DOWNLOAD_DEADLINE (default 1 h). */
const STALL_MS = 60_000;
const DEFAULT_DEADLINE_MS = 3_600_000;

export class DownloadRefused extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** An existing file in the download folder, with neither --clobber nor --skip-existing. Exit 2. */
export class FileExists extends UsageError {
  constructor(readonly path: string) {
    super(
      `${path} already exists.`,
      'Use --clobber to overwrite it, --skip-existing to keep it, or -o to choose another folder.',
    );
  }
}

export { checkArtifactUrl, remoteUrlProblem, type ArtifactSource } from './artifact-rules.js';

export interface DownloadOptions {
  userAgent: string;
  /** The rules the artifact URL must keep. */
  source: ArtifactSource;
  /** Named in errors: "json_report (stage 2, art_1)". */
  label: string;
  /** Replace an existing file at the target; otherwise FileExists. */
  overwrite: boolean;
  signal?: AbortSignal | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * Stream an artifact to a file: memory stays flat whatever the size. It is written to a hidden temporary name in
 * the same folder and moved into place only when complete, so a failure or Ctrl-C never leaves a partial file.
 * No Authorization header is ever sent: artifact URLs are public (spec §5) and the API key must not reach
 * another host.
 */
async function downloadTo(url: string, target: string, opts: DownloadOptions): Promise<void> {
  // Checked here whatever the caller checked before: downloadTo must be safe for any caller. A local artifact's
  // check finds its real path inside the job folder, and that is the file read.
  const localFile = await checkArtifactUrl(url, opts.source, opts.label);
  const partial = join(dirname(target), `.${basename(target)}.${nodeCrypto().randomBytes(4).toString('hex')}.partial`);
  try {
    const body =
      opts.source.kind === 'local'
        ? createReadStream(localFile!)
        : await followRedirects(new URL(url), opts.source.baseUrl, opts);
    // A 1 MB write buffer gathers the socket's 64 KB reads into fewer, larger writes (writev) to the file.
    await pipeline(body, createWriteStream(partial, { highWaterMark: 1 << 20 }), { signal: opts.signal });
    place(partial, target, opts.overwrite);
  } catch (error) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (error instanceof SimjobError || error instanceof DownloadRefused) throw error;
    throw failedMidway(opts.label, cutShort(error as NodeJS.ErrnoException));
  } finally {
    rmSync(partial, { force: true });
  }
}

/** A failure once the body had started to arrive: the partial file is removed (downloadTo). */
function failedMidway(label: string, error: unknown): NetworkError {
  return new NetworkError(
    `Download of ${label} failed: ${(error as Error).message}.`,
    'Nothing was kept; run the command again.',
  );
}

/** The complete file into place: replacing what is there, or (no overwrite) never, even if it appeared meanwhile. */
function place(partial: string, target: string, overwrite: boolean): void {
  if (overwrite) return renameSync(partial, target);
  try {
    linkSync(partial, target); // fails if the target exists, atomically
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new FileExists(target);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // A file system without hard links: check, then move (a small window, but no worse than gh's).
    if (existsSync(target)) throw new FileExists(target);
    renameSync(partial, target);
  }
}

/**
 * GET a remote artifact, following redirects, and return the body of its 200 as a stream. Every hop after the first
 * is held to the same rules as the artifact URL itself, so a redirect cannot lead where the URL could not; the body
 * of any other answer is thrown away unread.
 */
async function followRedirects(start: URL, baseUrl: string, opts: DownloadOptions): Promise<Readable> {
  const env = opts.env ?? process.env;
  const deadlineMs = downloadDeadline(env);
  let current = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (hop > 0) {
      const problem = remoteUrlProblem(current, baseUrl);
      const refused = problem?.replace(/^its URL is /, '');
      if (refused) throw new UnsafeArtifactUrl(opts.label, `it redirects to a URL that is refused (${refused})`);
    }
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      // No Authorization header, ever: see downloadTo.
      const headers = { 'user-agent': opts.userAgent, 'accept-encoding': 'identity' };
      const options = { method: 'GET', headers, timeoutMs: STALL_MS, deadlineMs, signal: opts.signal };
      answer = await request(current, options, env);
    } catch (error) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      const why = describeNetworkError(error, current);
      const message = `Cannot download ${opts.label} from ${current.origin}: ${why}.`;
      throw new NetworkError(message, 'Check your connection and try again.');
    }
    const { statusCode, headers, body } = answer;
    if (statusCode === 200) return body;
    await discard(body);
    const location = headers.location;
    if (statusCode >= 300 && statusCode < 400 && typeof location === 'string') {
      current = new URL(location, current);
      continue;
    }
    throw new DownloadRefused(statusCode);
  }
  throw new NetworkError(`Too many redirects downloading ${opts.label}.`);
}

function downloadDeadline(env: NodeJS.ProcessEnv): number {
  const value = env.SIMJOB_DOWNLOAD_DEADLINE;
  return value ? duration('SIMJOB_DOWNLOAD_DEADLINE')(value) : DEFAULT_DEADLINE_MS;
}

/**
 * Download an artifact from the URL in its result; when the host refuses that URL (expired signature), ask the
 * API for a fresh one (GET /v1/sim/artifacts/{id}/url) and try once more. A second refusal is thrown as
 * DownloadRefused for the caller to explain; a 410 from the API is artifact_expired, which explains itself.
 */
export async function downloadArtifact(
  artifact: { id: string; url: string },
  target: string,
  api: { artifactUrl(id: string): Promise<string> },
  opts: DownloadOptions,
): Promise<void> {
  try {
    await downloadTo(artifact.url, target, opts);
  } catch (error) {
    if (!(error instanceof DownloadRefused)) throw error;
    await downloadTo(await api.artifactUrl(artifact.id), target, opts);
  }
}
