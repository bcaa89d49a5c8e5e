/** Submitting profiles already read or made: what submit, topgear, droptimizer and statweights share. */
import type { Channel, Priority, Usage } from '../../core/resources/schemas.js';
import type { Context } from '../context.js';
import { UsageError } from '../../errors.js';
import { isLocalId } from '../../core/jobs/ids.js';
import type { JobBackend, Submitted } from '../../core/jobs/backend.js';
import {
  buildRequest,
  checkIdempotencyKey,
  checkRequestShape,
  newIdempotencyKey,
  type ProfileInput,
  type RequestSettings,
} from '../../core/jobs/submission.js';
import { describeMultistage, preflight } from '../../core/jobs/preflight.js';
import { formatNumber } from '../../util/format.js';
import { terminalSafeLine as safe } from '../../util/safe.js';
import type { LocalDryRun } from '../output/views/local-dry-run.js';
import { refuseWaitOnlyFlags } from '../commands/wait-flags.js';
import { applyScenario, batchMeta, expandScenarios } from './scenarios.js';
import { submitOne, type PreparedSubmission, type SubmitOptions } from './send.js';
import type { BatchPresenter } from './batch.js';

/** Flags that contradict each other or are malformed, refused (exit 2) before any profile is read or job sent. */
export function checkFlags(options: SubmitOptions): void {
  if (options.simc && !options.local)
    throw new UsageError('--simc names the simc of a local run; it needs --local.', 'Add --local, or drop --simc.');
  if (options.maxCredits !== undefined && options.local)
    throw new UsageError(
      '--max-credits is a budget on the hosted service; local runs cost no credits.',
      'Cap a local run with --max-runtime instead.',
    );
  if (options.idempotencyKey !== undefined) checkIdempotencyKey(options.idempotencyKey);
  if (!options.wait)
    refuseWaitOnlyFlags(options, [['--report', Boolean(options.report?.length), 'writes what the jobs ended with']]);
}

/**
 * Submit profiles already read (by `submit`, or made by `topgear`): one job per profile and scenario; preflight,
 * dry run, send one or a batch, and with --wait show the result.
 */
export async function submitProfiles(
  ctx: Context,
  profiles: ProfileInput[],
  options: SubmitOptions,
  namedBatch = false,
  present?: BatchPresenter,
): Promise<number | void> {
  const scenarios = expandScenarios(options.scenario ?? [], options.scenarios ?? []);
  if (options.idempotencyKey !== undefined && (profiles.length > 1 || scenarios.length > 1)) {
    throw new UsageError(
      `--idempotency-key names one submission; it cannot be used with several ${profiles.length > 1 ? 'profiles' : 'scenarios'}.`,
    );
  }
  if (scenarios.length && options.plain)
    throw new UsageError('--scenario needs the JSON body: each job carries its scenario as metadata.', 'Drop --plain.');
  const reports = options.report ?? [];
  if (reports.length) await (await import('../output/reports/files.js')).checkReportTargets(reports);
  const batch = namedBatch || profiles.length > 1 || scenarios.length > 0 || reports.length > 0;
  const channel = resolveChannel(ctx, options);
  const priority = options.priority ?? (ctx.config.stringSetting('priority') as Priority | undefined);
  const prepared: PreparedSubmission[] = [];
  for (const profile of profiles) {
    const { source } = profile;
    const profileName = source === '-' ? 'stdin' : source;
    for (const scenario of scenarios.length ? scenarios : [undefined]) {
      const text = scenario ? applyScenario(profile.text, scenario) : profile.text;
      // Every job of a batch says which profile (and scenario) it is, on the service and locally alike.
      const own = profile.meta ? [...options.meta, ...profile.meta] : options.meta;
      const meta = batch && !options.plain ? batchMeta(own, profileName, scenario) : own;
      const request = buildRequest({ ...profile, text }, requestSettings(options, meta), channel, ctx.env, priority);
      const key = options.idempotencyKey ?? (options.local ? undefined : newIdempotencyKey());
      const checked = preflight(source, request, options.local ? 'local' : 'remote');
      prepared.push({
        profile: { ...profile, text },
        request,
        idempotencyKey: key,
        preflight: checked,
        profileName,
        scenario,
      });
    }
  }
  for (const p of prepared) {
    ctx.out.addSecret(p.request.credentials?.providerClientSecret);
    ctx.out.addSecret(p.request.credentials?.providerClientId);
    if (!options.local) await checkRequestShape(p.request);
  }

  if (options.dryRun && !options.local) return printDryRun(ctx, prepared, options, batch);
  sayMultistage(ctx, prepared, Boolean(options.local));
  if (options.dryRun) return printLocalDryRun(ctx, prepared, options, batch);

  const backend = await ctx.backend(options.local);
  if (backend.kind === 'remote') await checkAccountLimits(backend, options);

  if (batch) {
    const { submitBatch } = await import('./batch.js');
    return submitBatch(ctx, backend, prepared, options, present);
  }
  const [one] = prepared as [PreparedSubmission];
  const { submitted, id } = await submitOne(backend, one, options, Boolean(options.wait));
  if (!options.wait) {
    if (ctx.out.json) ctx.out.printJson(submitted.raw);
    else printSubmitted(ctx, submitted, one);
    return;
  }
  if (!ctx.out.json) printSubmitted(ctx, submitted, one, true);
  const { waitAndReport } = await import('../show-job/wait-command.js');
  return waitAndReport(ctx, backend, id, {
    timeoutMs: options.timeout,
    cancelOnInterrupt: options.cancelOnInterrupt,
    top: options.top,
  });
}

