/**
 * Test controls: injected faults (a status, a code, a Retry-After, a delay or a dropped connection, N times, for
 * requests matching a method and path) and "extra fields" mode, which adds unknown fields to every answer the way
 * a newer server would.
 */
import type { ServerResponse } from 'node:http';
export interface FaultSpec {
  /** Match only this method (any when omitted). */
  method?: string;
  /** Exact pathname, or a RegExp tested against the pathname. */
  path: string | RegExp;
  /** HTTP status to answer with (ignored with `drop`). */
  status: number;
  /** Envelope `code`; by default `rate_limit_exceeded` (429), `queue_unavailable` (503), `internal_error` (500), else `injected_fault`. */
  code?: string;
  /** Envelope `meta`; a sensible default for 429 and 503. */
  meta?: Record<string, unknown> | null;
  /** `Retry-After` header in seconds; none unless given. */
  retryAfter?: number;
  /** How many matching requests it answers; default 1, `Infinity` for all. */
  times?: number;
  /** Replaces the envelope: an object is sent as JSON, a string as is (with `contentType`, default text/html). */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Real milliseconds to wait before answering (or before dropping). */
  delayMs?: number;
  /** Destroy the connection instead of answering. */
  drop?: boolean;
  /** Accept the request and never answer (the connection stays open until the client or the server closes it). */
  hang?: boolean;
  /** Send the status and headers, then one byte of body every this many ms, forever. */
  trickleMs?: number;
  /** A body of exactly this many bytes (a JSON string, streamed in 64 KB chunks). */
  bodyBytes?: number;
  /** With bodyBytes: no Content-Length (chunked), so the client learns the size only by reading. */
  chunked?: boolean;
  /** API only: answer as usual, but with the JSON body rewritten by this function (status and headers kept). */
  mutate?: (body: unknown) => unknown;
  /** Which server: the API (default) or the artifact host. */
  target?: 'api' | 'artifacts';
}

export interface Fault extends FaultSpec {
  remaining: number;
  hits: number;
}

export class Faults {
  readonly list: Fault[] = [];

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, remaining: spec.times ?? 1, hits: 0 };
    this.list.push(fault);
    return fault;
  }

  /** Scripted answers, one per matching request in order; once spent, the server answers as usual. */
  script(
    match: { method?: string; path: string | RegExp; target?: 'api' | 'artifacts' },
    answers: Array<Omit<FaultSpec, 'method' | 'path' | 'target' | 'times'>>,
  ): Fault[] {
    return answers.map((answer) => this.add({ ...match, ...answer, times: 1 }));
  }

  clear(): void {
    this.list.length = 0;
  }

  /** The first live fault matching the request, spent by one. */
  take(target: 'api' | 'artifacts', method: string, path: string): Fault | undefined {
    const fault = this.list.find(
      (f) =>
        f.remaining > 0 &&
        (f.target ?? 'api') === target &&
        (f.method === undefined || f.method.toUpperCase() === method) &&
        (typeof f.path === 'string' ? f.path === path : f.path.test(path)),
    );
    if (!fault) return undefined;
    fault.remaining--;
    fault.hits++;
    return fault;
  }
}

export function defaultCode(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  if (status === 503) return 'queue_unavailable';
  if (status === 500) return 'internal_error';
  return 'injected_fault';
}

export function defaultMeta(status: number): Record<string, unknown> | null {
  if (status === 429) return { scope: 'developer' };
  if (status === 503) return { reason: 'queue_unavailable', queueHealth: 'paused' };
  return null;
}

export const EXTRA_FIELD = '_unknownFieldFromNewerServer';

/**
 * Every object in an answer gains unknown fields (`metadata` is left alone: it is echoed exactly as submitted).
 */
export function addExtraFields(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => addExtraFields(v));
  if (value === null || typeof value !== 'object' || key === 'metadata') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = addExtraFields(v, k);
  out[EXTRA_FIELD] = 'added by the test server';
  out.xFutureObject = { nested: true, list: [1, 2] };
  return out;
}

/**
 * Answer a request with a fault (everything but `mutate`, which the API applies to its real answer): a delay, then
 * a dropped or hanging connection, a trickle, a body of a given size, a text body or a JSON envelope.
 */
export async function answerWithFault(
  res: ServerResponse,
  fault: Fault,
  headers: Record<string, string>,
  envelope: () => unknown,
): Promise<void> {
  if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
  if (fault.drop) return void res.destroy();
  if (fault.hang) return;
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (fault.trickleMs !== undefined) {
    res.writeHead(fault.status, { 'content-type': 'application/json', ...headers });
    res.write('{');
    const timer = setInterval(() => res.write(' '), fault.trickleMs);
    res.on('close', () => clearInterval(timer));
    return;
  }
  if (fault.bodyBytes !== undefined) {
    const length = Math.max(2, fault.bodyBytes);
    res.writeHead(fault.status, {
      'content-type': 'application/json',
      ...headers,
      ...(fault.chunked ? {} : { 'content-length': String(length) }),
    });
    const block = Buffer.alloc(64 * 1024, 'x');
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    res.write('"');
    for (let left = length - 2; left > 0 && !closed; left -= block.length) {
      if (!res.write(left >= block.length ? block : block.subarray(0, left))) {
        await new Promise<void>((resume) => {
          // whichever comes first; the other listener goes too, or a long body piles up 'close' listeners
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resume();
          };
          res.once('drain', done);
          res.once('close', done);
        });
      }
    }
    if (!closed) res.end('"');
    return;
  }
  if (typeof fault.body === 'string') {
    res.writeHead(fault.status, { 'content-type': fault.contentType ?? 'text/html', ...headers });
    return void res.end(fault.body);
  }
  const text = JSON.stringify(fault.body ?? envelope());
  res.writeHead(fault.status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/**
 * What "hostile" mode puts into every string a server answers with: an OSC window-title change ended by BEL, a line
 * erase, a colour, the one-byte C1 CSI, DEL, NUL, a carriage return and a newline. A client that prints any of it
 * raw lets the server drive the user's terminal.
 */
export const HOSTILE_TEXT = '\u001b]0;pwned\u0007\u001b[2K\u001b[31mRED\u009b1m\u007f\u0000\r\nX';

/**
 * Every string in an answer gains HOSTILE_TEXT (and every metadata key too), except the values of `spare` keys
 * (for a test that must still follow job ids or states).
 */
export function addHostileText(value: unknown, spare: ReadonlySet<string>, key = ''): unknown {
  if (typeof value === 'string') return spare.has(key) ? value : `${value}${HOSTILE_TEXT}`;
  if (Array.isArray(value)) return value.map((v) => addHostileText(v, spare, key));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[key === 'metadata' ? `${k}${HOSTILE_TEXT}` : k] = addHostileText(v, spare, k);
  return out;
}
