/**
 * `--catalog https://…`: fetched once and kept in the cache folder with its ETag; later runs ask the server whether
 * it changed (If-None-Match) and read the kept copy on 304, or when the server cannot be reached. Only https (a
 * catalog decides what is simulated), no redirects, and no more bytes than an API answer may have.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { MAX_ANSWER_BYTES } from '../api/http.js';
import { cacheDir } from '../config/paths.js';
import { NetworkError, UsageError } from '../errors.js';
import { sha256Hex } from '../util/sha256.js';

const TIMEOUT_MS = 30_000;

interface Cached {
  etag: string | null;
  text: string;
}

export function catalogCacheFile(url: string, env: NodeJS.ProcessEnv): string {
  return join(cacheDir(env), 'catalogs', `${sha256Hex(url).slice(0, 32)}.json`);
}

export async function fetchCatalogText(
  spec: string,
  options: { env: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<string> {
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    throw new UsageError(`--catalog ${spec} is not a valid URL.`);
  }
  if (url.protocol !== 'https:')
    throw new UsageError(
      `--catalog ${spec}: only https URLs are fetched.`,
      'Use an https:// URL, or download the file and pass its path.',
    );
  const file = catalogCacheFile(url.href, options.env);
  const cached = readCached(file);
  let answer;
  try {
    answer = await request(url, {
      method: 'GET',
      headers: cached?.etag
        ? { 'if-none-match': cached.etag, accept: 'application/json' }
        : { accept: 'application/json' },
      signal: options.signal
        ? AbortSignal.any([options.signal, AbortSignal.timeout(TIMEOUT_MS)])
        : AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    if (cached) return cached.text; // offline: the copy fetched before
    throw new NetworkError(
      `Cannot fetch the catalog ${url.href}: ${(error as Error).message}.`,
      'Check the URL and the network, or pass a file.',
    );
  }
  if (answer.statusCode === 304 && cached) {
    await answer.body.dump();
    return cached.text;
  }
  if (answer.statusCode !== 200) {
    await answer.body.dump();
    throw new NetworkError(`The catalog ${url.href} answered ${answer.statusCode}.`, 'Check the URL.');
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of answer.body) {
    bytes += (chunk as Buffer).length;
    if (bytes > MAX_ANSWER_BYTES) {
      answer.body.destroy();
      throw new UsageError(
        `The catalog ${url.href} is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB; simjob stopped reading it.`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const etag = answer.headers.etag;
  writeCached(file, { etag: typeof etag === 'string' ? etag : null, text });
  return text;
}

function readCached(file: string): Cached | undefined {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Cached;
    return typeof data.text === 'string' ? data : undefined;
  } catch {
    return undefined;
  }
}

function writeCached(file: string, entry: Cached): void {
  try {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(entry));
  } catch {
    // A cache that cannot be written only costs a download next time.
  }
}
