/** What the transports (direct.ts by hand over net/tls, undici behind a proxy in transport-proxy.ts) share. */
import type { Readable } from 'node:stream';

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
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

/** "30 s", "2 min", "1.5 min": a limit as a person reads it. */
export function describeMs(ms: number): string {
  return ms < 60_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 6000) / 10} min`;
}
