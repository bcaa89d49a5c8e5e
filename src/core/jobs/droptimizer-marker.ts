/**
 * How a job says it is a droptimizer run: `metadata.kind = "droptimizer"`, the key top gear uses. `simjob result`,
 * `--json` and `simjob report` read it to add the best upgrade and the by-source ranking.
 */
import { TOPGEAR_META_KEY } from './topgear-marker.js';

export const DROPTIMIZER_KIND = 'droptimizer';

export function isDroptimizerJob(metadata: Record<string, unknown> | null | undefined): boolean {
  return metadata?.[TOPGEAR_META_KEY] === DROPTIMIZER_KIND;
}
