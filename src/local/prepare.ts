/**
 * What a local submission decides before it writes anything: which simc runs, what it says about the profile
 * (warnings), where the webhook goes, and simc's arguments. One place for the submission (backend.ts) and the dry
 * run (`submit --local --dry-run`), so a dry run shows exactly the run the submission would make.
 */
import { join } from 'node:path';
import type { SubmitRequest } from '../api/schemas.js';
import { dataDir } from '../config/paths.js';
import type { Context } from '../context.js';
import type { ProfileAnalysis } from '../profile/types.js';
import { requireWebhookTarget } from '../webhook/target.js';
import type { WebhookTarget } from '../webhook/deliver.js';
import { SINGLE_PASS_FILES, simcArgs } from './pass.js';
import { inspectProfile, type LocalProfileFacts } from './profile-checks.js';
import { findSimc, type SimcChoice } from './simc.js';
import type { LocalJob } from './store.js';

export interface LocalRunPlan {
  facts: LocalProfileFacts;
  simc: SimcChoice;
  webhook: WebhookTarget | undefined;
}

/** Refuses (exit 2) what the run cannot start with: no simc, a webhook without its URL or secret. */
export async function planLocalRun(
  ctx: Context,
  request: SubmitRequest,
  simcFlag?: string,
  analysis?: ProfileAnalysis,
): Promise<LocalRunPlan> {
  const facts = inspectProfile(request.profile.text, Boolean(request.runtime?.multiStage), analysis);
  const simc = await findSimc({ flag: simcFlag, env: ctx.env, config: ctx.config, channel: request.build.channel });
  // As the service: refused with webhook_not_configured unless a URL and a signing secret are set up.
  const webhook = request.webhook ? requireWebhookTarget(ctx.config, ctx.env) : undefined;
  return { facts, simc, webhook };
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
export function describeLocalRun(
  ctx: Context,
  request: SubmitRequest,
  plan: LocalRunPlan,
): {
  simc: SimcChoice;
  args: string[] | null;
  cwd: string;
  warnings: string[];
  multiStage: LocalProfileFacts['multiStage'];
} {
  const staged = plan.facts.multiStage.enabled;
  return {
    simc: plan.simc,
    args: staged ? null : simcArgs(SINGLE_PASS_FILES({ outputs: outputsOf(request) })),
    cwd: join(dataDir(ctx.env), 'jobs', '<job id>'),
    warnings: plan.facts.warnings,
    multiStage: plan.facts.multiStage,
  };
}
