/**
 * The allowed value a mistyped one was most likely meant to be: the nearest by edit distance (a swap of two
 * neighbouring letters counts as one edit, as in `nigthly`), if near enough to be a typo rather than another word.
 */
export function closestValue(value: string, allowed: readonly string[]): string | undefined {
  const typed = value.toLowerCase();
  let best: { value: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance <= Math.max(1, Math.floor(candidate.length / 3)) && (!best || distance < best.distance)) {
      best = { value: candidate, distance };
    }
  }
  return best?.value;
}

/** Insertions, deletions, substitutions and swaps of neighbours (optimal string alignment distance). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
