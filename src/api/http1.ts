/**
 * An HTTP/1.1 response, read strictly from the bytes of a connection: the status line and headers (any 1xx skipped),
 * then the body in whichever framing the head declares (Content-Length, chunked, or until the connection closes).
 * A body shorter than its Content-Length, or broken chunking, is an error, never a silently short answer.
 * Both hand-written clients use it: artifact downloads (download-wire.ts) and API requests (direct.ts).
 */
import { TransportError } from './wire.js';

const MAX_HEAD_BYTES = 64 * 1024;
/** Fields of which node:http keeps the first when a server repeats them (joining them would make nonsense). */
const SINGLE_VALUED = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after',
  'server', 'user-agent',
]);

export type ResponseHeaders = Record<string, string>;

export interface ResponseHandlers {
  /** The final status and headers, names in lower case. Return false to read no body: the reader stops there. */
  head(status: number, headers: ResponseHeaders): boolean;
  body(bytes: Buffer): void;
  /** The whole answer arrived. `reusable`: the connection may carry another request. */
  end(reusable: boolean): void;
}

type Body =
  | { kind: 'length'; left: number }
  | { kind: 'chunked'; state: 'size' | 'data' | 'crlf' | 'trailer'; left: number; line: string }
  | { kind: 'close' };

export class ResponseReader {
  private head: Buffer = Buffer.alloc(0);
  private framing: Body | undefined;
  private keepAlive = false;
  private done = false;

  /** `method`: of the request answered (no body ever follows the head of an answer to HEAD). */
  constructor(private readonly handlers: ResponseHandlers, private readonly method = 'GET') {}

  /** The next bytes from the connection. Throws a TransportError on anything that is not a well-formed answer. */
  push(data: Buffer): void {
    if (this.done) {
      if (data.length) this.keepAlive = false; // bytes after the answer: the connection is not clean for another
      return;
    }
    const rest = this.framing ? data : this.readHead(data);
    if (this.framing && rest.length && !this.done) this.readBody(rest);
  }

  /** The caller has what it needs: the rest of the answer is not read. */
  stop(): void {
    this.done = true;
    this.keepAlive = false;
  }

  /** The peer closed the connection: that ends a body that runs to the close; anything else unfinished is an error. */
  closed(): void {
    if (this.done) return;
    if (this.framing?.kind === 'close') return this.finish(false);
    throw new TransportError(this.framing ? 'the connection closed before the whole body arrived' : 'the connection closed before an answer', 'ECONNRESET');
  }

  /** Collect the head (skipping any 1xx); returns what follows it, once the body's framing is known. */
  private readHead(data: Buffer): Buffer {
    this.head = Buffer.concat([this.head, data]); // a copy: the caller may reuse `data`'s memory for its next read
    for (;;) {
      const end = this.head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.head.length > MAX_HEAD_BYTES) throw new TransportError('the answer\'s headers are too large', 'EHEAD');
        return Buffer.alloc(0);
      }
      const [statusLine = '', ...headerLines] = this.head.subarray(0, end).toString('latin1').split('\r\n');
      const match = /^HTTP\/1\.([01]) (\d{3})/.exec(statusLine);
      if (!match) throw new TransportError('the answer is not HTTP/1.1', 'EHEAD');
      const rest = this.head.subarray(end + 4);
      const status = Number(match[2]);
      if (status >= 100 && status < 200) {
        this.head = rest;
        continue;
      }
      const headers = parseHeaders(headerLines);
      const connection = (headers.connection ?? '').toLowerCase();
      this.keepAlive = match[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
      if (!this.handlers.head(status, headers)) {
        this.done = true;
        return Buffer.alloc(0);
      }
      this.framing = status === 204 || status === 304 || this.method === 'HEAD' ? { kind: 'length', left: 0 } : framingOf(headers);
      if (this.framing.kind === 'close') this.keepAlive = false;
      if (this.framing.kind === 'length' && this.framing.left === 0) this.finish(rest.length === 0);
      return rest;
    }
  }

  private readBody(data: Buffer): void {
    const body = this.framing!;
    if (body.kind === 'close') return this.handlers.body(data);
    if (body.kind === 'length') {
      if (data.length > body.left) throw new TransportError('the answer is longer than its Content-Length', 'EBODY');
      body.left -= data.length;
      this.handlers.body(data);
      if (body.left === 0 && !this.done) this.finish(true);
      return;
    }
    this.readChunked(body, data);
  }

  private readChunked(chunked: Extract<Body, { kind: 'chunked' }>, data: Buffer): void {
    let at = 0;
    while (at < data.length && !this.done) {
      if (chunked.state === 'data') {
        const take = Math.min(chunked.left, data.length - at);
        chunked.left -= take;
        if (chunked.left === 0) chunked.state = 'crlf';
        this.handlers.body(data.subarray(at, at + take));
        at += take;
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
        this.finish(at === data.length); // the empty line after the trailers ends the body
      }
    }
  }

  private finish(clean: boolean): void {
    this.done = true;
    this.handlers.end(this.keepAlive && clean);
  }
}

/** Header lines into an object, as node:http does: names in lower case, repeats joined with ", " (or the first kept). */
function parseHeaders(lines: string[]): ResponseHeaders {
  const headers: ResponseHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new TransportError('the answer has a malformed header', 'EHEAD');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const before = headers[name];
    headers[name] = before === undefined ? value : SINGLE_VALUED.has(name) ? before : `${before}, ${value}`;
  }
  return headers;
}

function framingOf(headers: ResponseHeaders): Body {
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) return { kind: 'chunked', state: 'size', left: 0, line: '' };
  const length = headers['content-length'];
  if (length !== undefined) {
    if (!/^\d+$/.test(length)) throw new TransportError('the answer has a malformed Content-Length', 'EHEAD');
    return { kind: 'length', left: Number(length) };
  }
  return { kind: 'close' };
}
