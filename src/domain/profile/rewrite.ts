/**
 * Produce one stage's input for a staged (multistage) run from the original profile text.
 *
 * Changes, and nothing else (all other bytes are kept as they are, including comments, blank lines,
 * quoting, BOM and line endings):
 * 1. Profileset directives (`profileset."<name>"=` / `+=`) of sets not in `keepProfilesets` are removed —
 *    the whole line when nothing else is on it, otherwise just the token. Every directive of a kept set stays.
 * 2. Precision: each top-level `target_error=` token is rewritten to the stage's value, and so is each
 *    `iterations=` token when `iterations` is given. Both are sim options, so (contract §1.6) they may stand
 *    anywhere, also after an actor line, and the last occurrence wins. A line is therefore **appended** at the
 *    end when the profile has no such token, or when an include (`input=`, bare file name) follows the last
 *    one — an included file could set it again, and only a later line is sure to win.
 * 3. With `deferFinalOnly`, the final-only directives (`FINAL_ONLY_DIRECTIVES` in types.ts) are removed at the
 *    top level.
 *
 * Profilesets that set their own precision are not touched (they are "stage-sensitive" and not eligible for a
 * staged run in the first place; see `multistage.ts`). Included files are not read or changed.
 */
import { analyzeTokens } from './analyze.js';
import { tokenize, type SourceLine } from './tokenize.js';
import { isFinalOnly, type SourceSpan } from './types.js';

export interface StageRewriteOptions {
  /** Names (as in `ProfileAnalysis.profilesets[].name`) of the profilesets that run in this stage. */
  readonly keepProfilesets: ReadonlySet<string>;
  /** The stage's `target_error` (percent, > 0). */
  readonly targetError: number;
  /** Iteration cap for the stage; when omitted, `iterations=` lines are left as they are. */
  readonly iterations?: number;
  /** Strip the final-only directives (true for every non-final stage). */
  readonly deferFinalOnly: boolean;
}

type Edit = { readonly span: SourceSpan; readonly replacement: string | null };

/** Format a number for a simc option value (no exponent for the values used here). */
function formatSimcNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const s = String(n);
  return s.includes('e') ? n.toFixed(12).replace(/0+$/, '') : s;
}

export function rewriteForStage(text: string, opts: StageRewriteOptions): string {
  if (!Number.isFinite(opts.targetError) || opts.targetError <= 0) {
    throw new RangeError(`targetError must be a positive number, got ${opts.targetError}`);
  }
  if (opts.iterations !== undefined && (!Number.isInteger(opts.iterations) || opts.iterations <= 0)) {
    throw new RangeError(`iterations must be a positive integer, got ${opts.iterations}`);
  }

  const tok = tokenize(text);
  const analysis = analyzeTokens(tok);
  const edits: Edit[] = [];

  for (const d of analysis.profilesetDirectives) {
    if (d.name !== null && !opts.keepProfilesets.has(d.name)) edits.push({ span: d, replacement: null });
  }

  const teValue = `target_error=${formatSimcNumber(opts.targetError)}`;
  const itValue = opts.iterations === undefined ? null : `iterations=${formatSimcNumber(opts.iterations)}`;
  let lastTe = -1;
  let lastIt = -1;
  for (const o of analysis.simOptionOccurrences) {
    if (opts.deferFinalOnly && isFinalOnly(o.key)) {
      edits.push({ span: o, replacement: null });
    } else if (o.key === 'target_error') {
      edits.push({ span: o, replacement: teValue });
      lastTe = o.start;
    } else if (o.key === 'iterations' && itValue !== null) {
      edits.push({ span: o, replacement: itValue });
      lastIt = o.start;
    }
  }

  const topIncludes = analysis.includes.filter((i) => i.profileset === null).map((i) => i.start);
  const includeAfter = (pos: number): boolean => topIncludes.some((s) => s > pos);
  const append: string[] = [];
  if (lastTe === -1 || includeAfter(lastTe)) append.push(teValue);
  if (itValue !== null && (lastIt === -1 || includeAfter(lastIt))) append.push(itValue);

  let out = applyEdits(text, tok.lines, edits);
  if (append.length > 0) {
    const eol = tok.eol;
    if (out.length > 0 && !out.endsWith('\n') && !(tok.bom && out === '\uFEFF')) out += eol;
    out += `# simjob: stage precision${eol}${append.join(eol)}${eol}`;
  }
  return out;
}

/** Apply token-level edits; removed tokens take their separating whitespace with them, emptied lines vanish. */
function applyEdits(text: string, lines: readonly SourceLine[], edits: readonly Edit[]): string {
  if (edits.length === 0) return text;
  const byStart = new Map<number, Edit>();
  for (const e of edits) byStart.set(e.span.start, e);

  // Ranges to replace, as [start, end, replacement].
  const ranges: Array<[number, number, string]> = [];
  for (const line of lines) {
    const toks = line.tokens;
    if (toks.length === 0) continue;
    const lineEdits = toks.map((t) => byStart.get(t.start));
    if (lineEdits.every((e) => e === undefined)) continue;
    if (lineEdits.every((e) => e !== undefined && e.replacement === null)) {
      ranges.push([line.start, line.next, '']);
      continue;
    }
    let i = 0;
    while (i < toks.length) {
      const e = lineEdits[i];
      const t = toks[i];
      if (t === undefined || e === undefined) {
        i += 1;
        continue;
      }
      if (e.replacement !== null) {
        ranges.push([t.start, t.end, e.replacement]);
        i += 1;
        continue;
      }
      // A run of removed tokens [i, j).
      let j = i;
      while (j < toks.length && lineEdits[j] !== undefined && lineEdits[j]?.replacement === null) j += 1;
      const next = toks[j];
      const prev = toks[i - 1];
      const lastRemoved = toks[j - 1] as (typeof toks)[number];
      if (next !== undefined) ranges.push([t.start, next.start, '']);
      else if (prev !== undefined) ranges.push([prev.end, lastRemoved.end, '']);
      i = j;
    }
  }

  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [start, end, rep] of ranges) {
    if (start < pos) continue; // cannot happen with the construction above; be safe.
    out += text.slice(pos, start) + rep;
    pos = end;
  }
  return out + text.slice(pos);
}
