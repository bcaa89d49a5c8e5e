/**
 * The Pawn string in the form simc's HTML report prints (engine/report/gear_weights.cpp, `gear_weights::pawn`):
 *   ( Pawn: v1: "<name>-<Spec>": Class=<Class>, Spec=<Spec>,  CritRating=26.16, HasteRating=35.93 )
 * Unnormalised weights with two decimals (simc's report_precision), in simc's stat order, a zero weight left out,
 * two spaces after `Spec=<Spec>,` as simc writes. Each weight keeps its measured sign: simc flips every sign when
 * the normalising stat's weight is negative, which makes Pawn rank gear by the opposite of what was measured (a
 * harmful stat becomes the best one); simjob prints the table's signs and warns about the reference instead.
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

export function pawnString(character: Named, weights: readonly Weighed[]): string {
  const spec = pawnWord(character.spec ?? '');
  const entries = STATS.flatMap((stat) => {
    const w = weights.find((x) => x.stat === stat.key);
    return w && w.weight !== 0 ? [` ${stat.pawn}=${w.weight.toFixed(2)}`] : [];
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
