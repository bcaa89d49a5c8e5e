/**
 * Requests through an HTTP(S) proxy, with undici's EnvHttpProxyAgent: it reads HTTPS_PROXY, HTTP_PROXY and
 * NO_PROXY and tunnels https with CONNECT. Loaded only when a proxy is configured, so its start-up cost is paid
 * only then.
 */
import { EnvHttpProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import { TransportError, type HttpRequestOptions, type HttpResponse } from './wire.js';

let agent: Dispatcher | undefined;

export async function request(url: URL, options: HttpRequestOptions): Promise<HttpResponse> {
  const dispatcher = (agent ??= new EnvHttpProxyAgent());
  const answer = undiciRequest(url, {
    dispatcher,
    method: options.method as Dispatcher.HttpMethod,
    headers: options.headers,
    body: options.body,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    signal: options.signal,
  });
  // The answer's head must come within the inactivity limit, connecting included. undici's headersTimeout starts
  // once the request is sent, and undici 7 re-sends a CONNECT that the proxy drops unanswered at once, thousands of
  // times a second, until the proxy goes away: neither a timeout nor an abort ends that (nodejs/undici#3897, fixed
  // in undici 8, which needs Node 22). Only destroying the agent does.
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransportError('the request timed out', 'ETIMEDOUT')), Math.min(options.timeoutMs, 2 ** 31 - 1));
  });
  try {
    const response = await Promise.race([answer, stalled]);
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  } catch (error) {
    if (error instanceof TransportError) {
      answer.catch(() => undefined); // settled by the destroy below
      if (agent === dispatcher) agent = undefined;
      await dispatcher.destroy().catch(() => undefined);
      throw error;
    }
    const code = (error as { code?: string }).code ?? '';
    if (code.includes('TIMEOUT')) throw new TransportError('the request timed out', 'ETIMEDOUT');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

export async function close(): Promise<void> {
  const current = agent;
  agent = undefined;
  await current?.close().catch(() => undefined);
}
