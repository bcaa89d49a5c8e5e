/**
 * One HTTP/1.1 GET whose body goes straight to a file, for artifact downloads without a proxy.
 *
 * Why not node:http: it hands every 64 KB read to JavaScript as a new Buffer, and the garbage collector frees those
 * only when it gets round to it, so a 500 MB download grew the process by ~30-50 MB. Here the socket reads into one
 * reused buffer (`onread`, net and tls alike) and each read is written to the file before the next one, so memory
 * stays flat and a slow disk holds back the sender through TCP itself. The response is read strictly (http1.ts): a
 * body shorter than its Content-Length, or broken chunking, is an error, never a silently short file.
 */
import { writeSync } from 'node:fs';
import net from 'node:net';
import type tls from 'node:tls';
import { ResponseReader, type ResponseHeaders } from './http1.js';
import { describeMs, TransportError } from './wire.js';

const READ_BUFFER_BYTES = 256 * 1024;

export interface RawGetOptions {
  headers: Record<string, string>;
  /** Inactivity limit. */
  timeoutMs: number;
  /** Total limit, head and body. */
  deadlineMs: number;
  signal?: AbortSignal | undefined;
  /**
   * Called once with the status and headers: return a file descriptor to write the body to, or undefined to stop
   * there (a redirect or a refusal: the body is not read).
   */
  onHead(status: number, headers: Record<string, string>): number | undefined;
}

export function rawGet(url: URL, options: RawGetOptions): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (secure ? 443 : 80));
    const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    let status = 0;
    let headers: ResponseHeaders = {};
    let fd: number | undefined;
    let settled = false;

    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (error) reject(error);
      else resolve({ status, headers });
    };
    const onAbort = () => finish(options.signal?.reason as Error);
    const deadline = setTimeout(() => finish(new TransportError(`no complete answer within ${describeMs(options.deadlineMs)}`, 'EDEADLINE')), options.deadlineMs);

    const reader = new ResponseReader({
      head(received, receivedHeaders) {
        status = received;
        headers = receivedHeaders;
        fd = options.onHead(status, headers);
        if (fd === undefined) finish();
        return fd !== undefined;
      },
      body: (data) => write(data),
      end: () => finish(),
    });
    const attempt = (step: () => void) => {
      try {
        step();
      } catch (error) {
        finish(error as Error);
      }
    };

    const onread = {
      buffer,
      callback: (nread: number, buf: Uint8Array): boolean => {
        if (!settled) attempt(() => reader.push(Buffer.from(buf.buffer, buf.byteOffset, nread)));
        return !settled;
      },
    };
    const connect = { host, port, onread };
    const socket = secure
      ? // node:tls (with crypto) loaded only for an https download
        (process.getBuiltinModule('node:tls') as typeof tls).connect({ ...connect, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] })
      : net.connect(connect);
    socket.setTimeout(options.timeoutMs, () => finish(new TransportError('the download stalled', 'ETIMEDOUT')));
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close', 'Accept-Encoding: identity'];
      for (const [name, value] of Object.entries(options.headers)) lines.push(`${name}: ${value}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('error', (error) => finish(error));
    socket.on('end', () => attempt(() => reader.closed()));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    function write(data: Buffer): void {
      for (let offset = 0; offset < data.length;) offset += writeSync(fd!, data, offset, data.length - offset);
    }
  });
}
