/**
 * Text that simjob did not write (a server's names, reasons, messages and metadata; simc's lines; file names),
 * made safe for a terminal: every control character but tab and newline is shown as an escape (`\x1b`, `\x07`,
 * `\u009b`), so an `ESC ] 0 ;` title change, an `ESC [ 2 K` line erase or an `ESC [ 31 m` colour is printed as
 * text, never obeyed. Colour that simjob adds itself is applied after this and so is unaffected. --json output does
 * not pass through here: JSON escapes control characters itself.
 *
 * Two layers use it. The views and renderers escape each piece of foreign text before they colour it (table cells,
 * key/value values, error messages). Output then guards every line it writes (`terminalGuard`): whatever a view
 * forgot, only the SGR colour codes that simjob's own styles (ansi.ts) make can still reach the terminal, and none at
 * all when that stream has no colour.
 */
// C0 controls except \t and \n, DEL, and the C1 controls (U+0080–U+009F, among them the one-byte CSI U+009B).
// Also the line and paragraph separators and bidirectional overrides, which reorder or break what a reader sees.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// The same, or one complete SGR colour sequence (`ESC [ 1 ; 31 m`): the only escape sequence ansi.ts writes.
const UNSAFE_OR_SGR =
  /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

// UNSAFE with tab and newline: what terminalSafeLine escapes.
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function escape(ch: string): string {
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** terminalSafe for one line: newlines and tabs escaped too (a table cell, a key/value, a one-line error). */
export function terminalSafeLine(text: string): string {
  if (!UNSAFE_IN_LINE.test(text)) return text; // most cells are plain: one scan, no copies (20,000-row tables)
  return terminalSafe(text).replace(/[\t\n]/g, escape);
}

/**
 * The last guard before a stream: terminalSafe, except that complete SGR colour sequences are kept when the stream
 * shows colour (they may be simjob's own). Idempotent: escaped text holds no control characters.
 */
export function terminalGuard(text: string, keepColour: boolean): string {
  if (!keepColour) return terminalSafe(text);
  return text.replace(UNSAFE_OR_SGR, (match) => (match.length > 1 ? match : escape(match)));
}
