/** HTTP plumbing shared by the API and the artifact host: errors as envelopes, bodies, request ids. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Meta = Record<string, unknown> | null;

/** A non-2xx answer: becomes `{error, code, meta, requestId}` (notes §3). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly meta: Meta = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const invalid = (message: string, meta: Meta = null) => new ApiFailure(400, 'invalid_request', message, meta);
export const notFound = (what: string, id?: string) =>
  new ApiFailure(
    404,
    'not_found',
    id === undefined ? `${what} not found.` : `${what} ${id} not found.`,
    id === undefined ? null : { id },
  );

export function newRequestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}

export const MB = 1024 * 1024;

/** The whole body, or `null` past `limit` bytes (the rest is drained so the client can read the 413). */
export async function readBody(req: IncomingMessage, limit: number): Promise<{ bytes: Buffer | null; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return { bytes: size > limit ? null : Buffer.concat(chunks), size };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

export function envelope(failure: ApiFailure, requestId: string) {
  return { error: failure.message, code: failure.code, meta: failure.meta, requestId };
}

/** The media type without parameters, lower-cased. */
export function mediaType(header: string | undefined): string | null {
  if (!header) return null;
  return header.split(';')[0]?.trim().toLowerCase() || null;
}

export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
