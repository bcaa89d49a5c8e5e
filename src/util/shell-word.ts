/** A path or name as one POSIX shell word, quoted only when it needs it, for a command the user copies. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,~-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
