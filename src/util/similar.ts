/** "Did you mean …?": the candidate closest to a mistyped word, when it is close enough to be the one meant. */

/**
 * Edits that turn a into b: insertions, deletions, substitutions, and swaps of neighbouring letters, so that
 * `nigthly` is one edit from `nightly` (optimal string alignment distance).
 */
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

/** The closest candidate within a third of the word's length in edits (or one containing the word), else undefined. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const n = name.toLowerCase();
    const d = n.includes(w) && w.length >= 3 ? 0 : editDistance(w, n);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(w.length / 3)) ? best.name : undefined;
}

/**
 * The allowed value a mistyped one was most likely meant to be (a flag's fixed list): the nearest by edit distance,
 * if within a third of that value's length, so a typo rather than another word.
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
