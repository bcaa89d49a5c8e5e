import { splitOption, tokenize } from './tokenize.js';

/**
 * Whether anything in the text is simc input: at least one `name=value` token. Prose (notes, a web page, the wrong
 * file) has none, only words, each of which simc would try to open as a file; such a text gets one clear note instead
 * of a warning per word.
 */
export function looksLikeProfile(text: string): boolean {
  const { tokens } = tokenize(text);
  return tokens.length === 0 || tokens.some((token) => Boolean(splitOption(token.text)?.name));
}

export const NOT_A_PROFILE =
  'This does not look like a simc profile: no line holds a name=value option. ' +
  'Check the file (an addon /simc export or a profiles/*.simc file).';
