import { readFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionFailure, runExec } from '../../../src/core/webhook/actions.js';
import {
  startListener,
  type Listener,
  type ListenerOptions,
  type ReceivedEvent,
} from '../../../src/core/webhook/listen.js';
import { postRaw } from '../../../src/core/webhook/post.js';
import { signatureHeader } from '../../../src/core/webhook/signature.js';
import { alive } from '../../helpers/process.js';
import { tempDir } from '../../helpers/temp.js';

const SECRET = 'whsec_listener_unit';
const BODY = JSON.stringify({
  kind: 'job.terminal',
  version: 'v1',
  timestamp: '2025-01-01T00:00:00.000Z',
  payload: { id: 'local-01j9x4b8c2m6k0p3q1', status: 'completed', statusReason: null },
});
let listener: Listener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function start(over: Partial<ListenerOptions> = {}) {
  const events: ReceivedEvent[] = [];
  const refused: Array<[number, string]> = [];
  const hungUp: Array<[string | undefined, number]> = [];
  let dropped = 0;
  let duplicates = 0;
  listener = await startListener({
    secret: SECRET,
    port: 0,
    path: '/hooks',
    toleranceSeconds: 300,
    process: async () => undefined,
    onEvent: (e) => events.push(e),
    onDuplicate: () => (duplicates += 1),
    onRefused: (status, reason) => refused.push([status, reason]),
    onHungUp: (deliveryId, bytes) => hungUp.push([deliveryId, bytes]),
    onDropped: () => (dropped += 1),
    ...over,
  });
  const l = listener;
  const counts = { dropped: () => dropped, duplicates: () => duplicates };
  return { url: l.url, load: () => l.load(), events, refused, hungUp, ...counts };
}

function post(url: string, options: { body?: string | Buffer; eventId?: string | null; signature?: string } = {}) {
  const body = Buffer.from(options.body ?? BODY);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-signature': options.signature ?? signatureHeader(SECRET, Math.floor(Date.now() / 1000), body),
    'x-service-delivery-id': 'dlv_1',
  };
  if (options.eventId !== null) headers['x-service-event-id'] = options.eventId ?? 'evt_1';
  return postRaw(url, body, headers);
}

