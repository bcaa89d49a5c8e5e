/**
 * How a job says it is a top gear run: `metadata.kind = "topgear"` (one short entry, so a user's own --meta still
 * fits the service's 20 entries and 1 KB). `simjob result` reads it to print the top gear headline.
 */
export const TOPGEAR_META_KEY = 'kind';
export const TOPGEAR_KIND = 'topgear';

/**
 * `metadata.export = "no-checksum"`: the export had no checksum line, so nothing proved it whole; the answer says so
 * wherever it is shown.
 */
export const EXPORT_META_KEY = 'export';
export const EXPORT_UNCHECKED = 'no-checksum';

export function isTopGearJob(metadata: Record<string, unknown> | null | undefined): boolean {
  return metadata?.[TOPGEAR_META_KEY] === TOPGEAR_KIND;
}
