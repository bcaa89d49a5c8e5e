/**
 * Webhook events of local jobs, in the local store:
 *   jobs/<id>/webhook-subscription.json  {url, profile} chosen at submit (no secret), once the job asked for one
 *   jobs/<id>/webhook.json               the delivery record (deliver.ts): event id, body, attempts, state
 *   webhooks/<id>                        outbox marker: the event still has to be delivered
 * onTerminal only writes the record and the marker (quick: the caller may be `simjob cancel`); the worker delivers,
 * with retries, and keeps running while deliveries are pending. A worker that stops mid-way leaves the marker and
 * the record, so the next one resumes with the same event id and never re-sends a delivered event.
 */
import { promises as fs, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Config } from '../config/resolve.js';
import type { LocalJob, LocalStore } from '../local/store.js';
import {
  deliverTerminalEvent,
  fileRecordStore,
  newDeliveryRecord,
  type RecordStore,
  type WebhookTarget,
} from './deliver.js';
import { webhookUrl } from './target.js';
import { readJson } from '../../util/data-files.js';
import { RECORDS } from '../record-schemas.js';

const RECORD_FILE = 'webhook.json';
export const SUBSCRIPTION_FILE = 'webhook-subscription.json';

interface Subscription {
  url: string;
  profile: string;
}

const outboxDir = (store: LocalStore) => join(store.root, 'webhooks');
const records = (store: LocalStore, id: string): RecordStore => fileRecordStore(store.file(id, RECORD_FILE));

/** The job-folder file that remembers where the event goes, written with the job at submit. */
export function subscriptionFile(target: WebhookTarget, profile: string): { data: string } {
  return { data: `${JSON.stringify({ url: target.url, profile } satisfies Subscription)}\n` };
}

/** For onTerminal: record the event (pending) and put it in the outbox. No network. */
export async function queueTerminalEvent(job: LocalJob, store: LocalStore): Promise<void> {
  if (!job.webhook) return;
  const record = records(store, job.id);
  if (!(await record.read())) await record.write(newDeliveryRecord(job));
  await fs.mkdir(outboxDir(store), { recursive: true });
  await fs.writeFile(join(outboxDir(store), job.id), '');
}

/**
 * Job ids whose event is not delivered (or given up) yet. Synchronous, like the job store's reads: every local
 * command asks, and `fs.promises` would load fs/promises and the readline it brings.
 */
export async function pendingDeliveries(store: LocalStore): Promise<string[]> {
  try {
    return readdirSync(outboxDir(store)).filter((name) => name.startsWith('local-'));
  } catch {
    return [];
  }
}

/** The worker's side: delivers every outbox event, each in the background, until they end or the worker stops. */
export class LocalDeliveries {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: LocalStore,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: (line: string) => void,
  ) {}

  /** Deliveries under way (including waits between attempts): the worker stays while there are any. */
  get active(): boolean {
    return this.inFlight.size > 0;
  }

  /** Start a delivery for each outbox event not being delivered yet. */
  async tick(): Promise<void> {
    for (const id of await pendingDeliveries(this.store)) {
      if (this.inFlight.has(id) || this.stopping.signal.aborted) continue;
      const run = this.deliver(id)
        .catch(async (error: Error) => {
          // Never leave a marker that cannot be delivered: it would keep the worker alive forever.
          this.log(`webhook for ${id} failed: ${error.message}`);
          await this.finish(id);
        })
        .finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, run);
    }
  }

  /** Stop waiting and sending; pending events stay in the outbox for the next worker. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled(this.inFlight.values());
  }

  private async deliver(id: string): Promise<void> {
    const job = await this.store.readJob(id);
    if (!job) return this.finish(id);
    const record = records(this.store, id);
    const target = await this.target(id);
    if (!target) {
      const current = (await record.read()) ?? newDeliveryRecord(job);
      if (current.state === 'pending') {
        const reason =
          'no webhook URL or signing secret where the local worker runs: store the secret with `simjob webhook secret set`';
        await record.write({ ...current, state: 'failed', finishedAt: new Date().toISOString(), reason });
        this.log(`webhook ${current.eventId} for ${id}: not sent, ${reason}`);
      }
      return this.finish(id);
    }
    const result = await deliverTerminalEvent({
      job,
      target,
      store: record,
      signal: this.stopping.signal,
      log: this.log,
    });
    if (result.state !== 'pending') await this.finish(id);
  }

  /** The URL chosen at submit; the secret as of now (from the worker's environment, or the profile's credentials). */
  private async target(id: string): Promise<WebhookTarget | undefined> {
    // A subscription that is not one (edited by hand) fails the delivery naming the file (deliver's catch logs it).
    const subscription = await readJson<Subscription>(this.store.file(id, SUBSCRIPTION_FILE), RECORDS.subscription);
    const config = new Config(this.env, { profile: subscription?.profile });
    const url = subscription?.url ?? webhookUrl(config, this.env);
    const secret = config.webhookSecret();
    return url && secret ? { url, secret } : undefined;
  }

  private async finish(id: string): Promise<void> {
    await fs.rm(join(outboxDir(this.store), id), { force: true });
  }
}