describe('startListener', () => {
  it('answers 503 when processing outlasts the budget, and the retry runs the event again', async () => {
    let calls = 0;
    const l = await start({
      budgetMs: 100,
      process: (_e, signal) =>
        new Promise((resolve, reject) => {
          calls += 1;
          if (calls > 1) return resolve();
          signal.addEventListener('abort', () => reject(new Error('stopped')));
        }),
    });
    expect(await post(l.url)).toEqual({ kind: 'answered', status: 503 });
    expect(l.refused[0]).toEqual([503, 'processing took over 0.1 s: stopped']);
    expect(l.events).toHaveLength(0);
    expect(await post(l.url)).toEqual({ kind: 'answered', status: 200 });
    expect(l.events).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('a retry arriving while the first delivery is processed shares its outcome (processed once)', async () => {
    let release!: () => void;
    let calls = 0;
    const l = await start({
      process: () => {
        calls += 1;
        return new Promise<void>((r) => (release = r));
      },
    });
    const a = post(l.url);
    while (calls === 0) await new Promise((r) => setTimeout(r, 5));
    const b = post(l.url);
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect(await Promise.all([a, b])).toEqual([
      { kind: 'answered', status: 200 },
      { kind: 'answered', status: 200 },
    ]);
    expect(calls).toBe(1);
    expect(l.events).toHaveLength(1);
    expect(l.duplicates()).toBe(1);
  });

  it('refuses what is not a valid delivery with a permanent 4xx', async () => {
    const l = await start();
    const base = l.url.replace(/\/hooks$/, '');
    expect(await postRaw(`${base}/other`, Buffer.from(BODY), {})).toMatchObject({ status: 404 });
    expect(await post(l.url, { eventId: null })).toMatchObject({ status: 400 });
    expect(await post(l.url, { body: '{"kind":"job.terminal"}' })).toMatchObject({ status: 400 });
    expect(await post(l.url, { body: 'not json' })).toMatchObject({ status: 400 });
    expect(await post(l.url, { signature: 't=1,v1=zz' })).toMatchObject({ status: 400 });
    expect(await post(l.url, { body: Buffer.alloc(1024 * 1024 + 1, 0x20) })).toMatchObject({ status: 413 });
    expect(l.refused.map(([s, r]) => `${s} ${r}`)).toEqual([
      '404 nothing listens on /other; POST to /hooks',
      '400 the X-Service-Event-Id header is missing',
      '400 the body is not a webhook event (kind, version, timestamp, payload{id,status})',
      '400 the body is not a webhook event (kind, version, timestamp, payload{id,status})',
      expect.stringMatching(/^400 the signature does not match/),
      '413 the body is over 1048576 bytes',
    ]);
    expect(l.events).toHaveLength(0);
  });

  it('refuses methods other than POST', async () => {
    const l = await start();
    const res = await fetch(l.url);
    expect(res.status).toBe(405);
  });
});

describe('startListener under load (loopback only)', () => {
  const MB = 1024 * 1024;

  it('logs a sender that hangs up mid-body as a hang-up, not an internal error, and gives its room back', async () => {
    const l = await start();
    const socket = await openDelivery(l.url, MB, 'dlv_gone');
    socket.write(Buffer.alloc(64 * 1024, 0x20));
    await until(() => l.load().bodyBytes === MB);
    socket.destroy();
    await until(() => l.hungUp.length === 1);
    expect(l.hungUp).toEqual([['dlv_gone', expect.any(Number)]]);
    expect(l.refused).toEqual([]);
    await until(() => l.load().connections === 0);
    expect(l.load()).toMatchObject({ connections: 0, bodyBytes: 0 });
  });

  it('answers 503 before reading a body past the bytes in flight, and 200 again once there is room', async () => {
    const l = await start({ limits: { connections: 16, bodyBytesInFlight: 2 * MB } });
    const held = [await openDelivery(l.url, MB, 'dlv_a'), await openDelivery(l.url, MB, 'dlv_b')];
    await until(() => l.load().bodyBytes === 2 * MB);
    const third = await openDelivery(l.url, MB, 'dlv_c');
    expect(await firstLine(third)).toBe('HTTP/1.1 503 Service Unavailable');
    expect(l.refused).toEqual([[503, expect.stringMatching(/^busy: 2097152 bytes of deliveries/)]]);
    for (const socket of held) socket.destroy();
    await until(() => l.load().bodyBytes === 0);
    expect(await post(l.url)).toEqual({ kind: 'answered', status: 200 });
    expect(l.load().peakBodyBytes).toBe(2 * MB);
  });

  it('closes connections past the limit unanswered', async () => {
    const l = await start({ limits: { connections: 3, bodyBytesInFlight: 8 * MB } });
    const open: Socket[] = [];
    for (let i = 0; i < 3; i++) {
      open.push(await connected(l.url));
      await until(() => l.load().connections === i + 1);
    }
    const extra = await connected(l.url);
    await new Promise((resolve) => extra.once('close', resolve));
    expect(l.dropped()).toBe(1);
    for (const socket of open) socket.destroy();
    await until(() => l.load().connections === 0);
  });

  it('holds what its limits allow in a flood, answers or drops every connection, and holds nothing after', async () => {
    const limits = { connections: 24, bodyBytesInFlight: 4 * MB };
    const l = await start({ limits });
    // 120 connections at once, each declaring 512 KB: half send it all, half hang up half-way.
    const outcomes = await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        const socket = await openDelivery(l.url, MB / 2, `dlv_${i}`).catch(() => undefined);
        if (!socket) return 'dropped';
        const answer = firstLine(socket);
        socket.write(Buffer.alloc(MB / 4, 0x20), () => {
          if (i % 2 === 0) socket.end(Buffer.alloc(MB / 4, 0x20));
          else socket.destroy();
        });
        return answer;
      }),
    );
    await until(() => l.load().connections === 0);
    expect(l.load()).toMatchObject({ connections: 0, bodyBytes: 0 });
    expect(l.load().peakBodyBytes).toBeLessThanOrEqual(limits.bodyBytesInFlight);
    expect(l.refused.filter(([status]) => status === 500)).toEqual([]);
    // Every answer given was a refusal of the body (not an event) or "busy"; nothing else.
    for (const outcome of outcomes) expect(outcome).toMatch(/^(dropped|closed|HTTP\/1\.1 (400|503) .*)$/);
    expect(l.hungUp.length).toBeGreaterThan(0);
  });
});

