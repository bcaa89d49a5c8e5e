/**
 * One HTTP/1.1 GET whose body goes straight to a file, for artifact downloads without a proxy.
 *
 * Why not node:http: it hands every 64 KB read to JavaScript as a new Buffer, and the garbage collector frees those
 * only when it gets round to it, so a 500 MB download grew the process by ~30-50 MB. Here the socket reads into one
 * reused buffer (`onread`, net and tls alike) and each read is written to the file before the next one, so memory
 * stays flat and a slow disk holds back the sender through TCP itself. The response is parsed strictly: a body
 * shorter than its Content-Length, or broken chunking, is an error, never a silently short file.
 */
import { writeSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { describeMs, TransportError } from './wire.js';

const READ_BUFFER_BYTES = 256 * 1024;
const MAX_HEAD_BYTES = 64 * 1024;

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

type Body =
  | { kind: 'length'; left: number }
  | { kind: 'chunked'; state: 'size' | 'data' | 'crlf' | 'trailer'; left: number; line: string }
  | { kind: 'close' };

export function rawGet(url: URL, options: RawGetOptions): Promise<{ status: number; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (secure ? 443 : 80));
    const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    let head: Buffer = Buffer.alloc(0);
    let status = 0;
    let headers: Record<string, string> = {};
    let fd: number | undefined;
    let body: Body | undefined;
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

    const onread = {
      buffer,
      callback: (nread: number, buf: Uint8Array): boolean => {
        try {
          consume(Buffer.from(buf.buffer, buf.byteOffset, nread));
        } catch (error) {
          finish(error as Error);
        }
        return !settled;
      },
    };
    const connect = { host, port, onread };
    const socket = secure
      ? tls.connect({ ...connect, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] })
      : net.connect(connect);
    socket.setTimeout(options.timeoutMs, () => finish(new TransportError('the download stalled', 'ETIMEDOUT')));
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close', 'Accept-Encoding: identity'];
      for (const [name, value] of Object.entries(options.headers)) lines.push(`${name}: ${value}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('error', (error) => finish(error));
    socket.on('end', () => {
      if (body?.kind === 'close') finish();
      else finish(new TransportError(body ? 'the connection closed before the whole body arrived' : 'the connection closed before an answer', 'ECONNRESET'));
    });
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    function consume(data: Buffer): void {
      if (settled) return;
      let rest = data;
      if (!body) {
        rest = readHead(data);
        if (!body) return;
      }
      if (rest.length && !settled) writeBody(rest);
    }

    /** Collect the head (skipping any 1xx); returns what follows it, once the body mode is known. */
    function readHead(data: Buffer): Buffer {
      head = Buffer.concat([head, data]);
      for (;;) {
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) {
          if (head.length > MAX_HEAD_BYTES) throw new TransportError('the answer\'s headers are too large', 'EHEAD');
          return Buffer.alloc(0);
        }
        const [statusLine = '', ...headerLines] = head.subarray(0, end).toString('latin1').split('\r\n');
        const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
        if (!match) throw new TransportError('the answer is not HTTP/1.1', 'EHEAD');
        const rest = head.subarray(end + 4);
        status = Number(match[1]);
        if (status >= 100 && status < 200) {
          head = Buffer.from(rest);
          continue;
        }
        headers = parseHeaders(headerLines);
        fd = options.onHead(status, headers);
        if (fd === undefined) {
          finish();
          return Buffer.alloc(0);
        }
        body = bodyMode(headers);
        if (body.kind === 'length' && body.left === 0) finish();
        return Buffer.from(rest);
      }
    }

    function write(data: Buffer): void {
      for (let offset = 0; offset < data.length;) offset += writeSync(fd!, data, offset, data.length - offset);
    }

    function writeBody(data: Buffer): void {
      if (!body) return;
      if (body.kind === 'close') return write(data);
      if (body.kind === 'length') {
        if (data.length > body.left) throw new TransportError('the answer is longer than its Content-Length', 'EBODY');
        write(data);
        body.left -= data.length;
        if (body.left === 0) finish();
        return;
      }
      writeChunked(body, data);
    }

    function writeChunked(chunked: Extract<Body, { kind: 'chunked' }>, data: Buffer): void {
      let at = 0;
      while (at < data.length && !settled) {
        if (chunked.state === 'data') {
          const take = Math.min(chunked.left, data.length - at);
          write(data.subarray(at, at + take));
          at += take;
          chunked.left -= take;
          if (chunked.left === 0) chunked.state = 'crlf';
          continue;
        }
        const newline = data.indexOf(0x0a, at);
        const piece = data.subarray(at, newline < 0 ? data.length : newline + 1).toString('latin1');
        at += piece.length;
        chunked.line += piece;
        if (chunked.line.length > 4096) throw new TransportError('the answer\'s chunked encoding is broken', 'EBODY');
        if (newline < 0) return;
        const line = chunked.line.replace(/\r?\n$/, '');
        chunked.line = '';
        if (chunked.state === 'crlf') {
          if (line !== '') throw new TransportError('the answer\'s chunked encoding is broken', 'EBODY');
          chunked.state = 'size';
        } else if (chunked.state === 'size') {
          const size = /^([0-9a-fA-F]{1,12})(;.*)?$/.exec(line);
          if (!size) throw new TransportError('the answer\'s chunked encoding is broken', 'EBODY');
          chunked.left = parseInt(size[1]!, 16);
          chunked.state = chunked.left === 0 ? 'trailer' : 'data';
        } else if (line === '') {
          return finish(); // the empty line after the trailers ends the body
        }
      }
    }
  });
}

function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new TransportError('the answer has a malformed header', 'EHEAD');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

function bodyMode(headers: Record<string, string>): Body {
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) return { kind: 'chunked', state: 'size', left: 0, line: '' };
  const length = headers['content-length'];
  if (length !== undefined) {
    if (!/^\d+$/.test(length)) throw new TransportError('the answer has a malformed Content-Length', 'EHEAD');
    return { kind: 'length', left: Number(length) };
  }
  return { kind: 'close' };
}
