/**
 * What local mode needs to know about a profile before running it, from the profile analysis module
 * (src/profile/): which actor the summary headlines, what the hosted service would clamp or reject (local mode
 * runs the profile as written, but says so), and whether multistage could have run.
 */
import type { MultiStageSummary } from '../api/schemas.js';
import type { MainActorChoice } from '../simc/report-rows.js';
import {
  analyzeProfile,
  looksLikeProfile,
  mainActorChoice,
  multistageEligibility,
  NOT_A_PROFILE,
  type ProfileAnalysis,
} from '../profile/index.js';

const MAX_LISTED = 5;

export interface LocalProfileFacts {
  mainActor: MainActorChoice;
  /** One line each, for stderr at submission. */
  warnings: string[];
  /** The `multiStage` block of this job's summary. */
  multiStage: MultiStageSummary;
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

export function inspectProfile(
  text: string,
  multiStageRequested: boolean,
  analysis = analyzeProfile(text),
): LocalProfileFacts {
  const eligibility = multistageEligibility(analysis, { requested: multiStageRequested });
  // Prose: one note, not a warning for each word simc would take for a file name.
  const warnings = looksLikeProfile(text)
    ? [...serviceDifferences(analysis), ...includeWarnings(analysis)]
    : [NOT_A_PROFILE];
  // Eligible jobs run staged (src/multistage/local.ts, which fills in the stages); the rest in one pass, saying why.
  const multiStage: MultiStageSummary = { enabled: eligibility.enabled, reason: eligibility.reason, stages: [] };
  if (multiStageRequested && !eligibility.enabled) warnings.push(`--multistage: ${eligibility.detail}.`);
  return { mainActor: mainActorChoice(analysis), warnings, multiStage };
}
