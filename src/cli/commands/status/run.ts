import type { Context } from '../../context.js';
import type { StatusOptions } from './command.js';
import { checkJobId } from '../../../core/jobs/ids.js';
import { refuseWaitOnlyFlags } from '../wait-flags.js';

export async function run(ctx: Context, [rawId]: string[], options: StatusOptions): Promise<number | void> {
  const id = checkJobId(rawId);
  if (!options.wait) refuseWaitOnlyFlags(options);
  const backend = await ctx.backendFor(id);
  if (options.wait) {
    const { waitAndReport } = await import('../../show-job/wait-command.js');
    return waitAndReport(ctx, backend, id, {
      timeoutMs: options.timeout,
      cancelOnInterrupt: options.cancelOnInterrupt,
      top: options.top,
    });
  }
  const status = await backend.status(id);
  if (ctx.out.json) {
    ctx.out.printJson(status.raw);
    return;
  }
  // The text view (and its formatting) only for text: `status --json` is what scripts poll.
  const { printStatus } = await import('../../output/views/status.js');
  printStatus(ctx.out, id, status.data);
}
