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
import { TransportError, type HttpRequestOptions, type HttpResponse } from './wire.js';

export { TransportError, type HttpRequestOptions, type HttpResponse } from './wire.js';

let agents: { http: http.Agent; https?: https.Agent } | undefined;
let proxied: ((url: URL, options: HttpRequestOptions) => Promise<HttpResponse>) | undefined;
let closeProxy: (() => Promise<void>) | undefined;

function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
}

export async function request(url: URL, options: HttpRequestOptions, env: NodeJS.ProcessEnv = process.env): Promise<HttpResponse> {
  if (proxyConfigured(env)) {
    if (!proxied) {
      const viaUndici = await import('./transport-proxy.js');
      proxied = viaUndici.request;
      closeProxy = viaUndici.close;
      onCloseConnections(closePools);
    }
    return proxied(url, options);
  }
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

export async function readText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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
