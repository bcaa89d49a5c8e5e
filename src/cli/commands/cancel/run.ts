import type { Context } from '../../context.js';
import { ApiError } from '../../../errors.js';
import { terminalSafeLine } from '../../../util/safe.js';
import { checkJobId } from '../../../core/jobs/ids.js';

export async function run(ctx: Context, [rawId]: string[]): Promise<void> {
  const id = checkJobId(rawId);
  const backend = await ctx.backendFor(id);
  let answer;
  try {
    answer = await backend.cancel(id);
  } catch (error) {
    // Cancelling is idempotent: a job that is already cancelled (perhaps by our own retried request) is a success.
    if (error instanceof ApiError && error.code === 'job_not_cancellable' && error.meta?.status === 'cancelled') {
      if (ctx.out.json) return ctx.out.printJson({ success: true, id, status: 'cancelled' });
      ctx.out.line(`Job ${id} is already cancelled.`);
      return;
    }
    throw error;
  }
  if (ctx.out.json) return ctx.out.printJson(answer.raw);
  if (answer.data.status === 'cancel_requested') {
    ctx.out.line(`Cancel requested for job ${id}; it stops shortly. Follow it with: simjob status ${id} --wait`);
  } else {
    ctx.out.line(`Job ${id} ${terminalSafeLine(String(answer.data.status))}.`);
  }
}
