/**
 * A local webhook receiver for development (`simjob webhook listen`): verifies every delivery, deduplicates by
 * X-Service-Event-Id, hands each new event to `process` and answers within the spec's 10 s.
 *   2xx  accepted, or a duplicate of an accepted event
 *   400  bad signature, stale/future timestamp, missing headers, a body that is not an event (permanent: spec 6.5)
 *   5xx  processing failed or ran out of time: the event is NOT marked as seen, so the sender's retry runs it again
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '../resources/schemas.js';
import { parseWebhookEvent } from './event.js';
import { memorySeenEvents, type SeenEvents } from './seen.js';
import { verifySignature } from './signature.js';

/** Answer well inside the sender's 10 s, leaving time for the response to travel. */
const ANSWER_BUDGET_MS = 9_000;
const MAX_BODY_BYTES = 1024 * 1024;
/**
 * What a flood may hold: connections open at once (past it a new one is closed unanswered), and bytes of bodies held
 * at once (past it a delivery is answered 503 before its body is read). A sender retries both, and one listener for
 * development never needs more.
 */
const DEFAULT_LIMITS: ListenerLimits = { connections: 64, bodyBytesInFlight: 8 * MAX_BODY_BYTES };
/**
 * How long a sender has for its headers, and for its whole request (headers and body): a delivery is a few kB sent at
 * once, and the service gives up on an answer after 10 s anyway, so a slow sender is cut off long before it could
 * hold the connection slots for good. What happens after the body arrived (processing) is not counted.
 */
const DEFAULT_DEADLINES: ListenerDeadlines = { headersMs: 5_000, requestMs: 10_000 };

export interface ListenerDeadlines {
  headersMs: number;
  requestMs: number;
}

export interface ListenerLimits {
  connections: number;
  bodyBytesInFlight: number;
}

export interface ReceivedEvent {
  eventId: string;
  deliveryId: string;
  signature: string;
  rawBody: Buffer;
  event: WebhookEvent;
}

export interface ListenerOptions {
  secret: string;
  port: number;
  path: string;
  toleranceSeconds: number;
  /** Exec/forward; throws (ActionFailure or anything) when the event must be retried. */
  process(received: ReceivedEvent, signal: AbortSignal): Promise<void>;
  /** A new event was processed and marked as seen. */
  onEvent(received: ReceivedEvent): void;
  onDuplicate(received: ReceivedEvent): void;
  /** A delivery answered with 4xx/5xx, and why. */
  onRefused(status: number, reason: string, deliveryId: string | undefined): void;
  /** The sender closed the connection before its body was complete: nothing was answered. */
  onHungUp(deliveryId: string | undefined, receivedBytes: number): void;
  /** A new connection was closed unanswered: `open` connections, the limit, were open already. */
  onDropped(open: number): void;
  limits?: ListenerLimits;
  deadlines?: ListenerDeadlines;
  budgetMs?: number;
  now?: () => number;
  /** The event ids already processed (seen.ts); by default only in memory, expiring after the tolerance window. */
  seen?: SeenEvents;
}

export interface Listener {
  url: string;
  /** What the listener holds now, and the most body bytes it held at once. */
  load(): { connections: number; bodyBytes: number; peakBodyBytes: number };
  /** Stop accepting, let in-flight deliveries finish, close. */
  close(): Promise<void>;
}

type Answer = { status: number; reason: string };

