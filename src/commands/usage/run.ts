import type { Context } from '../../context.js';
import { formatNumber, formatTime } from '../../output/format.js';

export async function run(ctx: Context, _args: string[], options: { local?: boolean }): Promise<void> {
  const backend = await ctx.backend(options.local);
  const usage = await backend.usage();
  if (ctx.out.json) return ctx.out.printJson(usage.raw);
  const u = usage.data;
  const limits = u.plan ?? u.limits;
  const reads = u.period?.readsLimit ? `${formatNumber(u.period.readsUsed)} of ${formatNumber(u.period.readsLimit)}` : undefined;
  ctx.out.keyValues([
    ['Period', u.period?.start ? `${formatTime(u.period.start)} → ${formatTime(u.period.end) ?? 'now'}` : undefined],
    ['Sims run', u.period?.simsRun ?? undefined],
    ['API reads', reads],
    ['Active jobs', u.snapshot?.activeJobs === undefined || u.snapshot?.activeJobs === null ? undefined : `${u.snapshot.activeJobs}${limits?.maxActiveJobs ? ` of ${limits.maxActiveJobs}` : ''} (${u.snapshot.queuedJobs ?? 0} queued, ${u.snapshot.runningJobs ?? 0} running)`],
    ['Max runtime', limits?.maxRuntimeSeconds ? `${formatNumber(limits.maxRuntimeSeconds)} s (default ${formatNumber(limits.defaultRuntimeSeconds ?? 300)} s)` : undefined],
    ['Max queue', limits?.maxQueueSeconds ? `${formatNumber(limits.maxQueueSeconds)} s (default ${formatNumber(limits.defaultQueueSeconds ?? 1800)} s)` : undefined],
    ['vCPUs per job', limits?.vcpuPerJob ?? undefined],
    ['Max variants', limits?.maxSimcVariants === null ? 'no cap' : limits?.maxSimcVariants ?? undefined],
    ['High priority fee', limits?.priorityFeeCredits?.high === undefined || limits?.priorityFeeCredits?.high === null ? undefined : `${formatNumber(limits.priorityFeeCredits.high)} credits`],
  ]);
}
