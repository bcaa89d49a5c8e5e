import type { ResultRecord } from '../../core/resources/schemas.js';
import { isLocalId } from '../../core/jobs/ids.js';

/**
 * How a job's build is named: the service's channel and commit for a remote job (`nightly @ 0a1b2c3d4e`); for a local
 * job the simc that ran and its version (`local simc 1201-01 @ 066febf`), never a channel, which only picked that simc.
 */
export function buildLabel(jobId: string, build: ResultRecord['build']): string | undefined {
  if (!build) return undefined;
  const commit = build.commit?.slice(0, 10);
  if (isLocalId(jobId)) {
    const { simcVersion } = build as { simcVersion?: unknown };
    const simc = ['local simc', typeof simcVersion === 'string' ? simcVersion : undefined].filter(Boolean).join(' ');
    return [simc, commit].filter(Boolean).join(' @ ');
  }
  return [build.channel, commit].filter(Boolean).join(' @ ') || undefined;
}
