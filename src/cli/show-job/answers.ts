/**
 * Where a finished job is shown (--wait, `simjob result`), a job made by statweights or droptimizer also gets its
 * answer: in the human view, and in --json as the resource plus one added field (`statWeights`, `droptimizer`);
 * every API field stays as it is.
 */
import type { JobBackend } from '../../core/jobs/backend.js';
import type { Outcome } from '../../core/jobs/outcome.js';
import { isDroptimizerJob } from '../../domain/job-kind.js';
import type { AttachContext, WithStatWeights } from './statweights.js';

export async function attachAnswers(ctx: AttachContext, backend: JobBackend, shown: Outcome): Promise<WithStatWeights> {
  const { attachStatWeights } = await import('./statweights.js');
  const attached = await attachStatWeights(ctx, backend, shown);
  if (!isDroptimizerJob(shown.data.metadata)) return attached;
  const { withDroptimizerAnswer } = await import('../output/views/droptimizer.js');
  return { ...attached, raw: withDroptimizerAnswer(attached.raw, shown.data) };
}
