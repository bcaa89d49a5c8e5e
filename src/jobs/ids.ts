import { UsageError } from '../errors.js';

/** Local job ids carry this prefix, so every command finds a local job without a flag. */
export const LOCAL_ID_PREFIX = 'local-';

export function isLocalId(id: string): boolean {
  return id.startsWith(LOCAL_ID_PREFIX);
}

/** Job ids are opaque to us (18 digits on the service, `local-…` locally), but never empty or full of spaces. */
export function checkJobId(id: string | undefined): string {
  const trimmed = (id ?? '').trim();
  if (!trimmed || /\s|\//.test(trimmed)) {
    throw new UsageError(`"${id ?? ''}" is not a job id.`, 'Find ids with `simjob jobs`.');
  }
  return trimmed;
}
