import type { Context } from '../../context.js';
import type { JobBackend } from '../../jobs/backend.js';
import type { PreparedSubmission, SubmitOptions } from './run.js';
import { submitOne } from './run.js';

/** Several profiles: submitted one after another, ids printed as they are accepted. */
export async function submitBatch(ctx: Context, backend: JobBackend, prepared: PreparedSubmission[], options: SubmitOptions): Promise<number> {
  const accepted: unknown[] = [];
  for (const p of prepared) {
    const submitted = await submitOne(backend, p, options);
    accepted.push(submitted.raw);
    if (!ctx.out.json) ctx.out.line(`${p.profile.source}\t${submitted.data.id ?? ''}${submitted.replay ? '\t(replay)' : ''}`);
  }
  if (ctx.out.json) ctx.out.printJson(accepted);
  return 0;
}
