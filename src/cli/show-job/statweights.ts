/**
 * Where a finished job is shown (--wait, a batch, `simjob result`), a stat-weights job also gets its weights: in the
 * human view, and in --json as the resource plus a `statWeights` field (additive: every API field stays as it is).
 * A weight that cannot be read (an expired report, a download refused) is a warning and exit 1, never a lost result.
 */
import type { Output } from '../output/io.js';
import type { JobBackend } from '../../core/jobs/backend.js';
import type { Outcome } from '../../core/jobs/outcome.js';
import { SimjobError } from '../../errors.js';
import { terminalSafeLine } from '../../util/safe.js';
import { readStatWeightsMarker } from '../../domain/job-kind.js';
import type { StatWeights } from '../../domain/statweights/weights.js';

export interface WithStatWeights {
  statWeights?: StatWeights;
  /** What --json prints: the resource, with `statWeights` when there are weights. */
  raw: unknown;
  /** The job is a stat-weights run whose weights could not be read. */
  failed: boolean;
}

export interface AttachContext {
  out: Output;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

export async function attachStatWeights(
  ctx: AttachContext,
  backend: JobBackend,
  shown: Outcome,
): Promise<WithStatWeights> {
  if (!readStatWeightsMarker(shown.data.metadata) || !shown.hasResult) return { raw: shown.raw, failed: false };
  try {
    const { loadStatWeights } = await import('../../core/jobs/statweights.js');
    const statWeights = await loadStatWeights(backend, shown.data, { signal: ctx.signal, env: ctx.env });
    if (!statWeights) return { raw: shown.raw, failed: shown.data.status === 'completed' };
    // The human views print it beside the table; --json carries it as `referenceWarning`, and says it here too.
    if (ctx.out.json && statWeights.referenceWarning) {
      ctx.out.warn(`Job ${shown.data.id}: ${terminalSafeLine(statWeights.referenceWarning)}`);
    }
    return { statWeights, raw: { ...(shown.raw as object), statWeights }, failed: false };
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    const why =
      error instanceof SimjobError ? `${error.message}${error.hint ? ` ${error.hint}` : ''}` : (error as Error).message;
    ctx.out.warn(`Job ${shown.data.id}: the stat weights could not be read: ${why}`);
    return { raw: shown.raw, failed: true };
  }
}
