/** What every route handler can reach. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Account, Accounts } from './accounts.js';
import type { Clock } from './clock.js';
import type { Engine } from './engine.js';
import { notFound } from './http.js';
import type { ArtifactRecord, Job, Settings } from './types.js';
import type { ViewContext } from './views.js';

export interface ServerContext {
  accounts: Accounts;
  engine: Engine;
  clock: Clock;
  settings: Settings;
  /** Every artifact by id, registered when its job ends. */
  registry: Map<string, ArtifactRecord>;
  views: ViewContext;
  extras: { on: boolean };
  /** Hostile mode: HOSTILE_TEXT in every string answered, but for the values of `spare` keys. */
  hostile: { on: boolean; spare: ReadonlySet<string> };
}

/** One API call as a handler sees it. */
export interface Call {
  account: Account;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The raw body; null when it was over the 3 MB limit. */
  bytes: Buffer | null;
}

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A job of the calling client; other clients' jobs do not exist for it (404). */
export function ownJob(ctx: ServerContext, call: Call): Job {
  const id = call.params.id ?? '';
  const job = ctx.engine.jobs.get(id);
  if (!job || job.owner !== call.account.key) throw notFound('Job', id);
  return job;
}

export function activeHeaders(ctx: ServerContext, account: Account): Record<string, string> {
  return {
    'x-active-jobs': String(ctx.engine.activeJobs(account.key).length),
    'x-max-active-jobs': String(account.limits.maxActiveJobs),
  };
}
