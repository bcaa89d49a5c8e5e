/**
 * Requests through an HTTP(S) proxy, with undici's EnvHttpProxyAgent: it reads HTTPS_PROXY, HTTP_PROXY and
 * NO_PROXY and tunnels https with CONNECT. Loaded only when a proxy is configured, so its start-up cost is paid
 * only then.
 */
import { EnvHttpProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import { TransportError, type HttpRequestOptions, type HttpResponse } from './wire.js';

let agent: Dispatcher | undefined;

export async function request(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  agent ??= new EnvHttpProxyAgent();
  try {
    const response = await undiciRequest(url, {
      dispatcher: agent,
      method: options.method as Dispatcher.HttpMethod,
      headers: options.headers,
      body: options.body,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: options.signal,
    });
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
