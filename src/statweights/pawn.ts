/**
 * The Pawn string as simc's HTML report prints it (gear_weights.cpp, `gear_weights::pawn`; spec/stat-weights.md):
 *   ( Pawn: v1: "<name>-<Spec>": Class=<Class>, Spec=<Spec>,  CritRating=26.16, HasteRating=35.93 )
 * Unnormalised weights with two decimals (simc's report_precision), in simc's stat order, a zero weight left out,
 * every sign flipped when the normalising stat's weight is negative; two spaces after `Spec=<Spec>,` as simc writes.
 */
import { STATS, type StatKey } from './stats.js';

interface Named {
  name: string;
  className: string;
  spec: string | null;
}

interface Weighed {
  stat: StatKey;
  weight: number;
}

export function pawnString(character: Named, weights: readonly Weighed[], normalisedTo: StatKey): string {
  const flip = (weights.find((w) => w.stat === normalisedTo)?.weight ?? 0) < 0 ? -1 : 1;
  const spec = pawnWord(character.spec ?? '');
  const entries = STATS.flatMap((stat) => {
    const w = weights.find((x) => x.stat === stat.key);
    return w && w.weight !== 0 ? [` ${stat.pawn}=${(w.weight * flip).toFixed(2)}`] : [];
  });
  const cls = pawnWord(character.className);
  const head = `( Pawn: v1: "${escapeHtml(character.name)}-${spec}": Class=${cls}, Spec=${spec},`;
  return `${head} ${entries.join(',')} )`;
}

/** `beast_mastery` → `BeastMastery`, `deathknight` → `Deathknight` (simc's spelling; Pawn's own is DeathKnight). */
function pawnWord(token: string): string {
  return token
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())
    .join('');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
