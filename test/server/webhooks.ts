/**
 * `job.terminal` deliveries (spec §6): a signed POST to the client's configured URL, once per job, retried on
 * 408/429/5xx and network errors with a short backoff. Every attempt is recorded.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Job, WebhookConfig, WebhookDelivery } from './types.js';

export const WEBHOOK_ATTEMPTS = 3;
const BACKOFF_MS = 100;

export function sign(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export async function deliver(
  job: Job,
  config: WebhookConfig,
  timestamp: string,
  log: WebhookDelivery[],
): Promise<void> {
  if (!config.url) return;
  const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
  const body = JSON.stringify({
    kind: 'job.terminal',
    version: 'v1',
    timestamp,
    payload: { id: job.id, status: job.status, statusReason: job.statusReason },
  });
  for (let attempt = 1; attempt <= WEBHOOK_ATTEMPTS; attempt++) {
    const deliveryId = `dlv_${randomUUID().replace(/-/g, '')}`;
    const headers = {
      'content-type': 'application/json',
      'x-service-signature': sign(config.secret, Math.floor(Date.now() / 1000), body),
      'x-service-event-id': eventId,
      'x-service-delivery-id': deliveryId,
    };
    const entry: WebhookDelivery = { jobId: job.id, url: config.url, eventId, deliveryId, body, headers, status: null };
    log.push(entry);
    try {
      const res = await fetch(config.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer().catch(() => undefined);
      entry.status = res.status;
      if (res.ok) return;
      if (!(res.status === 408 || res.status === 429 || res.status >= 500)) return;
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, BACKOFF_MS * 2 ** (attempt - 1)));
  }
}
