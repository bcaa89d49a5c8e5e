import { describe, expect, it } from 'vitest';
import { expandTemplates, splitOption, tokenize } from '../../../src/domain/profile/tokenize.js';

const texts = (src: string): string[] => tokenize(src).tokens.map((t) => t.text);

describe('tokenize', () => {
  it('removes double quotes and keeps the spaces they group', () => {
    const [t] = tokenize('warrior="My Name"').tokens;
    expect(t).toMatchObject({
      text: 'warrior=My Name',
      raw: 'warrior="My Name"',
      line: 1,
      column: 1,
      start: 0,
      end: 17,
    });
  });

  it('quotes can sit anywhere in a token and are all removed', () => {
    expect(texts('a"b c"d  e')).toEqual(['ab cd', 'e']);
    expect(texts('profileset."My Set"+=talents=ABC')).toEqual(['profileset.My Set+=talents=ABC']);
    expect(texts(`copy="Granyth's Enduring Scale"`)).toEqual(["copy=Granyth's Enduring Scale"]);
  });

  it('drops a token that is empty after quote removal, keeps key=""', () => {
    expect(texts('"" talents=""')).toEqual(['talents=']);
  });

  it('has no inline comments: # after a token is a token', () => {
    expect(texts('iterations=10 # x')).toEqual(['iterations=10', '#', 'x']);
  });

  it('treats a line whose first non-blank character is # as a comment', () => {
    const tp = tokenize('  \t# output=log.txt\n#iterations=5\nmax_time=300');
    expect(tp.lines.map((l) => l.kind)).toEqual(['comment', 'comment', 'content']);
    expect(tp.tokens).toHaveLength(1);
    expect(tp.tokens[0]).toMatchObject({ text: 'max_time=300', line: 3 });
  });

  it('splits several tokens per line on spaces and tabs, with columns', () => {
    const tp = tokenize('  iterations=100\ttarget_error=0.1   threads=4');
    expect(tp.tokens.map((t) => [t.text, t.column])).toEqual([
      ['iterations=100', 3],
      ['target_error=0.1', 18],
      ['threads=4', 37],
    ]);
  });

  it('skips a BOM and handles CRLF, keeping 1-based line numbers', () => {
    const src = '\uFEFFwarrior="A B"\r\n\r\n# c\r\niterations=5\r\n';
    const tp = tokenize(src);
    expect(tp.bom).toBe(true);
    expect(tp.eol).toBe('\r\n');
    expect(tp.lines).toHaveLength(4);
    expect(tp.tokens.map((t) => [t.text, t.line])).toEqual([
      ['warrior=A B', 1],
      ['iterations=5', 4],
    ]);
    expect(tp.tokens[0]).toMatchObject({ column: 1, start: 1 });
    expect(tp.lines[0]?.text).toBe('\uFEFFwarrior="A B"'.slice(1));
    expect(tp.lines[3]?.text).toBe('iterations=5');
  });

  it('a BOM only counts at the very start', () => {
    expect(texts('a=1\n\uFEFFb=2')).toEqual(['a=1', '\uFEFFb=2']);
  });

  it('counts lines like an editor, with or without a final newline', () => {
    expect(tokenize('a=1\nb=2\n').lines).toHaveLength(2);
    expect(tokenize('a=1\nb=2').lines).toHaveLength(2);
    expect(tokenize('a=1\n\n\nb=2').tokens.map((t) => t.line)).toEqual([1, 4]);
    expect(tokenize('').lines).toHaveLength(1);
  });

  it('an unclosed quote runs to the end of the line and is flagged', () => {
    const [t, u] = tokenize('warrior="A B\r\nmage=C').tokens;
    expect(t).toMatchObject({ text: 'warrior=A B', unclosedQuote: true, line: 1 });
    expect(u).toMatchObject({ text: 'mage=C', unclosedQuote: false, line: 2 });
  });

  it('flags CR-only line breaks, which simc does not split on', () => {
    const tp = tokenize('a=1\rb=2');
    expect(tp.crOnlyLineBreaks).toBe(true);
    expect(tp.lines).toHaveLength(1);
    expect(texts('a=1\rb=2')).toEqual(['a=1', 'b=2']);
    expect(tokenize('a=1\r\nb=2\r\n').crOnlyLineBreaks).toBe(false);
  });

  it('keeps raw spans that slice back to the source', () => {
    const src = 'x=1\n  copy="Darkmoon Deck Box: Inferno"  y=2\n';
    for (const t of tokenize(src).tokens) expect(src.slice(t.start, t.end)).toBe(t.raw);
  });
});

describe('splitOption', () => {
  it('splits at the first =, so values keep later = signs', () => {
    expect(splitOption('actions+=/execute,if=target.health.pct<20&a=1')).toEqual({
      name: 'actions+',
      key: 'actions',
      value: '/execute,if=target.health.pct<20&a=1',
      append: true,
    });
    expect(splitOption('profileset.My Set+=talents=ABC')).toMatchObject({
      key: 'profileset.My Set',
      value: 'talents=ABC',
      append: true,
    });
    expect(splitOption('trinket1=,id=133641,ilevel=50')).toMatchObject({
      key: 'trinket1',
      value: ',id=133641,ilevel=50',
      append: false,
    });
    expect(splitOption('talents=')).toMatchObject({ key: 'talents', value: '' });
    expect(splitOption('gear.simc')).toBeNull();
  });
});

describe('expandTemplates', () => {
  const vars = new Map([
    ['a', 'A'],
    ['b', 'B'],
    ['x', 'a'],
  ]);
  it('replaces every reference, nested ones inner-first', () => {
    expect(expandTemplates('$(a)_$(b)', vars)).toEqual({ text: 'A_B', missing: [], error: null });
    expect(expandTemplates('$($(x))', vars).text).toBe('A');
  });
  it('reports missing variables and leaves them in place', () => {
    expect(expandTemplates('t=$(nope)', vars)).toEqual({ text: 't=$(nope)', missing: ['nope'], error: null });
  });
  it('reports unbalanced parentheses and too many references', () => {
    expect(expandTemplates('$(a', vars).error).toMatch(/Unbalanced parenthesis/);
    expect(expandTemplates('$(a)'.repeat(11), vars).error).toMatch(/Nesting depth exceeded/);
  });
});
