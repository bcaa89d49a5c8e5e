/**
 * How a job ended, for every command that shows or reads a finished job (result, report, compare, --wait). A job
 * that ended without a result (cancelled while queued, queue_timeout, an early execution_failed: the result
 * endpoint's 422 result_unavailable) is read from its job record, so it is shown, and exits 3, like any job that
 * ended unsuccessfully rather than failing as an API error.
 */
import type { JobRecord, ResultRecord } from '../resources/schemas.js';
import { ApiError } from '../../errors.js';
import type { Fetched, JobBackend } from './backend.js';

/** The result resource, or for a job that ended without one its job record (`raw`, what --json prints). */
export interface Outcome extends Fetched<ResultRecord> {
  /** False for a job that ended without a result: `data` is then its job record with an empty result. */
  hasResult: boolean;
}

/** A job record shown as a result: no summary, no artifacts. */
export function withoutResult(record: JobRecord): ResultRecord {
  return { ...record, result: { summary: null, artifacts: [] } };
}

/** One read of a job's result; any other error (a job still running: 409 result_not_ready) is the caller's. */
export async function readOutcome(backend: JobBackend, id: string): Promise<Outcome> {
  try {
    return { ...(await backend.result(id)), hasResult: true };
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'result_unavailable') throw error;
    const job = await backend.job(id);
    return { raw: job.raw, data: withoutResult(job.data), hasResult: false };
  }
}
