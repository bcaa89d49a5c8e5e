import { UsageError } from '../errors.js';

/** Local job ids carry this prefix, so every command finds a local job without a flag. */
export const LOCAL_ID_PREFIX = 'local-';

export function isLocalId(id: string): boolean {
  return id.startsWith(LOCAL_ID_PREFIX);
}

/** Job ids are opaque to us (18 digits on the service, `local-…` locally), but never empty, spaced or a path. */
export function isJobId(id: string): boolean {
  return id !== '' && !/\s|\//.test(id);
}

/** A job id given on the command line (surrounding spaces dropped), or a usage error. */
export function checkJobId(id: string | undefined): string {
  const trimmed = (id ?? '').trim();
  if (!isJobId(trimmed)) {
    throw new UsageError(`"${id ?? ''}" is not a job id.`, 'Find ids with `simjob jobs`.');
  }
  return trimmed;
}
