import type { Context } from '../../context.js';
import { exitCodeForState } from '../../jobs/states.js';
import { printResult } from '../../output/views/result.js';
import { checkJobId } from '../ids.js';

export interface ResultOptions {
  top?: number;
  all?: boolean;
}

/** Exit code follows the job: 0 completed, 3 failed/cancelled/timed_out (so `simjob result ID && deploy` is safe). */
export async function run(ctx: Context, [rawId]: string[], options: ResultOptions): Promise<number> {
  const id = checkJobId(rawId);
  const backend = await ctx.backendFor(id);
  const result = await backend.result(id);
  if (ctx.out.json) ctx.out.printJson(result.raw);
  else printResult(ctx.out, result.data, { top: options.all ? Number.POSITIVE_INFINITY : options.top ?? 20 });
  return exitCodeForState(result.data.status);
}
