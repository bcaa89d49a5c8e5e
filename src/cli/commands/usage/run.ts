import type { Context } from '../../context.js';
import type { UsageOptions } from './command.js';
import type { Usage } from '../../../core/resources/schemas.js';
import { formatNumber, formatTime } from '../../../util/format.js';
import { terminalSafeLine } from '../../../util/safe.js';

export async function run(ctx: Context, _args: string[], options: UsageOptions): Promise<void> {
  const backend = await ctx.backend(options.local);
  const usage = await backend.usage();
  if (ctx.out.json) return ctx.out.printJson(usage.raw);
  const u = usage.data;
  const limits = u.plan ?? u.limits;
  const reads = u.period?.readsLimit
    ? `${formatNumber(u.period.readsUsed)} of ${formatNumber(u.period.readsLimit)}`
    : undefined;
  ctx.out.keyValues([
    ['Period', u.period?.start ? `${formatTime(u.period.start)} → ${formatTime(u.period.end) ?? 'now'}` : undefined],
    ['Sims run', u.period?.simsRun ?? undefined],
    ['Credits used', creditsUsed(u, limits)],
    ['API reads', reads],
    [
      'Active jobs',
      u.snapshot?.activeJobs === undefined || u.snapshot?.activeJobs === null
        ? undefined
        : `${u.snapshot.activeJobs}${limits?.maxActiveJobs ? ` of ${limits.maxActiveJobs}` : ''} (${u.snapshot.queuedJobs ?? 0} queued, ${u.snapshot.runningJobs ?? 0} running)`,
    ],
    [
      'Credits per job',
      limits?.maxCreditsPerJob
        ? `${formatNumber(limits.maxCreditsPerJob)} max (default ${formatNumber(limits.defaultCreditsPerJob ?? 9600)})`
        : undefined,
    ],
    [
      'Credit rate',
      limits?.creditsPerSecond ? `${formatNumber(limits.creditsPerSecond)} credits per second of simc` : undefined,
    ],
    ['Max runtime', maxRuntime(limits)],
    [
      'Max queue',
      limits?.maxQueueSeconds
        ? `${formatNumber(limits.maxQueueSeconds)} s (default ${formatNumber(limits.defaultQueueSeconds ?? 1800)} s)`
        : undefined,
    ],
    ['vCPUs per job', limits?.vcpuPerJob ?? undefined],
    ['Pool', limits?.pool ? terminalSafeLine(limits.pool) : undefined],
    [
      'Max variants',
      limits?.maxSimcVariants === null
        ? 'no cap'
        : typeof limits?.maxSimcVariants === 'number'
          ? formatNumber(limits.maxSimcVariants)
          : undefined,
    ],
    [
      'High priority fee',
      limits?.priorityFeeCredits?.high === undefined || limits?.priorityFeeCredits?.high === null
        ? undefined
        : `${formatNumber(limits.priorityFeeCredits.high)} credits`,
    ],
  ]);
}

/** The deprecated seconds fields, or (when a newer server leaves them null) what the credit budget buys. */
function maxRuntime(limits: Usage['plan']): string | undefined {
  if (limits?.maxRuntimeSeconds)
    return `${formatNumber(limits.maxRuntimeSeconds)} s (default ${formatNumber(limits.defaultRuntimeSeconds ?? 300)} s)`;
  const rate = limits?.creditsPerSecond;
  if (!limits?.maxCreditsPerJob || !rate) return undefined;
  const seconds = (credits: number) => formatNumber(Math.floor(credits / rate));
  return `about ${seconds(limits.maxCreditsPerJob)} s (default about ${seconds(limits.defaultCreditsPerJob ?? 9600)} s), from the credit budget`;
}

/**
 * The usage resource has no credit total, so it is worked out from what it has: sims run × their average runtime ×
 * the credit rate (1 credit per vCPU-second). Billing rounds each run up to a whole second and also charges runs
 * that failed or were cancelled mid-run, so this is "about", and the dashboard has the exact figure.
 */
function creditsUsed(u: Usage, limits: Usage['plan']): string | undefined {
  const sims = u.period?.simsRun;
  if (typeof sims !== 'number') return undefined;
  if (sims === 0) return '0 this period (no sims completed)';
  const rate = limits?.creditsPerSecond ?? limits?.vcpuPerJob;
  const seconds = u.period?.avgRuntimeSeconds;
  if (!rate || typeof seconds !== 'number') return undefined;
  const total = formatNumber(Math.round(sims * seconds * rate));
  const each = seconds.toFixed(seconds < 10 ? 1 : 0);
  return `about ${total} this period (${formatNumber(sims)} completed × ${each} s average × ${formatNumber(rate)} credits/s)`;
}
