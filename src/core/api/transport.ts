/**
 * The wire under the HTTP layer and the artifact downloads: node:http (node:https for an https URL), with one
 * keep-alive agent per kind of connection so a command's requests to the service share one. Through a proxy
 * (HTTPS_PROXY / HTTP_PROXY / NO_PROXY, read by proxy-env.ts) the agent is https-proxy-agent's, which tunnels http
 * and https targets alike with CONNECT; everything else is the same path, with or without a proxy.
 *
 * Why not undici, Node's other HTTP client: it parses HTTP with a WebAssembly build of llhttp that each process
 * compiles on its first request, which costs a one-shot CLI several times Node's own start-up and tens of MB of
 * memory (docs/performance.md, "Issue 30"); node:http parses with Node's built-in llhttp.
 */
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { onCloseConnections } from './connections.js';
import { proxySetting } from './proxy-env.js';

export interface HttpRequestOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Inactivity limit: no response headers, or no body bytes, for this long fails the request. */
  timeoutMs: number;
  /**
   * Total limit, headers and body together: a body that trickles one byte inside every inactivity window still
   * ends. The body stream is destroyed with a TransportError (code EDEADLINE) when it passes.
   */
  deadlineMs?: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/** A whole answer, its body read as text. */
export interface TextAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** How much of a body to read, by its status: up to `bytes`; past that the first `bytes` (`truncate`), or an error. */
export type BodyLimit = (status: number) => { bytes: number; truncate: boolean };

export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** "30 s", "2 min", "1.5 min": a limit as a person reads it. */
export function describeMs(ms: number): string {
  return ms < 60_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 6000) / 10} min`;
}

/** Agents by protocol and proxy, made on first use and closed by closeConnections (cli.ts) on the way out. */
const agents = new Map<string, Agent>();

/** node:https, and with it TLS, is loaded only for an https URL: a plain http service never pays for it. */
const client = (url: URL): typeof import('node:https') =>
  process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:https');

async function agentFor(url: URL, env: NodeJS.ProcessEnv): Promise<Agent> {
  const proxy = proxySetting(url, env);
  const key = `${url.protocol} ${proxy?.value ?? 'direct'}`;
  let agent = agents.get(key);
  if (!agent) {
    if (proxy) {
      if (!/^https?:$/.test(URL.parse(proxy.value)?.protocol ?? '')) {
        throw new TransportError(`${proxy.variable} is not an http:// or https:// URL`, 'EPROXY');
      }
      const { HttpsProxyAgent } = await import('https-proxy-agent');
      agent = new HttpsProxyAgent(proxy.value, { keepAlive: true });
    } else {
      agent = new (client(url).Agent)({ keepAlive: true });
    }
    agents.set(key, agent);
    onCloseConnections(closeAgents);
  }
  return agent;
}

/** Close pooled connections, so the process ends at once. */
async function closeAgents(): Promise<void> {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/**
 * One request; resolves with the status, headers and the body as a stream. Ends with a TransportError when nothing
 * arrives for `timeoutMs` (before the head or within the body), when the whole answer has not arrived within
 * `deadlineMs`, or when a proxy will not tunnel; with the signal's reason when it aborts.
 */
export async function request(
  url: URL,
  options: HttpRequestOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<HttpResponse> {
  const agent = await agentFor(url, env);
  return new Promise((resolve, reject) => {
    // Throws, rejecting the promise before any timer is set, on a header value node:http refuses (one that would
    // smuggle in a header of its own): nothing is sent.
    const req: ClientRequest = client(url).request(url, { method: options.method, headers: options.headers, agent });
    let response: IncomingMessage | undefined;
    /** Ends the exchange: before the head the request fails, after it the body stream errors. */
    const stop = (error: Error) => (response ? response.destroy(error) : req.destroy(error));
    const onAbort = () => stop(options.signal!.reason as Error);
    const { deadlineMs, timeoutMs } = options;
    const late = () => new TransportError(`no complete answer within ${describeMs(deadlineMs!)}`, 'EDEADLINE');
    const deadline = deadlineMs === undefined ? undefined : setTimeout(() => stop(late()), deadlineMs);
    // Nothing for timeoutMs: before the head a timer (connecting, through a proxy too), then the socket's idleness.
    const waitForHead = setTimeout(() => stop(new TransportError('the request timed out', 'ETIMEDOUT')), timeoutMs);
    const done = () => {
      clearTimeout(deadline);
      clearTimeout(waitForHead);
      options.signal?.removeEventListener('abort', onAbort);
    };

    // A proxy that will not tunnel answers its CONNECT with an error status, which must not pass for the service's.
    req.on('proxyConnect', (answer: { statusCode: number }) => {
      if (answer.statusCode === 200) return;
      stop(new TransportError(`the proxy refused to connect to ${url.host} (HTTP ${answer.statusCode})`, 'EPROXY'));
    });
    req.on('error', (error) => {
      done();
      reject(proxyDropped(error, url) ?? error);
    });
    req.on('response', (res) => {
      response = res;
      clearTimeout(waitForHead);
      res.setTimeout(timeoutMs, () => res.destroy(new TransportError('the response stalled', 'ETIMEDOUT')));
      res.on('close', done);
      res.on('error', () => undefined); // the body's reader sees it
      resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
    });
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(options.body);
  });
}

/** https-proxy-agent's error for a proxy that closed the connection instead of answering CONNECT, as one of ours. */
function proxyDropped(error: Error, url: URL): TransportError | undefined {
  if (!/^Proxy connection ended before receiving CONNECT response/.test(error.message)) return undefined;
  return new TransportError(`the proxy closed the connection instead of tunnelling to ${url.host}`, 'EPROXY');
}

/** One request and its whole answer as text, its body read no further than `limit` allows. */
export async function exchange(
  url: URL,
  options: HttpRequestOptions,
  limit: BodyLimit,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TextAnswer> {
  const response = await request(url, options, env);
  const { bytes, truncate } = limit(response.statusCode);
  const text = await readText(response, bytes, truncate);
  return { statusCode: response.statusCode, headers: response.headers, text };
}

/**
 * A body as text, at most `limit` bytes. Past the limit the connection is dropped and, with `truncate`, the first
 * `limit` bytes are returned (an error body: its status explains it anyway); without, a TransportError EBODYLIMIT.
 */
async function readText({ body, headers }: HttpResponse, limit: number, truncate: boolean): Promise<string> {
  if (!truncate && Number(headers['content-length']) > limit) return tooLarge(body, limit);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
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
  } catch (error) {
    throw cutShort(error as NodeJS.ErrnoException);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(body: Readable, limit: number): never {
  body.destroy();
  throw new TransportError(`the answer is larger than ${Math.round(limit / 1024 / 1024)} MB`, 'EBODYLIMIT');
}

/** node:http's "aborted" for a body the server stopped sending before its end, in words a user reads. */
export function cutShort(error: NodeJS.ErrnoException): Error {
  if (error.code === 'ECONNRESET' && error.message === 'aborted') {
    return new TransportError('the connection closed before the whole body arrived', 'ECONNRESET');
  }
  return error;
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
