/**
 * How a job says it is a top gear run: `metadata.kind = "topgear"` (one short entry, so a user's own --meta still
 * fits the service's 20 entries and 1 KB). `simjob result` reads it to print the top gear headline.
 */
export const TOPGEAR_META_KEY = 'kind';
export const TOPGEAR_KIND = 'topgear';

export function isTopGearJob(metadata: Record<string, unknown> | null | undefined): boolean {
  return metadata?.[TOPGEAR_META_KEY] === TOPGEAR_KIND;
}