/** The flags that shape the request body, named as the library names them (meta: with the batch's own pairs). */
function requestSettings(options: SubmitOptions, meta: string[]): RequestSettings {
  return {
    branch: options.branch,
    multistage: options.multistage,
    maxRuntime: options.maxRuntime,
    maxCredits: options.maxCredits,
    maxQueue: options.maxQueue,
    priority: options.priority,
    meta,
    webhook: options.webhook,
    html: options.html,
    csv: options.csv,
    jsonVersion: options.jsonVersion,
    plain: options.plain,
  };
}

/** What --multistage will do, once per profile (not once per scenario). */
function sayMultistage(ctx: Context, prepared: PreparedSubmission[], local: boolean): void {
  const said = new Set<string>();
  for (const p of prepared) {
    const staging = p.preflight.multistage;
    // A local run that cannot be staged says why itself (as a warning of the run it will make instead).
    const notice = staging && (staging.enabled || !local) ? `${label(p)}${describeMultistage(staging)}` : undefined;
    if (notice && !said.has(notice)) ctx.out.notice(notice);
    if (notice) said.add(notice);
  }
}

function resolveChannel(ctx: Context, options: SubmitOptions): Channel {
  const channel = options.channel ?? ctx.config.channelSetting();
  if (channel) return channel;
  if (options.local) return 'latest';
  throw new UsageError(
    'No build channel given.',
    'Pass --channel nightly|weekly|latest, or set a default with `simjob config set channel nightly`.',
  );
}

/** `--max-runtime` and `--max-queue` above the account's limits fail here, naming the limit, before any submission. */
async function checkAccountLimits(backend: JobBackend, options: SubmitOptions): Promise<void> {
  if (options.maxRuntime === undefined && options.maxQueue === undefined && options.maxCredits === undefined) return;
  const usage: Usage = (await backend.usage()).data;
  const limits = usage.plan ?? usage.limits;
  // Name the field where the limit was read: `plan` (openapi 1.19) or its deprecated alias `limits` (older servers).
  const source = usage.plan ? 'plan' : 'limits';
  const checks: Array<[number | undefined, number | null | undefined, string, string]> = [
    [options.maxRuntime, limits?.maxRuntimeSeconds, '--max-runtime', `${source}.maxRuntimeSeconds`],
    [options.maxQueue, limits?.maxQueueSeconds, '--max-queue', `${source}.maxQueueSeconds`],
    [options.maxCredits, limits?.maxCreditsPerJob, '--max-credits', `${source}.maxCreditsPerJob`],
  ];
  for (const [asked, limit, flag, name] of checks) {
    if (asked !== undefined && typeof limit === 'number' && asked > limit) {
      throw new UsageError(
        `${flag} ${asked} is above the account limit ${name} = ${limit}.`,
        `Use ${flag} ${limit} or less.`,
      );
    }
  }
}

