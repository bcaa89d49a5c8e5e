/**
 * One raw POST, as a webhook sender makes it: the exact body bytes, the given headers, no redirects followed, no
 * keep-alive (a delivery is a one-off), and a hard limit on how long the receiver has to answer.
 * Not the API's transport (api/transport.ts): that one carries the proxy settings for the service, while webhook
 * receivers are usually on this machine.
 */
import type { IncomingMessage } from 'node:http';
import { isRetryableStatus } from '../resources/enums.js';

/** Spec 6.5: a receiver that has not answered within 10 s is treated as failed (and retried). */
const ANSWER_TIMEOUT_MS = 10_000;

export type PostOutcome =
  { kind: 'answered'; status: number } | { kind: 'no_answer'; error: string; timedOut: boolean };

export interface PostOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The headers of a delivery as the service sends them (spec §6). */
export function deliveryHeaders(d: { signature: string; eventId: string; deliveryId: string }): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-service-signature': d.signature,
    'x-service-event-id': d.eventId,
    'x-service-delivery-id': d.deliveryId,
  };
}

export async function postRaw(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  options: PostOptions = {},
): Promise<PostOutcome> {
  const target = new URL(url);
  // Loaded on first delivery only: this module is on the path of every local command (local backend →
  // webhook/local.ts → deliver.ts), and most of them deliver nothing.
  const { request: send } = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const timeoutMs = options.timeoutMs ?? ANSWER_TIMEOUT_MS;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const req = send(target, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-length': String(body.length), connection: 'close' },
    });
    const timer = setTimeout(() => {
      finish({ kind: 'no_answer', error: `no answer within ${timeoutMs / 1000} s`, timedOut: true });
      req.destroy();
    }, timeoutMs);
    const onAbort = () => {
      finish({ kind: 'no_answer', error: 'stopped', timedOut: false });
      req.destroy();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    req.on('response', (res: IncomingMessage) => {
      // The status is the answer; the body is drained and dropped so the socket closes.
      finish({ kind: 'answered', status: res.statusCode ?? 0 });
      res.on('error', () => undefined);
      res.resume();
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({ kind: 'no_answer', error: error.code ?? error.message, timedOut: false }),
    );
    req.end(body);
  });
}

/** Spec 6.5: 2xx is success; 408, 429 and 5xx (and no answer) are retried; any other status is permanent. */
export function isRetryableOutcome(outcome: PostOutcome): boolean {
  if (outcome.kind === 'no_answer') return true;
  return isRetryableStatus(outcome.status);
}

export function isSuccess(outcome: PostOutcome): boolean {
  return outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300;
}

export function describeOutcome(outcome: PostOutcome): string {
  return outcome.kind === 'answered' ? `HTTP ${outcome.status}` : outcome.error;
}
