import Table from 'cli-table3';
import stringWidth from 'string-width';
import type { Output } from './io.js';
import { terminalSafeLine } from '../../util/safe.js';

export interface Column<T> {
  header: string;
  /**
   * The cell's plain text, from the row and its place in the table (0 first); foreign text is fine here: every cell
   * is escaped to one safe line before style.
   */
  value: (row: T, index: number) => string;
  align?: 'left' | 'right';
  /** Colour applied on a TTY only, after width fitting. */
  style?: (text: string, row: T) => string;
  /** The column that gives up width first when the table is wider than the terminal. */
  shrinkable?: boolean;
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/**
 * Print rows as a table on stdout. On a terminal: aligned columns with a dim header, fitted to the terminal width.
 * Piped: tab-separated values with a header row, never truncated, so `cut -f` and `awk -F'\t'` work.
 * Every cell is one line of terminal-safe text (controls, tabs and newlines escaped) whatever the server sent.
 */
export function printTable<T>(out: Output, rows: readonly T[], columns: ReadonlyArray<Column<T>>): void {
  // Headers can be foreign too (the matrix's are profile and scenario names): one line each, like the cells.
  const headers = columns.map((c) => terminalSafeLine(c.header));
  if (!out.stdoutIsTTY) {
    // One write for the whole table: a row per write costs a system call each (20,000 rows of `result --all`).
    // Plain loops and one cells array for every row: the 140,000 cells of those rows are mostly made before the JIT.
    const lines = [headers.join('\t')];
    const cells: string[] = [];
    for (let r = 0; r < rows.length; r++) {
      for (let i = 0; i < columns.length; i++) cells[i] = terminalSafeLine(columns[i]!.value(rows[r]!, r));
      lines.push(cells.join('\t'));
    }
    out.line(lines.join('\n'));
    return;
  }
  const cells = rows.map((row, r) => columns.map((col) => terminalSafeLine(col.value(row, r))));
  // reduce, not Math.max(...cells): one argument per row overflows the stack past ~120,000 rows.
  const widths = headers.map((header, i) =>
    cells.reduce((widest, r) => Math.max(widest, displayWidth(r[i] ?? '')), displayWidth(header)),
  );
  const budget = (out.width ?? 100) - 2 * (columns.length - 1);
  // The longest word of each column: what it can narrow to by wrapping at spaces, never inside a word.
  const words = headers.map((header, i) =>
    cells.reduce((longest, r) => Math.max(longest, longestWord(r[i] ?? '')), longestWord(header)),
  );
  fitWidths(
    widths,
    budget,
    columns.findIndex((c) => c.shrinkable),
    words,
  );
  // What does not fit wraps onto more lines of its row: a name is never cut (two items that differ only at the
  // end, or the slot a change goes to, would read the same).
  for (const row of cells) row.forEach((cell, i) => (row[i] = wrap(cell, widths[i] ?? cell.length).join('\n')));
  // cli-table3 lays a table out with one call argument per row, which overflows the stack past ~120,000 rows: a
  // longer table is laid out in parts, each at the widths computed above so that the parts line up.
  const parts = rows.length > ROWS_PER_LAYOUT ? { colWidths: widths } : {};
  const text: string[] = [];
  for (let start = 0; start === 0 || start < rows.length; start += ROWS_PER_LAYOUT) {
    const table = new Table({
      chars: BORDERLESS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
      head:
        start === 0 ? headers.map((header, i) => out.c.dim(wrap(header, widths[i] ?? header.length).join('\n'))) : [],
      colAligns: columns.map((c) => c.align ?? 'left'),
      ...parts,
    });
    for (let r = start; r < Math.min(rows.length, start + ROWS_PER_LAYOUT); r++) {
      const row = rows[r]!;
      table.push(columns.map((col, i) => (col.style ? col.style(cells[r]?.[i] ?? '', row) : (cells[r]?.[i] ?? ''))));
    }
    text.push(
      table
        .toString()
        .split('\n')
        .map((l) => l.trimEnd())
        .join('\n'),
    );
  }
  out.line(text.join('\n'));
}

/** Rows cli-table3 lays out at once (see printTable). */
const ROWS_PER_LAYOUT = 10_000;

/**
 * Narrow columns until the row fits the budget: the shrinkable column first, down to its longest word; then, widest
 * first, the columns that can still wrap at a space (a date and its time); only then down to 8, inside words, the
 * widest first (their text then wraps).
 */
function fitWidths(widths: number[], budget: number, shrinkIndex: number, words: readonly number[]): void {
  const total = () => widths.reduce((a, b) => a + b, 0);
  const floor = (i: number) => Math.max(8, Math.min(words[i] ?? 8, budget));
  if (shrinkIndex >= 0 && total() > budget)
    widths[shrinkIndex] = Math.max(floor(shrinkIndex), (widths[shrinkIndex] ?? 8) - (total() - budget));
  while (total() > budget) {
    const wrappable = widths.map((w, i) => (w > floor(i) ? w : -1));
    const widest = wrappable.indexOf(Math.max(...wrappable));
    if ((wrappable[widest] ?? -1) < 0) break;
    widths[widest] = (widths[widest] ?? 8) - 1;
  }
  if (shrinkIndex >= 0 && total() > budget)
    widths[shrinkIndex] = Math.max(8, (widths[shrinkIndex] ?? 8) - (total() - budget));
  // No column wider than the whole budget, so the loop below is short even for a huge token.
  widths.forEach((w, i) => (widths[i] = Math.min(w, Math.max(8, budget))));
  while (total() > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= 8) break;
    widths[widest] = (widths[widest] ?? 8) - 1;
  }
}

