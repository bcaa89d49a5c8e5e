/**
 * The stat weights of a finished stat-weights job (domain/job-kind.ts): from the result summary (profilesets), or from
 * the job's JSON report artifact (scale factors: simc writes them only there; a multistage run's last stage holds
 * them). Fetching that report is core's (core/jobs/statweights.ts); what is read from it is worked out here.
 */
import type { Artifact, ResultRecord } from '../../core/resources/schemas.js';
import { ExitCode, SimjobError } from '../../errors.js';
import { readStatWeightsMarker } from '../job-kind.js';
import { fromProfilesets, fromScaleReport, type ScaleReport, type StatWeights } from './weights.js';

/**
 * What a job's weights are read from: `summary` (a profilesets run, no network), the JSON report `artifact` (scale
 * factors), or nothing (not a stat-weights run, or not completed).
 */
export function statWeightsSource(
  record: ResultRecord,
): { from: 'summary'; weights: StatWeights | undefined } | { from: 'report'; artifact: Artifact } | undefined {
  const marker = readStatWeightsMarker(record.metadata);
  const actor = record.result.summary?.mainActor;
  if (!marker || record.status !== 'completed' || !actor) return undefined;
  if (marker.method === 'profilesets') return { from: 'summary', weights: fromSummary(record) };
  const reports = (record.result.artifacts ?? []).filter((a) => a.kind === 'json_report');
  const last = reports.sort((a, b) => (a.stage ?? 0) - (b.stage ?? 0)).at(-1);
  if (!last) {
    throw new SimjobError(
      `Job ${record.id} has no JSON report artifact, and simc writes scale factors only there.`,
      ExitCode.ERROR,
      'Artifacts expire some days after a job ends; run statweights again.',
    );
  }
  return { from: 'report', artifact: last };
}

/** The weights in a scale-factors job's JSON report (`doc`, parsed); throws when it holds none. */
export function statWeightsFromReport(record: ResultRecord, doc: unknown): StatWeights | undefined {
  const marker = readStatWeightsMarker(record.metadata);
  const actor = record.result.summary?.mainActor;
  if (!marker || !actor) return undefined;
  const character = { name: actor.name, className: marker.className, spec: marker.spec };
  const report = doc as Partial<ScaleReport>;
  if (!Array.isArray(report?.sim?.players)) {
    throw new SimjobError(`The JSON report of job ${record.id} lists no players.`, ExitCode.ERROR);
  }
  let found: StatWeights[];
  try {
    found = fromScaleReport(report as ScaleReport, marker.stats, character);
  } catch (error) {
    throw new SimjobError(`The JSON report of job ${record.id}: ${(error as Error).message}.`, ExitCode.ERROR);
  }
  const weights = found.find((w) => w.character.name === actor.name) ?? found[0];
  if (!weights) {
    throw new SimjobError(
      `The JSON report of job ${record.id} holds no scale factors.`,
      ExitCode.ERROR,
      'The simc build may not support calculate_scale_factors; use --method profilesets.',
    );
  }
  return weights;
}

/** A profilesets job's weights, from its summary alone (no network); undefined for any other job. */
function fromSummary(record: ResultRecord): StatWeights | undefined {
  const marker = readStatWeightsMarker(record.metadata);
  const summary = record.result.summary;
  const actor = summary?.mainActor;
  if (marker?.method !== 'profilesets' || record.status !== 'completed' || !actor) return undefined;
  const character = { name: actor.name, className: marker.className, spec: marker.spec };
  const sets = actor.profilesets?.results ?? [];
  return fromProfilesets(character, actor, sets, marker.stats, marker.amount ?? 0, summary.metric ?? 'dps');
}

/**
 * The weights of a saved `--json` result: the `statWeights` it was saved with (cli/show-job/statweights.ts), else,
 * for the profilesets method, worked out again from its summary.
 */
export function savedStatWeights(record: ResultRecord): StatWeights | undefined {
  const saved = (record as { statWeights?: Partial<StatWeights> }).statWeights;
  const whole = saved && Array.isArray(saved.weights) && typeof saved.pawn === 'string' && saved.character;
  if (whole) return saved as StatWeights;
  return fromSummary(record);
}
