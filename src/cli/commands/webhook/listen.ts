import { join } from 'node:path';
import { dataDir } from '../../../core/config/paths.js';
import type { Context } from '../../context.js';
import type { ListenOptions } from './command.js';
import { UsageError } from '../../../errors.js';
import { terminalSafeLine as safe } from '../../../util/safe.js';
import { forwardDelivery, runExec } from '../../../core/webhook/actions.js';
import { startListener, type Listener, type ReceivedEvent } from '../../../core/webhook/listen.js';
import { fileSeenEvents } from '../../../core/webhook/seen.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../../../core/webhook/signature.js';
import { LISTEN_PATH } from '../../../core/webhook/target.js';
import { readSecret } from './inputs.js';

const DEFAULT_PORT = 8790;
/** In the data folder: the event ids `webhook listen` has processed (seen.ts). */
const SEEN_FILE = 'webhook-listen-seen.json';

/**
 * Receive deliveries on 127.0.0.1 until Ctrl-C (exit 0: stopping is the normal end of a listener) or --max-events.
 * stdout gets one line per new event: human, or with --json one JSON object per line (`{eventId, deliveryId,
 * event}`), the one command whose --json is a stream rather than a single document.
 */
export async function run(ctx: Context, _args: string[], options: ListenOptions): Promise<number> {
  const secret = await readSecret(ctx, options.secretFile);
  const out = ctx.out;
  let accepted = 0;
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));

  const print = (received: ReceivedEvent) => {
    const { event, eventId, deliveryId } = received;
    if (out.json) return out.printJsonLine({ eventId, deliveryId, event });
    const { payload } = event;
    // Everything in an event is the sender's text: escaped before simjob colours it.
    const status = payload.status === 'completed' ? out.c.green(payload.status) : out.c.red(safe(payload.status));
    const reason = payload.statusReason ? `  ${out.c.dim(safe(payload.statusReason))}` : '';
    out.line(
      `${safe(event.timestamp)}  ${safe(event.kind)}  ${safe(payload.id)}  ${status}  ${out.c.dim(safe(eventId))}${reason}`,
    );
  };

  const toleranceSeconds = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  // Processed event ids survive a restart (data folder), each kept for the signature tolerance window.
  const seen = await fileSeenEvents(join(dataDir(ctx.env), SEEN_FILE), {
    ttlMs: toleranceSeconds * 1000,
    onProblem: (text) => out.warn(text),
  });
  const dropped = droppedConnections((text) => out.warn(text));
  let listener: Listener;
  try {
    listener = await startListener({
      secret,
      port: options.port ?? DEFAULT_PORT,
      path: options.path ?? LISTEN_PATH,
      toleranceSeconds,
      seen,
      process: async (received, signal) => {
        const log = (text: string) => out.err(text);
        // Both run to their end (a failed forward must not leave the command running unwatched); any failure fails.
        const results = await Promise.allSettled([
          options.forwardTo ? forwardDelivery(options.forwardTo, received, signal, 8_000) : undefined,
          options.exec ? runExec(options.exec, received, { env: ctx.env, signal, log }) : undefined,
        ]);
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      },
      onEvent: (received) => {
        print(received);
        accepted += 1;
        if (options.maxEvents !== undefined && accepted >= options.maxEvents) stop();
      },
      onDuplicate: (received) =>
        out.notice(
          `Duplicate delivery ${safe(received.deliveryId ?? '')} of event ${safe(received.eventId)}: answered 200, not processed again.`,
        ),
      onRefused: (status, reason, deliveryId) => {
        const what = status >= 500 ? `answered ${status} so the sender retries` : `answered ${status}`;
        out.warn(`Delivery ${deliveryId ?? '(no delivery id)'} ${what}: ${reason}.`);
      },
      onHungUp: (deliveryId, receivedBytes) => {
        const delivery = `Delivery ${deliveryId ?? '(no delivery id)'}`;
        out.warn(
          `${delivery}: the connection closed after ${receivedBytes} bytes, before the body was complete; nothing answered.`,
        );
      },
      onDropped: (open) => dropped.add(open),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(
        `Port ${options.port ?? DEFAULT_PORT} on 127.0.0.1 is already in use.`,
        'Pick another with --port, or --port 0 for any free port.',
      );
    }
    throw error;
  }
  if (options.forwardTo && new URL(options.forwardTo).href === new URL(listener.url).href) {
    await listener.close();
    throw new UsageError('--forward-to points at this listener itself.', "Forward to your application's URL instead.");
  }

  // The URL is what the user came for: shown even with --quiet.
  out.err(`Listening for webhook deliveries on ${listener.url} (Ctrl-C to stop)\n`);
  out.notice(
    `Give senders that URL, path and all: local jobs \`simjob config set webhook.url ${listener.url}\` (or ` +
      `SIMJOB_WEBHOOK_URL); the test server \`npm run try-server -- --webhook-url ${listener.url}\`; the service ` +
      'a public HTTPS URL that forwards here (Clients & Keys → your client → Webhook).',
  );
  const onAbort = () => stop();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal.aborted) stop();
  await stopped;
  ctx.signal.removeEventListener('abort', onAbort);
  await listener.close();
  dropped.flush();
  out.notice(`Stopped after ${accepted} event${accepted === 1 ? '' : 's'}.`);
  return 0;
}

/**
 * Connections closed unanswered because the listener was full, told once a second at most: a flood of them would
 * otherwise bury everything else on stderr.
 */
function droppedConnections(warn: (text: string) => void) {
  let count = 0;
  let open = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (count === 0) return;
    const closed = `Closed ${count} new connection${count === 1 ? '' : 's'} unanswered`;
    warn(`${closed}: ${open} were open, the most it takes at once (senders retry).`);
    count = 0;
  };
  return {
    add(openNow: number) {
      count += 1;
      open = openNow;
      timer ??= setTimeout(flush, 1_000).unref();
    },
    flush,
  };
}
