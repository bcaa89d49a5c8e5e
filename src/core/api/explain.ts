import type { ApiErrorDetails } from '../../errors.js';

/**
 * Turn an error envelope into one sentence of what went wrong and one of how to fix it, by its stable `code`
 * (spec §7, notes §2.1 and §3). The server's own `error` text is used for codes we do not know.
 */
export function explainApiError(
  details: Pick<ApiErrorDetails, 'status' | 'code' | 'meta' | 'method' | 'path' | 'retryAfterMs'> & { url?: string },
  serverMessage: string | undefined,
): { message: string; hint: string | undefined } {
  const { status, code } = details;
  const meta = details.meta ?? {};
  const said = serverMessage ? ` (${serverMessage.replace(/\.$/, '')})` : '';
  const tag = code ? `${code}, HTTP ${status}` : `HTTP ${status}`;
  // The job the request was about, from its path, so hints name it rather than a placeholder.
  const jobId = /\/v1\/sim\/jobs\/([^/?]+)/.exec(details.path ?? '')?.[1];
  const job = jobId ? decodeURIComponent(jobId) : 'ID';
  const wait = details.retryAfterMs !== undefined ? ` Retry after ${Math.ceil(details.retryAfterMs / 1000)} s.` : '';

  switch (code) {
    case 'missing_token':
    case 'invalid_token':
    case 'revoked_token':
    case 'expired_token':
      return {
        message: `The service rejected the API key (${code}).`,
        hint: 'Issue a new key under Clients & Keys, then run `simjob login` or set SIMJOB_API_KEY.',
      };
    case 'webhook_not_configured':
      return {
        message:
          'This job asks for a webhook, but the account has no webhook URL and signing secret (webhook_not_configured).',
        hint: 'Set them up in the dashboard (Clients & Keys → Webhook), or submit without --webhook.',
      };
    case 'idempotency_key_reuse':
      return {
        message: `The idempotency key was already used for job ${String(meta.originalJobId ?? '(unknown)')} with a different payload (idempotency_key_reuse).`,
        hint: meta.originalJobId
          ? `Run \`simjob status ${String(meta.originalJobId)}\` to follow that job, or use a new --idempotency-key.`
          : 'Use a new --idempotency-key (or the payload that key was first used with).',
      };
    case 'result_not_ready':
      return {
        message: `The job is still ${String(meta.status ?? 'running')}; its result is not ready (result_not_ready).`,
        hint: `Wait for it with \`simjob status ${job} --wait\`, then fetch the result.`,
      };
    case 'result_unavailable':
      return {
        message: `The job ended ${String(meta.status ?? '')} without a result (result_unavailable).`.replace('  ', ' '),
        hint: `See why with \`simjob status ${job}\`.`,
      };
    case 'job_not_cancellable':
      return {
        message: `Job ${String(meta.id ?? '')} has already ended (${String(meta.status ?? 'terminal')}) and cannot be cancelled (job_not_cancellable).`,
        hint: undefined,
      };
    case 'insufficient_credits':
    case 'insufficient_credits_liability': {
      const fee =
        meta.priorityFeeCredits !== undefined
          ? ` The high-priority fee is ${String(meta.priorityFeeCredits)} credits.`
          : '';
      // openapi 1.14+ says it in credits; older servers in seconds
      const afford =
        meta.maxAffordableCredits !== undefined
          ? ` Your balance covers --max-credits ${String(meta.maxAffordableCredits)}.`
          : meta.maxAffordableRuntimeSeconds !== undefined
            ? ` Your balance covers --max-runtime ${String(meta.maxAffordableRuntimeSeconds)}.`
            : '';
      return {
        message: `Not enough credits to reserve this job (${code}).${fee}${afford}`,
        hint:
          code === 'insufficient_credits_liability'
            ? 'Top up, or submit with --priority standard.'
            : `Top up credits, or lower ${meta.maxAffordableCredits !== undefined ? '--max-credits' : '--max-runtime'}.`,
      };
    }
    case 'inactive_entitlement':
      return { message: 'The account is not active (inactive_entitlement).', hint: 'Reactivate it in the dashboard.' };
    case 'profile_too_large':
      return {
        message: 'The profile is over the 2 MB limit (profile_too_large).',
        hint: 'Shorten the profile or split its profilesets across jobs.',
      };
    case 'input_sanitized_rejected': {
      const blocked = Array.isArray(meta.blocked) ? (meta.blocked as Array<{ line?: number; text?: string }>) : [];
      const first = blocked[0];
      const where = first ? ` Line ${String(first.line)}: ${String(first.text)}` : '';
      const more =
        Number(meta.blockedCount ?? blocked.length) > 1
          ? ` (and ${Number(meta.blockedCount ?? blocked.length) - 1} more)`
          : '';
      return {
        message: `The profile uses a directive the service does not allow (input_sanitized_rejected).${where}${more}${where ? '.' : ''}`,
        hint: 'Remove output, file, network and thread directives (output=, html=, json2=, threads=, …); the service sets them itself.',
      };
    }
    case 'too_many_variants':
      return {
        message: `The profile expands to ${String(meta.totalVariants ?? 'too many')} variants; the account allows ${String(meta.maxVariants ?? 'fewer')} (too_many_variants).`,
        hint: 'Split the profilesets across several jobs.',
      };
    case 'rate_limit_exceeded':
      return {
        message: `Too many submissions this minute (rate_limit_exceeded).${wait}`,
        hint: 'Wait, then run the command again with the same --idempotency-key.',
      };
    case 'max_active_jobs_exceeded':
      return {
        message: `The account already has ${String(meta.activeJobs ?? 'the maximum')} of ${String(meta.maxActiveJobs ?? '?')} jobs in flight (max_active_jobs_exceeded).${wait}`,
        hint: 'Wait for a job to finish (`simjob jobs`), then submit again.',
      };
    case 'queue_unavailable':
    case 'queue_health_unknown':
    case 'secret_store_unavailable':
    case 'api_maintenance':
      return {
        message: `The service cannot take jobs right now (${code}).${wait}`,
        hint: 'Try again in a few minutes.',
      };
    case 'artifact_expired':
      return {
        message:
          "The artifact has expired: artifacts are kept for the job's retentionDays after it completed (artifact_expired).",
        hint: 'Re-run the sim to produce it again.',
      };
    default:
      break;
  }

  switch (status) {
    case 400:
      return {
        message: `The service rejected the request as invalid (${tag})${said}.`,
        hint: 'Check the flags; run with --debug to see the request.',
      };
    case 401:
      return {
        message: `The service rejected the API key (${tag}).`,
        hint: 'Run `simjob login` with a valid key, or set SIMJOB_API_KEY.',
      };
    case 402:
      return {
        message: `The account cannot pay for this job (${tag})${said}.`,
        hint: 'Top up credits in the dashboard.',
      };
    case 404:
      if (!namesAnId(details.path)) {
        // usage, the lists, submit: these always exist, so the requests went somewhere else than the service's API.
        return {
          message: `Not found: ${details.method} ${details.url ?? details.path} (${tag})${said}. The base URL looks wrong.`,
          hint: 'Set the API root, the part before /v1/ (e.g. https://api.example.com): `simjob config set base_url URL`, SIMJOB_BASE_URL or --base-url.',
        };
      }
      return {
        message: `Not found: ${details.method} ${details.path} (${tag})${said}.`,
        hint: 'Check the id; jobs past their retention are no longer listed.',
      };
    case 410:
      return {
        message: `Gone: ${details.path} has expired (${tag})${said}.`,
        hint: "Artifacts are kept for the job's retentionDays.",
      };
    case 413:
      return { message: `The request is too large (${tag})${said}.`, hint: 'Profiles may be up to 2 MB.' };
    case 422:
      return { message: `The service could not process the request (${tag})${said}.`, hint: undefined };
    case 429:
      return { message: `Rate limited by the service (${tag}).${wait}`, hint: 'Wait and try again.' };
    default:
      if (status >= 500)
        return {
          message: `The service failed (${tag})${said}.`,
          hint: 'Try again; if it persists, quote the request ID to support.',
        };
      return { message: `The service answered ${tag}${said}.`, hint: undefined };
  }
}

/** Whether a request path is about one job, build or artifact (whose id may be unknown), not a fixed endpoint. */
function namesAnId(path: string | undefined): boolean {
  return /\/v1\/sim\/(jobs|builds|artifacts)\/[^/]+/.test(path ?? '');
}
