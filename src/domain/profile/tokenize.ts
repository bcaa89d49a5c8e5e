/**
 * Lexer for SimulationCraft profile text that follows simc's own reader
 * (`engine/sim/option.cpp` `parse_file` / `parse_line` / `parse_token`, `util::string_split_allow_quotes`;
 * see `/work/shared/simc/contract.md` §2):
 *
 * - The text is split into lines on `\n` only (simc uses `std::getline`). `\r` is ordinary whitespace, so CRLF
 *   files work; a CR-only file is one long line to simc (reported as {@link TokenizedProfile.crOnlyLineBreaks}).
 * - A UTF-8 BOM (U+FEFF) is skipped at the start of the text only.
 * - Leading spaces, tabs, `\r` are skipped; a line whose first remaining character is `#` is a comment. There are
 *   **no inline comments**: `iterations=10 # x` gives the tokens `iterations=10`, `#`, `x`.
 * - The rest of the line is split on space, tab, `\r`, `\n`. A double quote toggles "quoted" mode, in which those
 *   characters do not split; the quote characters themselves are removed (`warrior="My Name"` → `warrior=My Name`,
 *   `a"b c"d` → `ab cd`). An unclosed quote runs to the end of the line. A token that is empty after quote removal
 *   (`""` alone) is dropped, as in simc.
 * - A token is `name=value`, split at the **first** `=` (the value may contain more `=`). A name ending in `+` is an
 *   append (`actions+=/x`). A token without `=` is an include (a file name), except `-`, which is stdin. Before
 *   deciding that, simc expands template variables in the token, because `$(x)` may expand to `k=v`.
 *
 * Everything here is pure: no I/O, no dependencies.
 */

/** One token as simc sees it, with where it came from. */
export interface Token {
  /** The token after quote removal: exactly the string simc passes to `parse_token`. */
  readonly text: string;
  /** The token as written in the source, quotes included (`text` ≠ `raw` when quotes were used). */
  readonly raw: string;
  /** 1-based line number. */
  readonly line: number;
  /** 1-based column of the first character of `raw` within its line (UTF-16 code units). */
  readonly column: number;
  /** Offset of the first character of `raw` in the original text (UTF-16 code units, BOM counted). */
  readonly start: number;
  /** Offset one past the last character of `raw`. */
  readonly end: number;
  /** True when the token contained an opening quote that was never closed on its line. */
  readonly unclosedQuote: boolean;
}

export type LineKind = 'blank' | 'comment' | 'content';

/** One physical line of the text (split on `\n`). */
export interface SourceLine {
  /** 1-based line number. */
  readonly line: number;
  /** Offset of the line's first character (after the BOM on line 1). */
  readonly start: number;
  /** Offset one past the line's last character, excluding `\n` (a trailing `\r` is included). */
  readonly end: number;
  /** Offset one past the line terminator (`end + 1`, or `end` for the last line without `\n`). */
  readonly next: number;
  /** Line content without the terminator and without a trailing `\r`. */
  readonly text: string;
  readonly kind: LineKind;
  /** Tokens on this line, in order (empty for blank and comment lines). */
  readonly tokens: readonly Token[];
}

export interface TokenizedProfile {
  readonly lines: readonly SourceLine[];
  /** All tokens of all lines in order. */
  readonly tokens: readonly Token[];
  /** The text started with a UTF-8 BOM (U+FEFF), which simc skips. */
  readonly bom: boolean;
  /** Dominant line terminator, for writing new lines in the same style. */
  readonly eol: '\n' | '\r\n';
  /** The text ends with a line terminator. */
  readonly endsWithNewline: boolean;
  /** The text contains `\r` not followed by `\n`; simc does not treat it as a line break. */
  readonly crOnlyLineBreaks: boolean;
}

const BOM = '\uFEFF';

function isSimcWhitespace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** Split profile text into lines and tokens the way simc's file reader does. */
export function tokenize(text: string): TokenizedProfile {
  const bom = text.startsWith(BOM);
  const lines: SourceLine[] = [];
  const tokens: Token[] = [];

  let pos = bom ? 1 : 0;
  let lineNo = 0;
  while (pos <= text.length) {
    lineNo += 1;
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    const next = nl === -1 ? text.length : nl + 1;
    const lineTokens = tokenizeLine(text, pos, end, lineNo);
    let i = pos;
    while (i < end && isSimcWhitespace(text[i])) i += 1;
    const kind: LineKind = i >= end ? 'blank' : text[i] === '#' ? 'comment' : 'content';
    const lineText = text.slice(pos, end).replace(/\r$/, '');
    const srcLine: SourceLine = {
      line: lineNo,
      start: pos,
      end,
      next,
      text: lineText,
      kind,
      tokens: kind === 'content' ? lineTokens : [],
    };
    lines.push(srcLine);
    if (kind === 'content') tokens.push(...lineTokens);
    if (nl === -1) break;
    pos = next;
  }
  // A text ending in "\n" yields a final empty line in the loop above; drop it so line counts match editors.
  const last = lines[lines.length - 1];
  if (lines.length > 1 && last !== undefined && last.start === text.length) lines.pop();

  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length;
  return {
    lines,
    tokens,
    bom,
    eol: crlf > 0 && crlf * 2 >= lf ? '\r\n' : '\n',
    endsWithNewline: text.endsWith('\n'),
    crOnlyLineBreaks: /\r(?!\n)/.test(text.replace(/\r+$/, '')),
  };
}

