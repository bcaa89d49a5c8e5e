/**
 * Requests through an HTTP(S) proxy, with undici's EnvHttpProxyAgent: it reads HTTPS_PROXY, HTTP_PROXY and
 * NO_PROXY, tunnels https with CONNECT, and is loaded only when a proxy is configured.
 */
import type { Dispatcher } from 'undici';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import api from 'undici/lib/api/index.js';
import { TransportError, type HttpRequestOptions, type HttpResponse } from './transport.js';

let agent: Dispatcher | undefined;

export async function request(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  agent ??= new EnvHttpProxyAgent();
  try {
    const response = (await api.request.call(agent, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: options.method,
      headers: options.headers,
      body: options.body,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: options.signal,
    } as never)) as unknown as Dispatcher.ResponseData;
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.includes('TIMEOUT')) throw new TransportError('the request timed out', 'ETIMEDOUT');
    throw error;
  }
}

export async function close(): Promise<void> {
  const current = agent;
  agent = undefined;
  await current?.close().catch(() => undefined);
}
