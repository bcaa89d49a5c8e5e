/**
 * The wire under the API client (src/core/api/transport.ts, node:http) against a raw TCP server that answers with exactly
 * the bytes a test gives: what it sends, the framings it reads, its bounds, and the keep-alive connection it reuses,
 * or does not.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeConnections } from '../../src/core/api/connections.js';
import { exchange, request, type BodyLimit, type HttpRequestOptions } from '../../src/core/api/transport.js';

let server: Server;
let port = 0;
/** How the server answers each request on a connection: `send` writes bytes, `end` closes its side. */
let answer: (send: (bytes: string) => void, end: () => void) => void = () => undefined;
const requests: Array<{ text: string; connection: number }> = [];
const connections: Socket[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    connections.push(socket);
    const connection = connections.length;
    let pending = '';
    socket.on('data', (data) => {
      pending += data.toString('latin1');
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(pending.slice(0, end))?.[1] ?? 0);
      if (pending.length < end + 4 + length) return;
      requests.push({ text: pending.slice(0, end + 4 + length), connection });
      pending = pending.slice(end + 4 + length);
      answer(
        (bytes) => socket.write(bytes, 'latin1'),
        () => socket.end(),
      );
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterEach(() => closeConnections());
afterAll(async () => {
  for (const socket of connections) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const WHOLE: BodyLimit = () => ({ bytes: 1024, truncate: false });

function send(options: Partial<HttpRequestOptions> = {}, limit: BodyLimit = WHOLE, path = '/v1/x') {
  return exchange(
    new URL(`http://127.0.0.1:${port}${path}`),
    { method: 'GET', headers: { accept: 'application/json' }, timeoutMs: 2000, deadlineMs: 5000, ...options },
    limit,
  );
}

describe('the wire under the API client', () => {
  it('sends the method, path and query, Host, the given headers and keep-alive', async () => {
    answer = (write) => write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}');
    await send({}, WHOLE, '/v1/sim/jobs?limit=2');
    const lines = requests.at(-1)!.text.split('\r\n');
    expect(lines[0]).toBe('GET /v1/sim/jobs?limit=2 HTTP/1.1');
    expect(lines).toContain(`Host: 127.0.0.1:${port}`);
    expect(lines).toContain('accept: application/json');
    expect(lines).toContain('Connection: keep-alive');
    expect(lines.some((l) => /^content-length/i.test(l))).toBe(false);
  });

  it('sends a body with its length in bytes, and an empty POST with a length of 0', async () => {
    answer = (write) => write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    await send({ method: 'POST', body: '{"name":"Fürst"}' });
    expect(Buffer.from(requests.at(-1)!.text, 'latin1').toString('utf8')).toMatch(
      /\r\nContent-Length: 17\r\n(.*\r\n)?\r\n\{"name":"Fürst"\}$/s,
    );
    await send({ method: 'POST' });
    expect(requests.at(-1)!.text).toContain('Content-Length: 0\r\n');
  });

  it('refuses a header value that would smuggle in a header of its own, sending nothing', async () => {
    const before = requests.length;
    await expect(send({ headers: { authorization: 'Bearer sk\r\nx-evil: 1' } })).rejects.toThrow(
      'Invalid character in header content ["authorization"]',
    );
    expect(requests.length).toBe(before);
  });

  it('reads the status, headers (repeats joined, as node:http does) and a chunked body', async () => {
    answer = (write) => {
      for (const piece of [
        'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\nRetry-After: 9\r\nX-Tag: a\r\nx-tag: b\r\n',
        'Transfer-Encoding: chunked\r\n\r\n4\r\n{"a"',
        '\r\n3\r\n:1}\r\n0\r\n\r\n',
      ])
        write(piece);
    };
    expect(await send()).toEqual({
      statusCode: 503,
      headers: { 'retry-after': '2', 'x-tag': 'a, b', 'transfer-encoding': 'chunked' },
      text: '{"a":1}',
    });
  });

  it('reuses a kept-alive connection for the next request, and opens a new one after the server closes it', async () => {
    answer = (write) => write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    await send();
    await send();
    const [first, second] = requests.slice(-2);
    expect(second!.connection).toBe(first!.connection);
    connections.at(-1)!.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await send();
    expect(requests.at(-1)!.connection).not.toBe(first!.connection);
  });

  it('does not reuse a connection the server asked to close, or one whose body ran to the close', async () => {
    answer = (write) => write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
    await send();
    answer = (write, end) => (write('HTTP/1.1 200 OK\r\n\r\nuntil close'), end());
    expect((await send()).text).toBe('until close');
    answer = (write) => write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    await send();
    const last = requests.slice(-3).map((r) => r.connection);
    expect(new Set(last).size).toBe(3);
  });

  it('refuses a body over the limit, before reading it when its length says so', async () => {
    answer = (write) => write('HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n');
    await expect(send()).rejects.toMatchObject({ code: 'EBODYLIMIT' });
    answer = (write) => write(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n${'x'.repeat(2048)}\r\n`);
    await expect(send()).rejects.toMatchObject({ code: 'EBODYLIMIT' });
  });

  it('cuts a body over the limit where the limit says to', async () => {
    answer = (write) => write(`HTTP/1.1 400 Bad Request\r\nContent-Length: 3000\r\n\r\n${'e'.repeat(3000)}`);
    const cut = await send({}, (status) => ({ bytes: 10, truncate: status >= 400 }));
    expect(cut).toMatchObject({ statusCode: 400, text: 'eeeeeeeeee' });
  });

  it('fails on a connection closed before the answer or in the middle of its body', async () => {
    answer = (_write, end) => end();
    await expect(send()).rejects.toMatchObject({ code: 'ECONNRESET' });
    answer = (write, end) => (write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort'), end());
    await expect(send()).rejects.toThrow('the connection closed before the whole body arrived');
  });

  it('ends a server that never answers at the inactivity limit, and a trickle at the deadline', async () => {
    answer = () => undefined;
    await expect(send({ timeoutMs: 200 })).rejects.toThrow('the request timed out');
    answer = (write) => {
      write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n');
      const timer = setInterval(() => write('x'), 50);
      setTimeout(() => clearInterval(timer), 1000);
    };
    await expect(send({ timeoutMs: 200, deadlineMs: 400 })).rejects.toMatchObject({
      code: 'EDEADLINE',
      message: 'no complete answer within 0.4 s',
    });
  });

  it('stops at once when its signal aborts', async () => {
    answer = () => undefined;
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('Interrupted.')), 50);
    await expect(send({ signal: abort.signal })).rejects.toThrow('Interrupted.');
  });

  it('reports a refused connection with its code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const unused = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = exchange(
      new URL(`http://127.0.0.1:${unused}/`),
      { method: 'GET', headers: {}, timeoutMs: 2000 },
      WHOLE,
    );
    await expect(refused).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('errors a streamed body that ends short of its length or whose chunking breaks, never ending it quietly', async () => {
    const readAll = async (bytes: string) => {
      answer = (write, end) => (write(bytes), end());
      const { body } = await request(new URL(`http://127.0.0.1:${port}/a`), {
        method: 'GET',
        headers: {},
        timeoutMs: 2000,
      });
      let size = 0;
      for await (const chunk of body) size += (chunk as Buffer).length;
      return size;
    };
    expect(await readAll('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nfull')).toBe(4);
    await expect(readAll('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort')).rejects.toThrow();
    await expect(readAll('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nab')).rejects.toThrow();
    await expect(
      readAll('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabcd\r\n0\r\n\r\n'),
    ).rejects.toThrow();
  });
});
