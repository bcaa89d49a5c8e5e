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

/** What a top gear or droptimizer answer adds when its export had no checksum line. */
export function exportCaveat(metadata: Record<string, unknown> | null | undefined): string | undefined {
  if (metadata?.[EXPORT_META_KEY] !== EXPORT_UNCHECKED) return undefined;
  return (
    'The export had no "# Checksum:" line: it read whole, but nothing proved that it was not cut short; ' +
    'if an item you own is not named above, copy the whole /simc text and run it again.'
  );
}

export function isTopGearJob(metadata: Record<string, unknown> | null | undefined): boolean {
  return metadata?.[TOPGEAR_META_KEY] === TOPGEAR_KIND;
}
