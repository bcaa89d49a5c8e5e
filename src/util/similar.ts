/** "Did you mean …?": the candidate closest to a mistyped word, when it is close enough to be the one meant. */

/** Edits (insert, delete, substitute) that turn a into b. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
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
