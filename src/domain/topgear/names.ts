/**
 * Profileset names that say what a combination swaps in: "Vaelgor's Final Stare (282) in trinket2, Sin'dorei Band
 * of Hope (282) in finger1". They are never shortened, so a result table anywhere (remote, local, `simjob result`
 * on another machine, the HTML report) names the items in full.
 */
import type { Combination } from './combinations.js';

/**
 * Make text safe inside `profileset."…"`: simc groups the quoted text and splits the option at its first `=` and
 * the set name at its last `.`, and expands `$(…)`. So: no `"`, `=`, `.`, `$`, no control characters (C0, C1), line
 * separators or bidirectional overrides, which would reorder or break the name wherever it is shown.
 */
export function simcNameSafe(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/"/g, "'")
    .replace(/=/g, '-')
    .replace(/[.$]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The name of a combination: its swaps in slot order, then the loadout when it is not the active talents. */
export function combinationName(combo: Combination): string {
  const parts = combo.changes.map((c) => `${c.candidate.label} in ${c.slot}`);
  if (combo.loadout) parts.push(`talents ${combo.loadout.name}`);
  return simcNameSafe(parts.join(', ')) || 'as equipped';
}

/** Names made unique (sanitising can make two alike): a repeat gets " #2", " #3"… */
export function uniqueNames(): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    let unique = name;
    for (let n = 2; used.has(unique); n++) unique = `${name} #${n}`;
    used.add(unique);
    return unique;
  };
}
