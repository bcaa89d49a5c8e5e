/**
 * undici, loaded lean. The package's main entry also loads fetch, WebSocket, the cache and the mock layer, which
 * costs ~60 ms at start-up (measured with hyperfine against `node -e 0`, ~77 ms here); the Agent and the
 * request/stream API alone cost ~28 ms. Both modules are undici's own public classes, pinned by the lockfile.
 */
import type { Dispatcher } from 'undici';
import Agent from 'undici/lib/dispatcher/agent.js';
import api from 'undici/lib/api/index.js';

export type { Dispatcher };
export type ResponseData = Dispatcher.ResponseData;

let shared: Dispatcher | undefined;

/** One keep-alive agent per process; proxies from HTTP(S)_PROXY / NO_PROXY when they are set. */
export async function dispatcher(env: NodeJS.ProcessEnv = process.env): Promise<Dispatcher> {
  if (shared) return shared;
  const proxied = env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy;
  if (proxied) {
    const { default: EnvHttpProxyAgent } = await import('undici/lib/dispatcher/env-http-proxy-agent.js');
    shared = new EnvHttpProxyAgent();
  } else {
    shared = new Agent({ keepAliveTimeout: 4_000 });
  }
  return shared;
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's request() on our agent: the URL is split into the origin and path the dispatcher API takes. */
export function request(agent: Dispatcher, url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const opts = { ...options, origin: url.origin, path: `${url.pathname}${url.search}` };
  return api.request.call(agent, opts as never) as unknown as Promise<Dispatcher.ResponseData>;
}

/** Close the shared agent so the process can exit at once instead of waiting for keep-alive sockets. */
export async function closeDispatcher(): Promise<void> {
  const agent = shared;
  shared = undefined;
  await agent?.close().catch(() => undefined);
}
