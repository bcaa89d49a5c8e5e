/**
 * Where local jobs' events go: the URL from SIMJOB_WEBHOOK_URL or the profile's `webhook.url`, the signing secret
 * from SIMJOB_WEBHOOK_SECRET or the profile's credentials (`simjob webhook secret set`). Both are needed, as on
 * the service, where a subscribing job without them is refused with webhook_not_configured.
 */
import type { Config } from '../config/resolve.js';
import { parseBaseUrl } from '../config/keys.js';
import { UsageError } from '../../errors.js';
import type { WebhookTarget } from './deliver.js';

/** Where `simjob webhook listen` receives unless told otherwise (--path). */
export const LISTEN_PATH = '/webhooks';

const NOT_CONFIGURED_HINT =
  'Set the receiver with `simjob config set webhook.url http://127.0.0.1:8790/webhooks` (or SIMJOB_WEBHOOK_URL) and the signing secret with `simjob webhook secret set` (or SIMJOB_WEBHOOK_SECRET), or submit without --webhook.';

/** The receiver's URL as configured (an empty SIMJOB_WEBHOOK_URL counts as unset), not yet checked. */
export function webhookUrl(config: Pick<Config, 'stringSetting'>, env: NodeJS.ProcessEnv): string | undefined {
  return env.SIMJOB_WEBHOOK_URL || config.stringSetting('webhook.url') || undefined;
}

/**
 * At submit time, like the service: a local job with --webhook needs both the URL and the secret, else it is
 * refused, naming the service's code webhook_not_configured. Exit 2, not an API error's 1: what is missing is a
 * setting of this machine, which the hint says how to set.
 */
export function requireWebhookTarget(
  config: Pick<Config, 'stringSetting' | 'webhookSecret'>,
  env: NodeJS.ProcessEnv,
): WebhookTarget {
  const raw = webhookUrl(config, env);
  const secret = config.webhookSecret();
  if (raw && secret)
    return { url: parseBaseUrl(raw, env.SIMJOB_WEBHOOK_URL ? 'SIMJOB_WEBHOOK_URL' : 'webhook.url'), secret };
  const missing = [!raw && 'no URL', !secret && 'no signing secret'].filter(Boolean).join(' and ');
  throw new UsageError(
    `This local job asks for a webhook, but ${missing} is configured (webhook_not_configured).`,
    NOT_CONFIGURED_HINT,
  );
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A delivery URL that is obviously not a listener's: none listens at the bare root of a host, and on this machine
 * `simjob webhook listen` receives on /webhooks. Without this the job ends fine and the 404 shows only in the
 * listener's log. A warning, not an error: a receiver of one's own may listen anywhere.
 */
export function listenerUrlWarning(raw: string, source: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined; // requireWebhookTarget has said what is wrong with it
  }
  const path = url.pathname;
  const listen = `\`simjob webhook listen\` receives on ${LISTEN_PATH} (it prints its full URL)`;
  if (path === '/' || path === '') {
    return `${source} ${raw} has no path, so the event goes to / where no receiver listens; ${listen}: use ${url.origin}${LISTEN_PATH}.`;
  }
  if (LOOPBACK.has(url.hostname) && path.replace(/\/+$/, '') !== LISTEN_PATH) {
    return `${source} ${raw} is on this machine with the path ${path}, but ${listen}; unless it was started with --path ${path}, use ${url.origin}${LISTEN_PATH}.`;
  }
  return undefined;
}
