/**
 * The wire under the HTTP layer. Plain requests use node:http/https with keep-alive agents; requests through a
 * proxy (HTTPS_PROXY / HTTP_PROXY / NO_PROXY) go through undici's EnvHttpProxyAgent, loaded only then.
 *
 * Why not undici for everything: on these machines one request through undici (the package, or Node's own fetch,
 * which is undici inside) costs ~150 ms of CPU per process — its llhttp WebAssembly parser is tiered up on
 * background threads and the process waits for that at exit — against ~20 ms for node:http (measured with
 * `/usr/bin/time` against `node -e 0`; see bench/startup.ts). A CLI that runs once per command cannot pay that.
 */
import http from 'node:http';
import type https from 'node:https';
import type { Readable } from 'node:stream';
import { onCloseConnections } from './connections.js';
import { describeMs, TransportError, type HttpRequestOptions, type HttpResponse } from './wire.js';

export { TransportError, type HttpRequestOptions, type HttpResponse } from './wire.js';

let agents: { http: http.Agent; https?: https.Agent } | undefined;
let proxied: ((url: URL, options: HttpRequestOptions) => Promise<HttpResponse>) | undefined;
let closeProxy: (() => Promise<void>) | undefined;

export function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}

export async function request(url: URL, options: HttpRequestOptions, env: NodeJS.ProcessEnv = process.env): Promise<HttpResponse> {
  if (options.deadlineMs === undefined) return dispatch(url, options, env);
  // The total deadline: aborts the request while it waits for headers, destroys the body once it streams.
  const deadline = new TransportError(`no complete answer within ${describeMs(options.deadlineMs)}`, 'EDEADLINE');
  const abort = new AbortController();
  let body: Readable | undefined;
  const timer = setTimeout(() => (body ? body.destroy(deadline) : abort.abort(deadline)), options.deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
  try {
    const response = await dispatch(url, { ...options, signal }, env);
    body = response.body;
    body.once('close', () => clearTimeout(timer));
    return response;
  } catch (error) {
    clearTimeout(timer);
    throw abort.signal.aborted ? deadline : error;
  }
}

function dispatch(url: URL, options: HttpRequestOptions, env: NodeJS.ProcessEnv): Promise<HttpResponse> {
  return proxyConfigured(env) ? viaProxy(url, options) : direct(url, options);
}

async function viaProxy(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  if (!proxied) {
    const viaUndici = await import('./transport-proxy.js');
    proxied = viaUndici.request;
    closeProxy = viaUndici.close;
    onCloseConnections(closePools);
  }
  return proxied(url, options);
}

function direct(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  if (!agents) {
    agents = { http: new http.Agent({ keepAlive: true }) };
    onCloseConnections(closePools);
  }
  const secure = url.protocol === 'https:';
  // node:https (with TLS and crypto, ~30 modules) only for an https URL.
  const https = secure ? process.getBuiltinModule('node:https') : undefined;
  const agent = https ? (agents.https ??= new https.Agent({ keepAlive: true })) : agents.http;
  return new Promise((resolve, reject) => {
    const req = (https ?? http).request(url, {
      method: options.method,
      headers: options.body === undefined ? options.headers : { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      agent,
      signal: options.signal,
      timeout: options.timeoutMs,
    });
    req.on('timeout', () => req.destroy(new TransportError('the request timed out', 'ETIMEDOUT')));
    req.on('error', reject);
    req.on('response', (res) => {
      // The same inactivity limit while the body streams in.
      res.setTimeout(options.timeoutMs, () => res.destroy(new TransportError('the response stalled', 'ETIMEDOUT')));
      resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
    });
    req.end(options.body);
  });
}

/**
 * A body as text, at most `limit` bytes. Past the limit the connection is dropped and, with `truncate`, the first
 * `limit` bytes are returned (an error body: its status explains it anyway); without, a TransportError EBODYLIMIT.
 */
export async function readText({ body, headers }: HttpResponse, limit: number, truncate = false): Promise<string> {
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

/** Close pooled connections so the process exits at once instead of waiting for keep-alive sockets. */
async function closePools(): Promise<void> {
  agents?.http.destroy();
  agents?.https?.destroy();
  agents = undefined;
  await closeProxy?.();
  proxied = undefined;
  closeProxy = undefined;
}
