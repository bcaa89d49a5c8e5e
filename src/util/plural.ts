/** `1 stage`, `3 stages`; `many` for a word whose plural is not the word and an s. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${noun(n, one, many)}`;
}

/** The word alone, for a count written some other way (formatted with separators). */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