function tokenizeLine(text: string, start: number, end: number, line: number): Token[] {
  const out: Token[] = [];
  let i = start;
  while (i < end && isSimcWhitespace(text[i])) i += 1;
  if (i >= end || text[i] === '#') return out;

  let inQuote = false;
  // The token is collected as slices between quote characters (fast path: no quotes → one slice).
  let buf = '';
  let segStart = -1;
  let tokStart = -1;
  const flush = (tokEnd: number): void => {
    if (segStart !== -1) buf += text.slice(segStart, tokEnd);
    if (tokStart !== -1 && buf.length > 0) {
      out.push({
        text: buf,
        raw: text.slice(tokStart, tokEnd),
        line,
        column: tokStart - start + 1,
        start: tokStart,
        end: tokEnd,
        unclosedQuote: inQuote,
      });
    }
    buf = '';
    segStart = -1;
    tokStart = -1;
  };
  for (; i < end; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      if (tokStart === -1) tokStart = i;
      if (segStart !== -1) buf += text.slice(segStart, i);
      segStart = -1;
      inQuote = !inQuote;
      continue;
    }
    if (!inQuote && (c === 32 || c === 9 || c === 13 || c === 10)) {
      flush(i);
      continue;
    }
    if (tokStart === -1) tokStart = i;
    if (segStart === -1) segStart = i;
  }
  // Inside an unclosed quote simc keeps a CRLF line's trailing "\r" in the token; it is never meaningful, so
  // the token (and its raw span) ends before it.
  const tokEnd = inQuote && end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
  flush(tokEnd);
  return out;
}

/** A token split into option name and value, as `parse_token` does. */
export interface OptionParts {
  /** Text before the first `=` (a trailing `+` kept, as simc passes it to the option parsers). */
  readonly name: string;
  /** `name` without a trailing `+`. */
  readonly key: string;
  /** Text after the first `=`. */
  readonly value: string;
  /** The name ended with `+` (`key+=value`). */
  readonly append: boolean;
}

/** Split `name=value` at the first `=`; `null` when the text has no `=`. */
export function splitOption(tokenText: string): OptionParts | null {
  const cut = tokenText.indexOf('=');
  if (cut === -1) return null;
  const name = tokenText.slice(0, cut);
  const append = name.endsWith('+');
  return { name, key: append ? name.slice(0, -1) : name, value: tokenText.slice(cut + 1), append };
}

/** Result of expanding `$(var)` references. */
export interface Expansion {
  readonly text: string;
  /** Variables that were referenced but not defined (simc: "Missing template variable"). */
  readonly missing: readonly string[];
  /** Syntax problem simc would reject ("Unbalanced parenthesis..." / "Nesting depth exceeded..."). */
  readonly error: string | null;
}

const MAX_TEMPLATE_DEPTH = 10;

/**
 * Expand template variables like simc's `do_replace`: every `$(name)` is replaced, right to left, so nested
 * references such as `$($(x))` resolve inner-first; at most 10 references per string. Unlike simc this does not
 * throw: a missing variable is left as written and listed in `missing`.
 */
export function expandTemplates(input: string, vars: ReadonlyMap<string, string>): Expansion {
  let s = input;
  const missing: string[] = [];
  const starts: number[] = [];
  for (let p = s.indexOf('$('); p !== -1; p = s.indexOf('$(', p + 2)) starts.push(p);
  if (starts.length === 0) return { text: s, missing, error: null };
  if (starts.length > MAX_TEMPLATE_DEPTH) {
    return { text: s, missing, error: `Nesting depth exceeded for: '${input}' (max: ${MAX_TEMPLATE_DEPTH})` };
  }
  for (let k = starts.length - 1; k >= 0; k -= 1) {
    const begin = starts[k] as number;
    const close = s.indexOf(')', begin + 2);
    if (close === -1) {
      return { text: s, missing, error: `Unbalanced parenthesis in template variable for: '${input}'` };
    }
    const name = s.slice(begin + 2, close);
    const value = vars.get(name);
    if (value === undefined) {
      if (!missing.includes(name)) missing.push(name);
      continue;
    }
    s = s.slice(0, begin) + value + s.slice(close + 1);
  }
  return { text: s, missing, error: null };
}