function printSubmitted(ctx: Context, submitted: Submitted, p: PreparedSubmission, waiting = false): void {
  const r = submitted.data;
  const out = waiting ? (text: string) => ctx.out.notice(text) : (text: string) => ctx.out.line(text);
  // A local job runs the simc found for it; the channel only chose that simc and is not what ran.
  const what = isLocalId(String(r.id))
    ? 'local'
    : [p.request.build.channel, p.request.priority].filter(Boolean).join(', ');
  if (submitted.replay) {
    out(
      `Job ${safe(String(r.id))} was already submitted with idempotency key ${p.idempotencyKey}; this is that job (replay, nothing new was created).`,
    );
  } else {
    out(
      `Submitted job ${ctx.out.c.bold(safe(String(r.id)))} (${what})${p.profile.source === '-' ? '' : ` from ${p.profile.source}`}.`,
    );
  }
  if (r.links?.share) out(`Share: ${safe(r.links.share)}`);
  const ceiling = r.runtime?.ceiling;
  const limits = [
    typeof ceiling?.maxCredits === 'number' ? `budget ${formatNumber(ceiling.maxCredits)} credits` : undefined,
    ceiling?.runtimeSeconds ? `runtime ${formatNumber(ceiling.runtimeSeconds)} s` : undefined,
    ceiling?.queueSeconds ? `queue ${formatNumber(ceiling.queueSeconds)} s` : undefined,
  ].filter(Boolean);
  if (limits.length) out(ctx.out.c.dim(`Limits: ${limits.join(', ')}`));
  for (const w of r.warnings ?? []) {
    ctx.out.warn(
      `line ${w.line ?? '?'}: ${w.message ?? w.kind} (requested ${String(w.requested)}, applied ${String(w.applied)}; ${w.kind})`,
    );
  }
  for (const d of r.deprecations ?? []) ctx.out.warn(`${d.field ?? ''}: ${d.message ?? 'deprecated'}`);
  if (!waiting && !ctx.out.quiet) out(ctx.out.c.dim(`Follow it with: simjob status ${r.id} --wait`));
}

function label(p: PreparedSubmission): string {
  return p.profile.source === '-' ? '' : `${p.profile.source}: `;
}

/** The request bodies the service would get; a batch is an array, as its --json output would be. */
function printDryRun(ctx: Context, prepared: PreparedSubmission[], options: SubmitOptions, batch: boolean): number {
  const shown = prepared.map((p) => ({
    expected: {
      precisionWarnings: p.preflight.analysis.precisionWarnings,
      ...(p.preflight.multistage ? { multiStage: p.preflight.multistage } : {}),
    },
    method: 'POST',
    path: '/v1/sim/jobs',
    contentType: options.plain ? 'text/plain' : 'application/json',
    headers: { 'idempotency-key': p.idempotencyKey },
    body: {
      ...p.request,
      profile: { text: `<${Buffer.byteLength(p.request.profile.text)} bytes from ${p.profile.source}>` },
      ...redactedCredentials(p),
    },
  }));
  if (ctx.out.json) ctx.out.printJson(batch ? shown : shown[0]);
  else {
    ctx.out.notice('Dry run: the request is valid and was not sent.');
    for (const p of prepared) {
      for (const line of p.preflight.precision) ctx.out.notice(`${label(p)}${line}`);
      if (p.preflight.multistage) ctx.out.notice(`${label(p)}${describeMultistage(p.preflight.multistage)}`);
    }
    ctx.out.line(JSON.stringify(batch ? shown : shown[0], null, 2));
  }
  return 0;
}

function redactedCredentials(p: PreparedSubmission): Partial<PreparedSubmission['request']> {
  return p.request.credentials
    ? { credentials: { providerClientId: '[REDACTED]', providerClientSecret: '[REDACTED]' } }
    : {};
}

/**
 * A local dry run: the run each job would make (simc, its arguments and folder, the profile as simc gets it), found
 * and checked as the submission would, with the same warnings; nothing is written and no worker started.
 */
async function printLocalDryRun(
  ctx: Context,
  prepared: PreparedSubmission[],
  options: SubmitOptions,
  batch: boolean,
): Promise<number> {
  const { planLocalRun, describeLocalRun } = await import('../../core/local/prepare.js');
  const runs: LocalDryRun[] = [];
  for (const p of prepared) {
    const plan = await planLocalRun(ctx, p.request, options.simc, p.preflight.analysis);
    for (const warning of plan.warnings) ctx.out.warn(warning);
    const { profile, ...settings } = p.request;
    runs.push({
      source: p.profile.source,
      ...describeLocalRun(ctx, p.request, plan),
      ...(p.idempotencyKey !== undefined ? { idempotencyKey: p.idempotencyKey } : {}),
      job: { ...settings, ...redactedCredentials(p) },
      input: { file: 'input.simc', text: profile.text },
    });
  }
  const { printLocalDryRuns } = await import('../output/views/local-dry-run.js');
  printLocalDryRuns(ctx.out, runs, batch);
  return 0;
}
