/** What `compare` compares: a job id, or a saved `--json` output (one result, or a batch's array of results). */
import type { ResultRecord } from '../../../core/resources/schemas.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../errors.js';
import type { JobBackend } from '../../../core/jobs/backend.js';
import { readOutcome, withoutResult } from '../../../core/jobs/outcome.js';
import { readJobArg, type SavedItem } from '../../../core/jobs/saved-json.js';

export interface Source {
  /** As given on the command line. */
  arg: string;
  /** A saved file (or - for stdin); undefined for a job id. */
  file?: string;
  results: ResultRecord[];
  /** For a job id: where its artifacts come from. */
  backend?: JobBackend;
}

export async function loadSource(ctx: Context, arg: string): Promise<Source> {
  const { id, saved } = await readJobArg(ctx, arg);
  if (saved) return { arg, file: saved.file, results: saved.items.map(resultOf) };
  const backend = await ctx.backendFor(id);
  const { data } = await readOutcome(backend, id);
  return { arg, results: [data], backend };
}

/** A job saved without a result (it ended without one) is compared as "no DPS"; a submission has nothing to compare yet. */
function resultOf(item: SavedItem): ResultRecord {
  if (item.result) return item.result;
  const { id, record } = item.job;
  if (!record)
    throw new UsageError(
      `${item.where} is a submission saved without --wait: it holds no result to compare.`,
      `Compare the job itself: simjob compare ${id} …`,
    );
  return withoutResult(record);
}

/** How a result is named in a match: its profile (metadata `profile`, else the actor) and scenario (metadata `scenario`). */
export function keyOf(r: ResultRecord): { profile: string; scenario: string } {
  const meta = r.metadata ?? {};
  const profile = typeof meta.profile === 'string' ? meta.profile : (r.result.summary?.mainActor?.name ?? r.id);
  return { profile, scenario: typeof meta.scenario === 'string' ? meta.scenario : '' };
}
