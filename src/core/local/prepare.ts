/**
 * What a local submission decides before it writes anything: which simc runs, what local mode says about the
 * profile (from src/domain/profile/: which actor the summary headlines, what the hosted service would clamp or reject,
 * which runs the profile as written but says so, and whether multistage can run), where the webhook goes, and
 * simc's arguments. One place for the submission (backend.ts) and the dry run (`submit --local --dry-run`), so a
 * dry run shows exactly the run the submission would make.
 */
import { join } from 'node:path';
import type { MultiStageSummary, SubmitRequest } from '../resources/schemas.js';
import { dataDir } from '../config/paths.js';
import {
  analyzeProfile,
  looksLikeProfile,
  mainActorChoice,
  multistageEligibility,
  NOT_A_PROFILE,
  type ProfileAnalysis,
} from '../../domain/profile/index.js';
import type { MainActorChoice } from '../../domain/report/report-rows.js';
import type { WebhookTarget } from '../webhook/deliver.js';
import { listenerUrlWarning, requireWebhookTarget, webhookUrl } from '../webhook/target.js';
import { SINGLE_PASS_FILES, simcArgs } from './pass.js';
import { findSimc, type SimcChoice } from './simc.js';
import type { LocalJob } from './store.js';
import type { LocalOptions } from './options.js';

const MAX_LISTED = 5;

export interface LocalRunPlan {
  simc: SimcChoice;
  webhook: WebhookTarget | undefined;
  mainActor: MainActorChoice;
  /** One line each, for stderr at submission. */
  warnings: string[];
  /** The `multiStage` block of this job's summary. */
  multiStage: MultiStageSummary;
}

/** Refuses (exit 2) what the run cannot start with: no simc, a webhook without its URL or secret. */
export async function planLocalRun(
  ctx: Pick<LocalOptions, 'env' | 'config'>,
  request: SubmitRequest,
  simcFlag?: string,
  analysis = analyzeProfile(request.profile.text),
): Promise<LocalRunPlan> {
  const simc = await findSimc({ flag: simcFlag, env: ctx.env, config: ctx.config, channel: request.build.channel });
  // As the service: refused with webhook_not_configured unless a URL and a signing secret are set up.
  const webhook = request.webhook ? requireWebhookTarget(ctx.config, ctx.env) : undefined;
  const multiStageRequested = Boolean(request.runtime?.multiStage);
  const eligibility = multistageEligibility(analysis, { requested: multiStageRequested });
  // Prose: one note, not a warning for each word simc would take for a file name.
  const warnings = looksLikeProfile(request.profile.text)
    ? [...serviceDifferences(analysis), ...includeWarnings(analysis)]
    : [NOT_A_PROFILE];
  if (multiStageRequested && !eligibility.enabled) warnings.push(`--multistage: ${eligibility.detail}.`);
  const url = webhook && webhookUrl(ctx.config, ctx.env);
  const notAListener =
    url && listenerUrlWarning(url, ctx.env.SIMJOB_WEBHOOK_URL ? 'SIMJOB_WEBHOOK_URL' : 'webhook.url');
  if (notAListener) warnings.push(notAListener);
  // Eligible jobs run staged (src/core/local/multistage.ts, which fills in the stages); the rest in one pass, saying why.
  const multiStage = { enabled: eligibility.enabled, reason: eligibility.reason, stages: [] };
  return { simc, webhook, mainActor: mainActorChoice(analysis), warnings, multiStage };
}

function serviceDifferences(analysis: ProfileAnalysis): string[] {
  const lines: string[] = [];
  for (const w of analysis.precisionWarnings) {
    lines.push(
      `line ${w.line}: the service would run ${w.kind === 'iterations_clamped' ? 'iterations' : 'target_error'}=${w.requested} at ${w.applied} (${w.kind}); local mode runs it as written.`,
    );
  }
  const blocked = analysis.disallowed;
  for (const d of blocked.slice(0, MAX_LISTED)) {
    lines.push(
      `line ${d.line}: the service would reject \`${d.text}\` (input_sanitized_rejected, ${d.category}); local mode runs it.`,
    );
  }
  if (blocked.length > MAX_LISTED)
    lines.push(`…and ${blocked.length - MAX_LISTED} more directives the service would reject.`);
  return lines;
}

/** Includes are read by simc relative to its working directory, which for a local job is the job's folder. */
function includeWarnings(analysis: ProfileAnalysis): string[] {
  return analysis.includes
    .filter((inc) => inc.kind !== 'stdin' && !inc.looksLikeComment && !/^([\\/]|[A-Za-z]:[\\/]|~)/.test(inc.file))
    .slice(0, MAX_LISTED)
    .map(
      (inc) =>
        `line ${inc.line}: ${inc.file} is looked up from the job's folder, not your profile's; give an absolute path if simc cannot find it.`,
    );
}

/** The report files a job's request asks for. */
export function outputsOf(request: SubmitRequest): LocalJob['outputs'] {
  return {
    html: Boolean(request.artifacts?.html),
    csv: Boolean(request.artifacts?.csv),
    jsonVersion: request.artifacts?.json?.version ?? '2',
  };
}

/** The run a dry run describes: simc, its arguments (one pass; a staged job names its files per stage), its folder. */
export function describeLocalRun(ctx: Pick<LocalOptions, 'env'>, request: SubmitRequest, plan: LocalRunPlan) {
  return {
    simc: plan.simc,
    args: plan.multiStage.enabled ? null : simcArgs(SINGLE_PASS_FILES({ outputs: outputsOf(request) })),
    cwd: join(dataDir(ctx.env), 'jobs', '<job id>'),
    warnings: plan.warnings,
    multiStage: plan.multiStage,
  };
}