export async function startListener(options: ListenerOptions): Promise<Listener> {
  const seen = options.seen ?? memorySeenEvents({ ttlMs: options.toleranceSeconds * 1000, now: options.now });
  const inFlight = new Map<string, Promise<Answer>>();
  const budgetMs = options.budgetMs ?? ANSWER_BUDGET_MS;
  const limits = options.limits ?? DEFAULT_LIMITS;
  let connections = 0;
  let bodyBytes = 0;
  let peakBodyBytes = 0;

  async function runOnce(received: ReceivedEvent): Promise<Answer> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), budgetMs);
    try {
      await options.process(received, deadline.signal);
    } catch (error) {
      const status = (error as { status?: number }).status ?? 500;
      const reason = deadline.signal.aborted
        ? `processing took over ${budgetMs / 1000} s: ${(error as Error).message}`
        : (error as Error).message;
      return { status: deadline.signal.aborted ? 503 : status, reason };
    } finally {
      clearTimeout(timer);
    }
    // On disk before the 200: a listener stopped right after answering still knows the event when it restarts.
    await seen.add(received.eventId);
    options.onEvent(received);
    return { status: 200, reason: 'accepted' };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const deliveryId = header(req, 'x-service-delivery-id');
    const refuse = (status: number, reason: string) => {
      options.onRefused(status, reason, deliveryId);
      reply(res, status, { error: reason });
    };
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== options.path) return refuse(404, `nothing listens on ${path}; POST to ${options.path}`);
    if (req.method !== 'POST') return refuse(405, `${req.method} is not accepted; deliveries are POSTs`);
    // Room for the body is taken before any of it is read (the declared length, else the cap) and given back once
    // the delivery is answered, so what a flood holds is bounded and returned.
    const declared = Number(req.headers['content-length']);
    const room = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, MAX_BODY_BYTES) : MAX_BODY_BYTES;
    if (bodyBytes + room > limits.bodyBytesInFlight) {
      return refuse(503, `busy: ${bodyBytes} bytes of deliveries are being received or processed, the most it holds`);
    }
    bodyBytes += room;
    peakBodyBytes = Math.max(peakBodyBytes, bodyBytes);
    try {
      await receive(req, res, deliveryId, refuse);
    } finally {
      bodyBytes -= room;
    }
  }

  type Refuse = (status: number, reason: string) => void;
  async function receive(
    req: IncomingMessage,
    res: ServerResponse,
    deliveryId: string | undefined,
    refuse: Refuse,
  ): Promise<void> {
    const body = await readBody(req);
    if (body.kind === 'hung-up') return options.onHungUp(deliveryId, body.receivedBytes);
    if (body.kind === 'over') return refuse(413, `the body is over ${MAX_BODY_BYTES} bytes`);
    const rawBody = body.bytes;

    const signature = header(req, 'x-service-signature');
    const verdict = verifySignature({
      secret: options.secret,
      header: signature,
      rawBody,
      now: Math.floor((options.now?.() ?? Date.now()) / 1000),
      toleranceSeconds: options.toleranceSeconds,
    });
    if (!verdict.ok) return refuse(400, verdict.reason);
    const eventId = header(req, 'x-service-event-id');
    if (!eventId) return refuse(400, 'the X-Service-Event-Id header is missing');
    const event = parseWebhookEvent(rawBody);
    if (!event) return refuse(400, 'the body is not a webhook event (kind, version, timestamp, payload{id,status})');

    const received: ReceivedEvent = {
      eventId,
      deliveryId: deliveryId ?? '',
      signature: signature ?? '',
      rawBody,
      event,
    };
    if (seen.has(eventId)) {
      options.onDuplicate(received);
      return reply(res, 200, { ok: true, duplicate: true });
    }
    // A retry that arrives while the first delivery is still being processed shares its outcome.
    let pending = inFlight.get(eventId);
    if (!pending) {
      pending = runOnce(received).finally(() => inFlight.delete(eventId));
      inFlight.set(eventId, pending);
    } else {
      options.onDuplicate(received);
    }
    const answer = await pending;
    if (answer.status >= 300) return refuse(answer.status, answer.reason);
    reply(res, 200, { ok: true, duplicate: false });
  }

  const deadlines = options.deadlines ?? DEFAULT_DEADLINES;
  const server = createServer(
    {
      headersTimeout: deadlines.headersMs,
      requestTimeout: deadlines.requestMs,
      // Node looks for late requests this often (30 s by default, which would let a slow sender stay that long).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, deadlines.headersMs / 4)),
    },
    (req, res) => {
      handle(req, res).catch((error: Error) => {
        options.onRefused(500, `internal error: ${error.message}`, header(req, 'x-service-delivery-id'));
        if (!res.headersSent) reply(res, 500, { error: 'internal error' });
      });
    },
  );
  server.maxConnections = limits.connections;
  server.on('drop', () => options.onDropped(connections));
  server.on('connection', (socket) => {
    connections += 1;
    socket.once('close', () => (connections -= 1));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.path}`,
    load: () => ({ connections, bodyBytes, peakBodyBytes }),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.allSettled(inFlight.values());
      // Answers being written finish on their own (every answer closes its connection); a client that holds a
      // connection open without sending anything is cut off.
      const force = setTimeout(() => server.closeAllConnections(), 2_000);
      await closed;
      clearTimeout(force);
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

type Body = { kind: 'bytes'; bytes: Buffer } | { kind: 'over' } | { kind: 'hung-up'; receivedBytes: number };

/** The exact bytes received (never re-serialised): the signature is over them. */
async function readBody(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      // Past the cap the rest is read and dropped, so the sender gets the 413 instead of a reset connection.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
      else if (size > 16 * MAX_BODY_BYTES) req.destroy();
    }
  } catch (error) {
    // The request stream fails only when its connection closed before the body was complete.
    if (!req.complete) return { kind: 'hung-up', receivedBytes: size };
    throw error;
  }
  if (!req.complete) return { kind: 'hung-up', receivedBytes: size };
  return size > MAX_BODY_BYTES ? { kind: 'over' } : { kind: 'bytes', bytes: Buffer.concat(chunks) };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(`${JSON.stringify(body)}\n`);
}
