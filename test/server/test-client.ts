/** Plain-fetch helpers for the test server's own tests. */
import { expect } from 'vitest';
import type { TestServer } from './index.js';

export const KEY = 'sk_test_good';
export const PROFILE = 'mage="Niike"\nlevel=80\nspec=arcane\n';

/** Response bodies are asserted field by field, so they are read loosely. */
export type Json = any;

export interface Reply {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface CallOptions {
  json?: unknown;
  text?: string;
  /** API key; null sends no Authorization header. */
  key?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export async function call(server: TestServer, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const url = new URL(path, server.url);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? KEY : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  } else if (opts.text !== undefined) {
    body = opts.text;
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: Json = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export function submitBody(
  extra: Record<string, unknown> = {},
  metadata?: Record<string, string>,
): Record<string, unknown> {
  return { build: { channel: 'nightly' }, profile: { text: PROFILE }, ...(metadata ? { metadata } : {}), ...extra };
}

export function submit(
  server: TestServer,
  extra: Record<string, unknown> = {},
  opts: CallOptions & { metadata?: Record<string, string> } = {},
) {
  return call(server, 'POST', '/v1/sim/jobs', { json: submitBody(extra, opts.metadata), ...opts });
}

/** Submit and return the new job id (asserting a 200). */
export async function newJob(
  server: TestServer,
  extra: Record<string, unknown> = {},
  metadata?: Record<string, string>,
  key?: string,
): Promise<string> {
  const r = await submit(server, extra, { metadata, key });
  expect(r.status, r.text).toBe(200);
  return r.body.id as string;
}

export const get = (server: TestServer, path: string, opts: CallOptions = {}) => call(server, 'GET', path, opts);

/** The error envelope of notes §3 with the request id of the header. */
export function expectEnvelope(r: Reply, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.body).toMatchObject({ code, error: expect.any(String) });
  expect(r.body).toHaveProperty('meta');
  expect(r.body.requestId).toMatch(/^req_[0-9a-f]{32}$/);
  expect(r.headers.get('x-request-id')).toBe(r.body.requestId);
}

/** Every answer the server gave that 1.19.1 describes kept to its schema. */
export function expectResponsesValid(server: TestServer): void {
  const bad = server.requests.filter((r) => r.responseValidation?.valid === false);
  expect(bad.map((r) => `${r.method} ${r.path} ${r.status}: ${r.responseValidation?.errors.join('; ')}`)).toEqual([]);
}