describe('startListener and slow senders', () => {
  const deadlines = { headersMs: 300, requestMs: 600 };

  /** Send `text` a byte at a time, one every 50 ms, until the listener closes the connection; its answer. */
  async function trickle(socket: Socket, text: string): Promise<string> {
    const answer = firstLine(socket);
    let closed = false;
    socket.once('close', () => (closed = true));
    for (let i = 0; !closed; i = (i + 1) % text.length) {
      socket.write(text[i] as string);
      await new Promise((r) => setTimeout(r, 50));
    }
    return answer;
  }

  it('cuts a sender whose headers trickle in, and still takes a normal delivery', async () => {
    const l = await start({ deadlines });
    const socket = await connected(l.url);
    socket.on('error', () => undefined);
    socket.write('POST /hooks HTTP/1.1\r\nhost: 127.0.0.1\r\n');
    expect(await trickle(socket, 'x-slow: abcdefghijklmnopqrstuvwxyz')).toMatch(/^(HTTP\/1\.1 408 .*|closed)$/);
    expect(await post(l.url)).toEqual({ kind: 'answered', status: 200 });
    expect(l.events).toHaveLength(1);
    await until(() => l.load().connections === 0);
  });

  it('cuts a connection that sends nothing', async () => {
    const l = await start({ deadlines });
    const socket = await connected(l.url);
    socket.on('error', () => undefined);
    expect(await firstLine(socket)).toMatch(/^(HTTP\/1\.1 408 .*|closed)$/);
    await until(() => l.load().connections === 0);
  });

  it('cuts a sender whose body trickles in, and gives its room back', async () => {
    const l = await start({ deadlines });
    const socket = await openDelivery(l.url, 4096, 'dlv_slow');
    expect(await trickle(socket, ' ')).toMatch(/^(HTTP\/1\.1 408 .*|closed)$/);
    await until(() => l.load().connections === 0 && l.load().bodyBytes === 0);
    expect(l.refused.filter(([status]) => status === 500)).toEqual([]);
    expect(await post(l.url)).toEqual({ kind: 'answered', status: 200 });
  });

  it('does not count processing against the deadlines: a delivery processed for longer is answered', async () => {
    const l = await start({ deadlines, process: () => new Promise((resolve) => setTimeout(resolve, 1_000)) });
    expect(await post(l.url)).toEqual({ kind: 'answered', status: 200 });
    expect(l.events).toHaveLength(1);
  });
});

/** A raw connection to the listener, open (resolves once connected). */
function connected(url: string): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A delivery's request line and headers sent, declaring `length` bytes of body; the body is up to the caller. */
async function openDelivery(url: string, length: number, deliveryId: string): Promise<Socket> {
  const socket = await connected(url);
  socket.on('error', () => undefined);
  const { pathname } = new URL(url);
  const head = [
    `POST ${pathname} HTTP/1.1`,
    'host: 127.0.0.1',
    'content-type: application/json',
    `content-length: ${length}`,
  ];
  socket.write(`${[...head, `x-service-delivery-id: ${deliveryId}`].join('\r\n')}\r\n\r\n`);
  return socket;
}

/** The status line the server answers with, or 'closed' when the connection ends without one. */
function firstLine(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n')) resolve(text.slice(0, text.indexOf('\r\n')));
    });
    socket.once('close', () => resolve('closed'));
  });
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

describe('runExec', () => {
  const received: ReceivedEvent = {
    eventId: 'evt_1',
    deliveryId: 'dlv_1',
    signature: 't=1,v1=00',
    rawBody: Buffer.from(BODY),
    event: JSON.parse(BODY),
  };

  it.skipIf(process.platform === 'win32')(
    'stops a command that outlasts the answer budget, with the processes it started',
    async () => {
      const dir = tempDir('simjob-exec-');
      const stop = new AbortController();
      const running = runExec(`sleep 30 & echo $! > "${dir}/pid"; wait`, received, {
        env: process.env,
        signal: stop.signal,
        log: () => undefined,
      });
      let pid = 0;
      for (let i = 0; i < 200 && !pid; i++) {
        await new Promise((r) => setTimeout(r, 10));
        try {
          pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
        } catch {
          // not yet
        }
      }
      stop.abort();
      const error = await running.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ActionFailure);
      expect(error).toMatchObject({ status: 503, message: '--exec did not finish in time and was stopped' });
      await new Promise((r) => setTimeout(r, 50));
      expect(pid).toBeGreaterThan(0);
      expect(alive(pid)).toBe(false);
    },
  );

  it('a non-zero exit is a failure the sender retries (500), and output goes to the log', async () => {
    const lines: string[] = [];
    const error = await runExec('echo "job $SIMJOB_JOB_ID"; exit 3', received, {
      env: process.env,
      signal: new AbortController().signal,
      log: (t) => lines.push(t),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500, message: '--exec exited with code 3' });
    expect(lines.join('')).toBe('job local-01j9x4b8c2m6k0p3q1\n');
  });
});
