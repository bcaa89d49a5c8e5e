/**
 * `--catalog https://…`: fetched once and kept in the cache folder with its ETag; later runs ask the server whether
 * it changed (If-None-Match) and read the kept copy on 304, or when the server cannot be reached or its TLS fails
 * (then `onCachedCopy` hears why, and the command says so: never silently). Only https (a
 * catalog decides what is simulated), no redirects, and no more bytes than an API answer may have. The request goes
 * through the same transport as the API's (proxies, deadlines, size cap).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_ANSWER_BYTES } from '../api/http.js';
import { exchange as httpExchange } from '../api/transport.js';
import { cacheDir } from '../config/paths.js';
import { NetworkError, UsageError } from '../../errors.js';
import { sha256Hex } from '../../util/sha256.js';

const TIMEOUT_MS = 30_000;

interface Cached {
  etag: string | null;
  text: string;
}

export interface FetchCatalogOptions {
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** The HTTP exchange; tests give one that answers without a network. */
  exchange?: typeof httpExchange;
  /** The copy fetched before is used because this fetch failed (`reason`: the transport's words, TLS included). */
  onCachedCopy?: (url: string, reason: string) => void;
}

export function catalogCacheFile(url: string, env: NodeJS.ProcessEnv): string {
  return join(cacheDir(env), 'catalogs', `${sha256Hex(url).slice(0, 32)}.json`);
}

export async function fetchCatalogText(spec: string, options: FetchCatalogOptions): Promise<string> {
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
  const cached = await readCached(file);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  let answer;
  try {
    answer = await (options.exchange ?? httpExchange)(
      url,
      { method: 'GET', headers, timeoutMs: TIMEOUT_MS, deadlineMs: 4 * TIMEOUT_MS, signal: options.signal },
      (status) => ({ bytes: status === 200 ? MAX_ANSWER_BYTES : 64 * 1024, truncate: status !== 200 }),
      options.env,
    );
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if ((error as { code?: string }).code === 'EBODYLIMIT') {
      throw new UsageError(
        `The catalog ${url.href} is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB; simjob stopped reading it.`,
      );
    }
    if (cached) {
      // Offline, or a TLS failure: the copy fetched before (over TLS that held) is still what the URL gave.
      options.onCachedCopy?.(url.href, (error as Error).message);
      return cached.text;
    }
    const code = String((error as { code?: string }).code ?? '');
    if (/CERT|SSL|TLS|SIGNATURE/.test(code)) {
      throw new NetworkError(
        `Cannot fetch the catalog ${url.href}: its TLS failed (${(error as Error).message}).`,
        'The server is not who it says, or its certificate is not trusted here: check the URL; behind a proxy ' +
          'that inspects TLS, give its CA with NODE_EXTRA_CA_CERTS. Or download the catalog and pass the file.',
      );
    }
    throw new NetworkError(
      `Cannot fetch the catalog ${url.href}: ${(error as Error).message}.`,
      'Check the URL and the network, or pass a file.',
    );
  }
  if (answer.statusCode === 304 && cached) return cached.text;
  if (answer.statusCode !== 200) {
    throw new NetworkError(`The catalog ${url.href} answered ${answer.statusCode}.`, 'Check the URL.');
  }
  const etag = answer.headers.etag;
  writeCached(file, { etag: typeof etag === 'string' ? etag : null, text: answer.text });
  return answer.text;
}

async function readCached(file: string): Promise<Cached | undefined> {
  try {
    // Its own record, read as any file is: a regular file, never more than a catalog (JSON-escaped) can be.
    const { CAPS, readUserFile } = await import('../../util/read-file.js');
    const cap = { bytes: 2 * CAPS.catalog.bytes, why: CAPS.catalog.why };
    const data = JSON.parse((await readUserFile(file, 'Cache', { missing: '' }, cap)).toString('utf8')) as Cached;
    return typeof data.text === 'string' ? data : undefined;
  } catch {
    return undefined; // no copy, or one that cannot be read: fetched again
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
