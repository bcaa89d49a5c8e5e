import { setTimeout as delay } from 'node:timers/promises';

/**
 * Sleep that an AbortSignal (Ctrl-C) ends early: node:timers/promises' timer, rejecting with the signal's own reason
 * (as fetch and the rest of simjob do) rather than its AbortError, so a caller that aborted with a reason gets it.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return delay(ms);
  return delay(ms, undefined, { signal }).catch((error: unknown) => {
    throw signal.aborted ? signal.reason : error;
  });
}
