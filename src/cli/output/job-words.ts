/**
 * What a job is, in words, from the metadata simjob's commands put on it (`kind`, `statweights`, `profile`,
 * `scenario`): for `simjob jobs`, where the raw entries (`statweights=scale:-:warrior:fury:…`) meant nothing to a
 * reader and wrapped mid-word. Entries simjob did not write are the user's own --meta, shown as they are.
 */
import { readStatWeightsMarker, STATWEIGHTS_META_KEY, TOPGEAR_META_KEY } from '../../domain/job-kind.js';

const KINDS: Record<string, string> = { topgear: 'top gear', droptimizer: 'droptimizer', statweights: 'stat weights' };
const OURS = new Set([TOPGEAR_META_KEY, STATWEIGHTS_META_KEY, 'profile', 'scenario']);

export function jobInWords(metadata: Record<string, unknown> | null | undefined): { what: string; other: string } {
  const meta = metadata ?? {};
  const kind = typeof meta[TOPGEAR_META_KEY] === 'string' ? (meta[TOPGEAR_META_KEY] as string) : undefined;
  const parts = [kind ? (KINDS[kind] ?? kind) : 'sim'];
  const weights = readStatWeightsMarker(meta);
  if (weights) {
    const how = weights.method === 'scale' ? "simc's scale factors" : `+${weights.amount ?? '?'} of each stat`;
    parts.push(`of a ${[weights.spec, weights.className].filter(Boolean).join(' ')}, ${how}`);
  }
  // The file's name is enough to tell jobs apart in a list; its folder is in `status` and --json.
  if (typeof meta.profile === 'string') parts.push(`of ${meta.profile.split(/[/\\]/).pop() || meta.profile}`);
  if (typeof meta.scenario === 'string') parts.push(`[${meta.scenario}]`);
  // An unreadable statweights entry stays visible as written (a kind simjob does not know is named as written above).
  const shown = (key: string) => !OURS.has(key) || (key === STATWEIGHTS_META_KEY && !weights);
  const other = Object.entries(meta)
    .filter(([key]) => shown(key))
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(' ');
  return { what: parts.join(' '), other };
}
