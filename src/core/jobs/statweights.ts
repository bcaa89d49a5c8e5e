/**
 * The stat weights of a finished job, fetched: the domain says where they are (domain/statweights/load.ts), and for
 * scale factors this downloads the JSON report they are in.
 */
import type { ResultRecord } from '../resources/schemas.js';
import type { JobBackend } from './backend.js';
import { statWeightsFromReport, statWeightsSource } from '../../domain/statweights/load.js';
import type { StatWeights } from '../../domain/statweights/weights.js';

export interface LoadOptions {
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Undefined for a job that is not a stat-weights run or did not complete. */
export async function loadStatWeights(
  backend: JobBackend,
  record: ResultRecord,
  options: LoadOptions = {},
): Promise<StatWeights | undefined> {
  const source = statWeightsSource(record);
  if (!source) return undefined;
  if (source.from === 'summary') return source.weights;
  const { readReportArtifact } = await import('./report-profilesets.js');
  return statWeightsFromReport(record, await readReportArtifact(backend, record, source.artifact, options));
}
