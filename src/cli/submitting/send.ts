/** Sending one prepared submission: shared by a single submit (submit.ts) and a batch (batch.ts). */
import type { SubmitRequest } from '../../core/resources/schemas.js';
import { ApiError, NetworkError } from '../../errors.js';
import type { JobBackend, Submitted } from '../../core/jobs/backend.js';
import type { Preflight } from '../../core/jobs/preflight.js';
import type { ProfileInput } from '../../core/jobs/submission.js';
import type { SubmitFlags } from '../commands/submit-flags.js';
import type { Scenario } from './scenario-presets.js';

/** What submitting reads: submit's flags (topgear's are the same, less --concurrency). */
export type SubmitOptions = SubmitFlags;

export interface PreparedSubmission {
  profile: ProfileInput;
  request: SubmitRequest;
  /** --idempotency-key, else a fresh key for a remote submission; none for a local one (SubmitInput). */
  idempotencyKey?: string;
  preflight: Preflight;
  /** The profile as named (`stdin` for -), and in a batch the scenario this job runs. */
  profileName: string;
  scenario?: Scenario;
}

/**
 * Send one submission. The HTTP layer retries it only with the same idempotency key, so a retry can never make a
 * second job; if every attempt fails, the key is the way to find out what happened. The answer must carry a job id.
 */
export async function submitOne(
  backend: JobBackend,
  p: PreparedSubmission,
  options: SubmitOptions,
  /** The caller waits for this job next: a local one is then run by the wait (local/host.ts). */
  waited = false,
): Promise<{ submitted: Submitted; id: string }> {
  let submitted: Submitted;
  try {
    submitted = await backend.submit({
      request: p.request,
      idempotencyKey: p.idempotencyKey,
      plain: Boolean(options.plain),
      simc: options.simc,
      analysis: p.preflight.analysis,
      waited,
    });
  } catch (error) {
    // Refused on every try (a wrong base URL, a service not up): nothing got through, so there is nothing to recover.
    const uncertain =
      (error instanceof NetworkError && !error.neverReached) || (error instanceof ApiError && error.status >= 500);
    if (!uncertain || !p.idempotencyKey) throw error;
    const err = error as NetworkError | ApiError;
    throw Object.assign(err, {
      hint: `The submission may have reached the service. Run the same command with --idempotency-key ${p.idempotencyKey} to get its job id without creating a second job.`,
    });
  }
  const id = submitted.data.id;
  if (!id)
    throw new NetworkError(
      'The service accepted the submission but returned no job id.',
      'Find it with `simjob jobs`.',
    );
  return { submitted, id };
}
