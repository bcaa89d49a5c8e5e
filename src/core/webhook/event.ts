import { WebhookEvent } from '../resources/schemas.js';

/** A delivery's raw body as a webhook event, or undefined when it is not JSON or not an event. */
export function parseWebhookEvent(rawBody: Buffer): WebhookEvent | undefined {
  try {
    const parsed = WebhookEvent.safeParse(JSON.parse(rawBody.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
