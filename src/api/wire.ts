/** What the two transports (node:http in transport.ts, undici behind a proxy in transport-proxy.ts) share. */
import type { Readable } from 'node:stream';

export interface HttpRequestOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Inactivity limit: no response headers, or no body bytes, for this long fails the request. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export class TransportError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}
