/**
 * API requests without a proxy: HTTP/1.1 written by hand over node:net (node:tls for https), the answer (a JSON
 * document) read whole and bounded, the connection kept open for the command's next request to the same origin.
 *
 * Why not node:http: for the one small request of `simjob status`, loading node:http and going through its
 * ClientRequest, Agent and parser cost ~3 ms of CPU on Node 24, where bare Node starts in ~20 ms (bench/startup.ts).
 * What node:http did for these requests is done here too: connections kept alive (an idle one neither holds the
 * process open nor outlives its server's close), header values refused as node:http refuses them, an empty POST
 * sent with a length.
 */
import net, { type Socket } from 'node:net';
import type tls from 'node:tls';
import { ResponseReader, type ResponseHeaders } from './http1.js';
import { describeMs, TransportError, type BodyLimit, type HttpRequestOptions, type TextAnswer } from './wire.js';

/** Idle keep-alive connections by origin, and what forgets one when its server closes it. */
const idle = new Map<string, Array<{ socket: Socket; gone: () => void }>>();
/** Every open connection, idle or busy, so `closeAll` leaves none holding the process. */
const open = new Set<Socket>();

export function exchange(url: URL, options: HttpRequestOptions, limit: BodyLimit): Promise<TextAnswer> {
  return new Promise((resolve, reject) => {
    const request = requestBytes(url, options); // throws on a header value node:http would refuse: the promise rejects
    if (options.signal?.aborted) return reject(options.signal.reason);
    const socket = reuse(url.origin) ?? connect(url);
    let statusCode = 0;
    let headers: ResponseHeaders = {};
    let allowed = { bytes: Infinity, truncate: false };
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;

    const reader = new ResponseReader({
      head(status, received) {
        statusCode = status;
        headers = received;
        allowed = limit(status);
        if (!allowed.truncate && Number(received['content-length']) > allowed.bytes) throw tooLarge(allowed.bytes);
        return true;
      },
      body(bytes) {
        if (size + bytes.length <= allowed.bytes) {
          chunks.push(bytes);
          size += bytes.length;
          return;
        }
        if (!allowed.truncate) throw tooLarge(allowed.bytes);
        chunks.push(bytes.subarray(0, allowed.bytes - size));
        reader.stop();
        done(false);
      },
      end: (reusable) => done(reusable),
    }, options.method);

    const onData = (data: Buffer) => attempt(() => reader.push(data));
    const onEnd = () => attempt(() => reader.closed());
    const onError = (error: Error) => fail(error);
    const onClose = () => fail(new TransportError('the connection closed before an answer', 'ECONNRESET'));
    const onTimeout = () => fail(new TransportError(statusCode ? 'the response stalled' : 'the request timed out', 'ETIMEDOUT'));
    const onAbort = () => fail(options.signal!.reason as Error);
    const deadline = options.deadlineMs === undefined
      ? undefined
      : setTimeout(() => fail(new TransportError(`no complete answer within ${describeMs(options.deadlineMs!)}`, 'EDEADLINE')), options.deadlineMs);

    function attempt(step: () => void): void {
      try {
        step();
      } catch (error) {
        fail(error as Error);
      }
    }
    function settle(reusable: boolean): void {
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
      socket.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose).off('timeout', onTimeout);
      // Only a connection whose request went out whole and whose answer was read to its end carries another.
      if (reusable && socket.writableLength === 0) keep(url.origin, socket);
      else socket.destroy();
    }
    function fail(error: Error): void {
      if (settled) return;
      settle(false);
      reject(error);
    }
    function done(reusable: boolean): void {
      if (settled) return;
      settle(reusable);
      resolve({ statusCode, headers, text: Buffer.concat(chunks).toString('utf8') });
    }

    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.setTimeout(options.timeoutMs);
    socket.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose).on('timeout', onTimeout);
    socket.write(request); // a new connection sends it once connected
  });
}

/** Close every connection, so the process ends at once. */
export function closeAll(): void {
  for (const socket of open) socket.destroy();
  open.clear();
  idle.clear();
}

function connect(url: URL): Socket {
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 443 : 80));
  // node:tls (with crypto) only for an https URL; SNI names the host, as node:https does, unless it is an address.
  const socket: Socket = secure
    ? (process.getBuiltinModule('node:tls') as typeof tls).connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] })
    : net.connect({ host, port });
  socket.setNoDelay(true);
  socket.on('error', () => undefined); // errors are the exchange's to report; between exchanges 'close' follows
  open.add(socket);
  socket.once('close', () => open.delete(socket));
  return socket;
}

/** An idle connection to `origin` that is still open, taken out of the pool, or undefined. */
function reuse(origin: string): Socket | undefined {
  const list = idle.get(origin);
  for (let entry = list?.pop(); entry; entry = list?.pop()) {
    entry.socket.off('data', entry.gone).off('end', entry.gone).off('close', entry.gone);
    if (!entry.socket.destroyed && entry.socket.writable && !entry.socket.readableEnded) return entry.socket.ref();
    entry.socket.destroy();
  }
  return undefined;
}

/** Park a connection for the next request: it does not keep the process alive, and a close (or stray bytes) ends it. */
function keep(origin: string, socket: Socket): void {
  const list = idle.get(origin) ?? [];
  idle.set(origin, list);
  const entry = {
    socket,
    gone: () => {
      if (list.includes(entry)) list.splice(list.indexOf(entry), 1);
      socket.destroy();
    },
  };
  socket.setTimeout(0);
  socket.unref();
  socket.once('data', entry.gone).once('end', entry.gone).once('close', entry.gone);
  list.push(entry);
}

const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const BODYLESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** The request as bytes: head (latin1, as node:http writes it) and body (utf8). */
function requestBytes(url: URL, options: HttpRequestOptions): Buffer {
  const lines = [`${options.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of Object.entries(options.headers)) {
    // The same refusals as node:http's, with its messages: a value must never smuggle in a header of its own.
    if (!TOKEN.test(name)) throw new TransportError(`Header name must be a valid HTTP token ["${name}"]`, 'ERR_INVALID_HTTP_TOKEN');
    if (INVALID_VALUE.test(value)) throw new TransportError(`Invalid character in header content ["${name}"]`, 'ERR_INVALID_CHAR');
    lines.push(`${name}: ${value}`);
  }
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
  if (body || !BODYLESS.has(options.method)) lines.push(`Content-Length: ${body?.length ?? 0}`);
  lines.push('Connection: keep-alive');
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}

function tooLarge(limit: number): TransportError {
  return new TransportError(`the answer is larger than ${Math.round(limit / 1024 / 1024)} MB`, 'EBODYLIMIT');
}
