/** Usage, credits and builds (notes §2.10–§2.12, §10–§12). */
import { CREDITS_PER_SECOND, VCPUS } from './accounts.js';
import { BUILDS, buildView } from './builds.js';
import { activeHeaders, type Answer, type Call, type ServerContext } from './context.js';
import { invalid, notFound } from './http.js';
import { defaultCreditsPerJob, defaultQueueSeconds, defaultRuntimeSeconds, maxCreditsPerJob } from './submit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function getUsage(ctx: ServerContext, call: Call): Answer {
  const { account } = call;
  const now = new Date(ctx.clock.now());
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const mine = [...ctx.engine.jobs.values()].filter((j) => j.owner === account.key);
  const done = mine.filter((j) => j.status === 'completed' && (j.completedAt ?? 0) >= start);
  const active = ctx.engine.activeJobs(account.key);
  const l = account.limits;
  const plan = {
    maxActiveJobs: l.maxActiveJobs,
    maxCreditsPerJob: maxCreditsPerJob(account),
    defaultCreditsPerJob: defaultCreditsPerJob(account),
    maxRuntimeSeconds: l.secondsFieldsNull ? null : l.maxRuntimeSeconds,
    defaultRuntimeSeconds: l.secondsFieldsNull ? null : defaultRuntimeSeconds(account),
    maxQueueSeconds: l.maxQueueSeconds,
    defaultQueueSeconds: defaultQueueSeconds(account),
    creditsPerSecond: CREDITS_PER_SECOND,
    vcpuPerJob: VCPUS,
    maxSimcVariants: l.maxSimcVariants ?? null,
    pool: 'standard',
    priorityFeeCredits: { high: l.priorityFeeCredits },
  };
  return {
    status: 200,
    body: {
      period: {
        start: ctx.clock.iso(start),
        end: ctx.clock.iso(end),
        simsRun: done.length,
        avgRuntimeSeconds: done.length
          ? done.reduce((n, j) => n + (j.simDurationMs ?? 0), 0) / done.length / 1000
          : null,
        readsUsed: account.readsUsed,
        readsLimit: null,
        readsCapResetAt: null,
      },
      snapshot: {
        activeJobs: active.length,
        queuedJobs: active.filter((j) => j.status === 'pending' || j.status === 'queued').length,
        runningJobs: active.filter((j) => j.status === 'starting' || j.status === 'running').length,
      },
      plan,
      limits: plan, // the deprecated alias, identical (openapi 1.19.1)
    },
    headers: activeHeaders(ctx, account),
  };
}

export function getCredits(_ctx: ServerContext, call: Call): Answer {
  return { status: 200, body: { purchased: call.account.available, reserved: call.account.reserved, grants: [] } };
}

export function listBuilds(ctx: ServerContext): Answer {
  return {
    status: 200,
    body: { generatedAt: ctx.clock.iso(), builds: BUILDS.filter((b) => b.channel).map((b) => buildView(b, true)) },
  };
}

export function getBuild(_ctx: ServerContext, call: Call): Answer {
  const id = call.params.id ?? '';
  if (!UUID.test(id)) throw invalid(`Build id must be a UUID, got '${id}'.`);
  const build = BUILDS.find((b) => b.id === id.toLowerCase());
  if (!build) throw notFound('Build', id);
  return { status: 200, body: buildView(build, false) };
}