export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const [head] = splitAtWidth(text, Math.max(1, width - 1));
  return `${head}…`;
}

/**
 * Lines of at most `width` characters holding the whole text: broken after a comma first (so each change of a
 * "A in head, B in neck" name gets its own line when it fits; `prose` turns that off), then at spaces, and a word
 * longer than a line in pieces.
 */
export function wrap(text: string, width: number, prose = false): string[] {
  if (displayWidth(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  const add = (piece: string) => {
    if (line && displayWidth(line) + 1 + displayWidth(piece) <= width) line = `${line} ${piece}`;
    else {
      if (line) lines.push(line);
      line = piece;
    }
  };
  for (const segment of prose ? [text] : clauses(text)) {
    if (displayWidth(segment) <= width) {
      add(segment);
      continue;
    }
    for (const word of segment.split(' ')) for (const piece of pieces(word, width)) add(piece);
  }
  if (line) lines.push(line);
  return lines;
}

/** A word as lines of at most `width`: broken after `-`, `_` or `/` where it can be, else every `width` characters. */
function pieces(word: string, width: number): string[] {
  if (displayWidth(word) <= width) return [word];
  const out: string[] = [];
  let line = '';
  for (const part of word.split(/(?<=[-_/])/)) {
    if (displayWidth(line) + displayWidth(part) <= width) {
      line += part;
      continue;
    }
    if (line) out.push(line);
    let rest = part;
    while (displayWidth(rest) > width) {
      const [head, tail] = splitAtWidth(rest, width);
      out.push(head);
      rest = tail;
    }
    line = rest;
  }
  if (line) out.push(line);
  return out;
}

/**
 * The text split after each ", " outside parentheses:
 * "A (298, vault) in head, B" → "A (298, vault) in head,", "B".
 */
function clauses(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0 && text[i + 1] === ' ') {
      out.push(text.slice(start, i + 1));
      start = i + 2;
    }
  }
  out.push(text.slice(start));
  return out;
}

function longestWord(text: string): number {
  let longest = 0;
  for (const word of text.split(' ')) longest = Math.max(longest, displayWidth(word));
  return longest;
}

/**
 * The columns a terminal gives the text: string-width's count (CJK and most emoji take two, combining marks none).
 * Plain ASCII, nearly every cell, is its length: string-width segments graphemes, which 140,000 cells would feel.
 */
function displayWidth(text: string): number {
  return PLAIN.test(text) ? text.length : stringWidth(text);
}

const PLAIN = /^[\x20-\x7e]*$/;

/** The longest head of `text` (whole graphemes, at least one) that fits `width` columns, and the rest. */
function splitAtWidth(text: string, width: number): [string, string] {
  let head = '';
  for (const { segment } of graphemes().segment(text)) {
    if (head && displayWidth(head + segment) > width) break;
    head += segment;
  }
  return [head, text.slice(head.length)];
}

let segmenter: Intl.Segmenter | undefined;
const graphemes = () => (segmenter ??= new Intl.Segmenter());
