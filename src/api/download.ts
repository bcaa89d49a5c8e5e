import { createWriteStream } from 'node:fs';
import { copyFile, rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { NetworkError } from '../errors.js';
import { discard, request, type HttpResponse } from './transport.js';

const MAX_REDIRECTS = 5;

export class DownloadRefused extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/**
 * Stream a public artifact URL to a file: memory stays flat whatever the size, and a failed download leaves no
 * partial file (it is written beside the target and renamed at the end). No Authorization header is ever sent:
 * artifact URLs are public (spec §5), and the API key must never reach another host. `file:` URLs (local jobs)
 * are copied.
 */
export interface DownloadOptions {
  userAgent: string;
  signal?: AbortSignal | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

export async function downloadTo(url: string, target: string, opts: DownloadOptions): Promise<void> {
  const partial = `${target}.partial`;
  let current = new URL(url);
  if (current.protocol === 'file:') {
    await copyFile(fileURLToPath(current), partial);
    await rename(partial, target);
    return;
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (current.protocol !== 'https:' && current.protocol !== 'http:') {
      throw new NetworkError(`Refusing to download an artifact from a ${current.protocol} URL.`);
    }
    let response: HttpResponse;
    try {
      response = await request(current, { method: 'GET', headers: { 'user-agent': opts.userAgent }, timeoutMs: 60_000, signal: opts.signal }, opts.env);
    } catch (error) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      throw new NetworkError(`Cannot download ${current.origin}${current.pathname}: ${(error as Error).message}.`, 'Check your connection and try again.');
    }
    const { statusCode, headers, body } = response;
    if (statusCode >= 300 && statusCode < 400 && headers.location) {
      await discard(body);
      current = new URL(String(headers.location), current);
      continue;
    }
    if (statusCode !== 200) {
      await discard(body);
      throw new DownloadRefused(statusCode);
    }
    try {
      await pipeline(body, createWriteStream(partial));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      if (opts.signal?.aborted) throw opts.signal.reason;
      throw new NetworkError(`Download of ${target} failed: ${(error as Error).message}.`, 'Run the command again.');
    }
    return;
  }
  throw new NetworkError(`Too many redirects downloading ${url}.`);
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
