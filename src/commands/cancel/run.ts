import type { Context } from '../../context.js';
import { checkJobId } from '../ids.js';

export async function run(ctx: Context, [rawId]: string[]): Promise<void> {
  const id = checkJobId(rawId);
  const backend = await ctx.backendFor(id);
  const answer = await backend.cancel(id);
  if (ctx.out.json) return ctx.out.printJson(answer.raw);
  if (answer.data.status === 'cancel_requested') {
    ctx.out.line(`Cancel requested for job ${id}; it stops shortly. Follow it with: simjob status ${id} --wait`);
  } else {
    ctx.out.line(`Job ${id} ${answer.data.status}.`);
  }
}
