import type { SubmitRequest } from '../resources/schemas.js';
import { UsageError } from '../../errors.js';
import {
  analyzeProfile,
  multistageEligibility,
  summaryMetricOf,
  type PlannedStage,
  type ProfileAnalysis,
} from '../../domain/profile/index.js';
import type { MultiStageReason } from '../resources/enums.js';

export interface Preflight {
  analysis: ProfileAnalysis;
  /** What the service will clamp or floor (it answers with the same warnings after submission). */
  precision: string[];
  /** Only when --multistage was asked: whether the service would stage it, why, and the stages it would run. */
  multistage?: { enabled: boolean; reason: MultiStageReason; detail: string; stages: PlannedStage[] };
}

/**
 * Read the profile before sending it, to catch what the service would reject (422) and to say up front what it
 * will do with it. Remote submissions refuse disallowed directives here (exit 2); local runs only warn, since a
 * local simc runs what the user asked.
 */
export function preflight(source: string, request: SubmitRequest, mode: 'remote' | 'local'): Preflight {
  const analysis = analyzeProfile(request.profile.text);
  const name = source === '-' ? 'The profile' : source;

  if (analysis.armory.length && !request.credentials && mode === 'remote') {
    throw new UsageError(
      `${name} uses armory= (line ${analysis.armory[0]?.line}), which needs provider credentials.`,
      'Set SIMJOB_PROVIDER_CLIENT_ID and SIMJOB_PROVIDER_CLIENT_SECRET.',
    );
  }
  const [blocked] = analysis.disallowed;
  if (blocked && mode === 'remote') {
    const more = analysis.disallowed.length > 1 ? ` (and ${analysis.disallowed.length - 1} more)` : '';
    throw new UsageError(
      `${name} line ${blocked.line}: the service does not allow ${blocked.directive}= (${blocked.category})${more}.`,
      'Remove it: the service manages output files, threads and networking itself (or run it with --local).',
    );
  }

  const metric = summaryMetricOf(analysis);
  if ('unsupported' in metric && mode === 'local') {
    // A summary is in dps or raid_dps (as the service's); reporting another metric under either name would mislead.
    throw new UsageError(
      `${name} line ${metric.line}: profileset_metric=${metric.unsupported} cannot be summarised; a result reports dps or raid_dps.`,
      'Put dps or raid_dps first in profileset_metric (simc ranks by the first), or remove it; the JSON report keeps every metric listed.',
    );
  }

  const precision = analysis.precisionWarnings.map((w) => `line ${w.line}: ${w.message}`);
  let multistage: Preflight['multistage'];
  if (request.runtime?.multiStage) {
    const { plan, ...eligibility } = multistageEligibility(analysis, { requested: true });
    multistage = { ...eligibility, stages: plan ? [...plan.stages] : [] };
  }
  return { analysis, precision, multistage };
}

/** Lines for the user: what the service would do with --multistage, said before anything is sent. */
export function describeMultistage(m: NonNullable<Preflight['multistage']>): string {
  if (!m.enabled) return `The service would run this as a single pass (${m.reason}): ${m.detail}`;
  const stages = m.stages.map((s) => `${s.label} at target_error ${s.targetError}`).join(' → ');
  return `Multistage: ${stages}.`;
}
