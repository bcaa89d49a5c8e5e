/**
 * The wire under the HTTP layer. Without a proxy, API requests go over direct.ts (HTTP/1.1 by hand over net/tls);
 * through a proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY) they go through undici's EnvHttpProxyAgent, loaded only then.
 *
 * Why not undici for everything: on these machines one request through undici (the package, or Node's own fetch,
 * which is undici inside) costs ~150 ms of CPU per process — its llhttp WebAssembly parser is tiered up on
 * background threads and the process waits for that at exit — against a few ms for a request over node:net
 * (measured with `/usr/bin/time` against `node -e 0`; see bench/startup.ts). A CLI that runs once per command cannot
 * pay that.
 */
import type { Readable } from 'node:stream';
import { onCloseConnections } from './connections.js';
import { closeAll as closeDirect, exchange as direct } from './direct.js';
import { describeMs, TransportError, type BodyLimit, type HttpRequestOptions, type HttpResponse, type TextAnswer } from './wire.js';

export { TransportError, type BodyLimit, type HttpRequestOptions, type HttpResponse, type TextAnswer } from './wire.js';

let proxied: ((url: URL, options: HttpRequestOptions) => Promise<HttpResponse>) | undefined;
let closeProxy: (() => Promise<void>) | undefined;

export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}

/** One request and its whole answer as text, its body read no further than `limit` allows. */
export async function exchange(url: URL, options: HttpRequestOptions, limit: BodyLimit, env: NodeJS.ProcessEnv = process.env): Promise<TextAnswer> {
  register();
  if (!proxyConfigured(env)) return direct(url, options, limit);
  const response = await request(url, options);
  const { bytes, truncate } = limit(response.statusCode);
  return { statusCode: response.statusCode, headers: response.headers, text: await readText(response, bytes, truncate) };
}

/** One request through undici (a proxy's, when one is configured), its body a stream, bounded by the deadline. */
export async function request(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  if (options.deadlineMs === undefined) return viaProxy(url, options);
  // The total deadline: aborts the request while it waits for headers, destroys the body once it streams.
  const deadline = new TransportError(`no complete answer within ${describeMs(options.deadlineMs)}`, 'EDEADLINE');
  const abort = new AbortController();
  let body: Readable | undefined;
  const timer = setTimeout(() => (body ? body.destroy(deadline) : abort.abort(deadline)), options.deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
  try {
    const response = await viaProxy(url, { ...options, signal });
    body = response.body;
    body.once('close', () => clearTimeout(timer));
    return response;
  } catch (error) {
    clearTimeout(timer);
    throw abort.signal.aborted ? deadline : error;
  }
}

async function viaProxy(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  if (!proxied) {
    const viaUndici = await import('./transport-proxy.js');
    proxied = viaUndici.request;
    closeProxy = viaUndici.close;
    register();
  }
  return proxied(url, options);
}

/**
 * A body as text, at most `limit` bytes. Past the limit the connection is dropped and, with `truncate`, the first
 * `limit` bytes are returned (an error body: its status explains it anyway); without, a TransportError EBODYLIMIT.
 */
async function readText({ body, headers }: HttpResponse, limit: number, truncate = false): Promise<string> {
  const declared = Number(headers['content-length']);
  const chunks: Buffer[] = [];
  let size = 0;
  if (!truncate && declared > limit) return tooLarge(body, limit);
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    if (size + bytes.length > limit) {
      if (!truncate) return tooLarge(body, limit);
      chunks.push(bytes.subarray(0, limit - size));
      body.destroy();
      break;
    }
    chunks.push(bytes);
    size += bytes.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(body: Readable, limit: number): never {
  body.destroy();
  throw new TransportError(`the answer is larger than ${Math.round(limit / 1024 / 1024)} MB`, 'EBODYLIMIT');
}

/** Throw a body away, so its connection can be reused. */
export async function discard(body: Readable): Promise<void> {
  body.resume();
  await new Promise<void>((resolve) => {
    body.once('end', resolve);
    body.once('close', resolve);
    body.once('error', () => resolve());
  });
}

/** connections.ts keeps one closer: registering again on every request is a plain assignment. */
function register(): void {
  onCloseConnections(closePools);
}

/** Close pooled connections so the process exits at once instead of waiting for keep-alive sockets. */
async function closePools(): Promise<void> {
  closeDirect();
  await closeProxy?.();
  proxied = undefined;
  closeProxy = undefined;
}
