import { UsageError } from '../../errors.js';

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

/**
 * A job id of the service's own shape: 18 letters or digits (spec: minLength = maxLength = 18; the service's are
 * digits), or a local id (`local-` and 18 of its base-32 characters). What a webhook hands to `--exec` must be one:
 * a signed event is authentic, not proof that its id is safe in a file name or a shell command.
 */
export function isServiceShapedJobId(id: string): boolean {
  return /^[0-9A-Za-z]{18}$/.test(id) || new RegExp(`^${LOCAL_ID_PREFIX}[0-9a-z]{18}$`).test(id);
}
