/**
 * The artifact download wire (src/api/download-wire.ts) against a raw TCP server that answers with exactly the bytes
 * a test gives: the framings HTTP/1.1 allows (Content-Length, chunked, until close, a 100 Continue first), and the
 * broken ones, which must fail rather than leave a short file.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawGet } from '../../src/api/download-wire.js';

let dir: string;
let server: Server;
let port = 0;
let answer: (send: (bytes: string) => void, end: () => void) => void = () => undefined;
const requests: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'simjob-wire-'));
  server = createServer((socket) => {
    let request = '';
    socket.on('data', (data) => {
      request += data.toString('latin1');
      if (!request.includes('\r\n\r\n')) return;
      requests.push(request);
      answer((bytes) => socket.write(bytes, 'latin1'), () => socket.end());
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function get(path = '/x'): Promise<{ status: number; file: string; headers: Record<string, string> }> {
  const target = join(dir, `f-${Math.random()}`);
  let fd: number | undefined;
  try {
    const { status, headers } = await rawGet(new URL(`http://127.0.0.1:${port}${path}`), {
      headers: { 'user-agent': 'test' },
      timeoutMs: 2000,
      deadlineMs: 5000,
      onHead: (s) => (s === 200 ? (fd = openSync(target, 'w')) : undefined),
    });
    return { status, headers, file: fd === undefined ? '' : readFileSync(target, 'latin1') };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

describe('the download wire', () => {
  it('sends a plain GET with Host and the given headers, and no credentials', async () => {
    answer = (send, end) => (send('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'), end());
    await get('/a/b?sig=1');
    const sent = requests.at(-1)!;
    expect(sent.split('\r\n')[0]).toBe('GET /a/b?sig=1 HTTP/1.1');
    expect(sent).toContain(`Host: 127.0.0.1:${port}\r\n`);
    expect(sent).toContain('user-agent: test\r\n');
    expect(sent.toLowerCase()).not.toContain('authorization');
  });

  it('writes a Content-Length body exactly', async () => {
    answer = (send) => send('HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world');
    expect((await get()).file).toBe('hello world');
  });

  it('decodes a chunked body split at awkward places, with extensions and trailers', async () => {
    answer = (send, end) => {
      for (const piece of ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r', '\nhel', 'lo\r\n6;ext=1\r\n wo', 'rld\r\n0\r\nX-Trailer: 1\r\n\r\n']) send(piece);
      end();
    };
    expect((await get()).file).toBe('hello world');
  });

  it('reads to the end of the connection when there is no length', async () => {
    answer = (send, end) => (send('HTTP/1.1 200 OK\r\n\r\nuntil close'), end());
    expect((await get()).file).toBe('until close');
  });

  it('skips a 100 Continue before the answer', async () => {
    answer = (send) => send('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc');
    expect((await get()).file).toBe('abc');
  });

  it('stops at the head of a redirect or a refusal, without a file', async () => {
    answer = (send) => send('HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n');
    expect(await get()).toMatchObject({ status: 302, headers: { location: '/elsewhere' }, file: '' });
    answer = (send) => send('HTTP/1.1 403 Forbidden\r\nContent-Length: 9\r\n\r\nforbidden');
    expect(await get()).toMatchObject({ status: 403, file: '' });
  });

  it('fails on a body shorter than its Content-Length', async () => {
    answer = (send, end) => (send('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort'), end());
    await expect(get()).rejects.toThrow('the connection closed before the whole body arrived');
  });

  it('fails on broken chunking and on a chunked body cut short', async () => {
    answer = (send, end) => (send('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'), end());
    await expect(get()).rejects.toThrow("the answer's chunked encoding is broken");
    answer = (send, end) => (send('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel'), end());
    await expect(get()).rejects.toThrow('the connection closed before the whole body arrived');
  });

  it('fails on something that is not HTTP', async () => {
    answer = (send, end) => (send('SSH-2.0-OpenSSH\r\n\r\n'), end());
    await expect(get()).rejects.toThrow('the answer is not HTTP/1.1');
  });

  it('ends a server that never answers at the inactivity limit', async () => {
    answer = () => undefined;
    await expect(get()).rejects.toThrow('the download stalled');
  });
});
