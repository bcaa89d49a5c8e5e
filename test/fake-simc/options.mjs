// Tokenizer of the stand-in simc: argv tokens, profile files, includes, template variables.
// Behaviour follows simc's engine/sim/option.cpp as the service's simc contract describes it (§1.1 and §2; README.md)
// (written from scratch; no simc code is copied).

import fs from 'node:fs';
import path from 'node:path';

/** An error carrying simc's nested-message chain; printed as `Error: a: b: c`. */
export class ChainError extends Error {
  /** @param {string[]} chain outermost first */
  constructor(chain) {
    super(chain.join(': '));
    this.chain = chain;
  }
}

/** @param {unknown} err */
export function chainOf(err) {
  if (err instanceof ChainError) return err.chain;
  if (err instanceof Error) return [err.message];
  return [String(err)];
}

/** Wrap `err` in an outer context message, like std::throw_with_nested. */
export function nest(outer, err) {
  return new ChainError([outer, ...chainOf(err)]);
}

export function fail(message) {
  return new ChainError([message]);
}

/** Split a profile line on blanks; double quotes group text and are removed (`warrior="A B"` → `warrior=A B`). */
export function splitAllowQuotes(line) {
  const tokens = [];
  let cur = '';
  let quoted = false;
  let seenQuote = false;
  for (const ch of line) {
    if (ch === '"') {
      quoted = !quoted;
      seenQuote = true;
      continue;
    }
    if (!quoted && (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n')) {
      if (cur.length > 0 || seenQuote) tokens.push(cur);
      cur = '';
      seenQuote = false;
      continue;
    }
    cur += ch;
  }
  if (cur.length > 0 || seenQuote) tokens.push(cur);
  return tokens;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Decode one line: UTF-8 if valid, else Latin-1 (simc converts Latin-1 input to UTF-8). */
function decodeLine(bytes) {
  try {
    return utf8.decode(bytes);
  } catch {
    return latin1.decode(bytes);
  }
}

/** `# fake.dps=51234.5` / `# fake_noise=0.05` comment directive → [key, value] or null. */
export function parseDirectiveComment(text) {
  const m = /^#\s*fake[._]([A-Za-z][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(text);
  return m ? [m[1].toLowerCase(), m[2]] : null;
}

/** Option name of a stand-in knob given as an ordinary token (`fake_dps=…`, `fake.noise=…`) → key or null. */
export function directiveKey(name) {
  const m = /^fake[._]([A-Za-z][A-Za-z0-9_]*)$/.exec(name);
  return m ? m[1].toLowerCase() : null;
}

function baseName(filePath) {
  const file = filePath.slice(filePath.lastIndexOf('/') + 1);
  const dot = file.indexOf('.');
  return dot >= 0 ? file.slice(0, dot) : file;
}

/**
 * The option database: every `name=value` token in input order (includes expanded in place),
 * plus the template-variable map. Tuples: { name, value, directive?: true }.
 */
export class OptionDb {
  /** @param {{ cwd?: string, readStdin?: () => Buffer }} [env] */
  constructor(env = {}) {
    this.cwd = env.cwd ?? process.cwd();
    this.readStdin = env.readStdin ?? (() => fs.readFileSync(0));
    /** @type {{name: string, value: string, directive?: boolean}[]} */
    this.tuples = [];
    /** @type {Map<string, string>} */
    this.vars = new Map();
    // Search path for bare file names and input= (current dir first), as simc's option_db_t does (trimmed).
    this.autoPath = ['.', '..', './profiles', '../profiles'];
  }

  add(name, value, directive = false) {
    this.tuples.push(directive ? { name, value, directive: true } : { name, value });
  }

  /** Open a file through the search path; returns { bytes, actual } or null. */
  openFile(name) {
    const candidates = path.isAbsolute(name) ? [name] : [...this.autoPath.map((p) => `${p}/${name}`), name];
    for (const c of candidates) {
      const full = path.resolve(this.cwd, c);
      try {
        if (fs.statSync(full).isFile()) return { bytes: fs.readFileSync(full), actual: c };
      } catch {
        // try next
      }
    }
    return null;
  }

  /** simc's do_replace: expand `$(var)` occurrences, innermost first, nesting depth ≤ 10. */
  expand(str) {
    const begin = str.indexOf('$(');
    if (begin < 0) return str;
    return this.#replace(str, begin, 1);
  }

  #replace(str, begin, depth) {
    if (depth > 10) throw fail(`Nesting depth exceeded for: '${str}' (max: 10)`);
    const next = str.indexOf('$(', begin + 2);
    if (next >= 0) str = this.#replace(str, next, depth + 1);
    const end = str.indexOf(')', begin + 2);
    if (end < 0) throw fail(`Unbalanced parenthesis in template variable for: '${str}'`);
    const v = str.slice(begin + 2, end);
    if (!this.vars.has(v)) throw fail(`Missing template variable: '${v}'`);
    return str.slice(0, begin) + this.vars.get(v) + str.slice(end + 1);
  }

  parseArgs(args) {
    for (const a of args) this.parseToken(a);
  }

  /** Bytes of a profile: BOM skipped, comment lines dropped (fake.* comment directives kept), lines tokenized. */
  parseFile(bytes) {
    let start = 0;
    if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    while (start <= bytes.length) {
      let nl = bytes.indexOf(0x0a, start);
      if (nl < 0) nl = bytes.length;
      const line = decodeLine(bytes.subarray(start, nl)).replace(/^[ \t\r\n]+/, '');
      start = nl + 1;
      if (line.length === 0) continue;
      if (line[0] === '#') {
        const d = parseDirectiveComment(line.replace(/[\r\n]+$/, ''));
        if (d) this.add(`fake.${d[0]}`, d[1], true);
        continue;
      }
      for (const token of splitAllowQuotes(line)) this.parseToken(token);
    }
  }

  parseText(text) {
    this.parseFile(Buffer.from(text, 'utf8'));
  }

  parseToken(token) {
    if (token === '-') {
      this.parseFile(this.readStdin());
      return;
    }
    let parsed = token;
    let cut = parsed.indexOf('=');
    if (cut < 0) {
      parsed = this.expand(parsed);
      cut = parsed.indexOf('=');
    }
    if (cut < 0) {
      const f = this.openFile(parsed);
      if (!f) throw fail(`Unexpected parameter '${parsed}'. Expected format: name=value`);
      this.parseFile(f.bytes);
      return;
    }
    let name = parsed.slice(0, cut);
    const value = this.expand(parsed.slice(cut + 1));
    if (name.length > 0 && name[0] === '$') {
      if (name.length < 3 || name[1] !== '(' || name[name.length - 1] !== ')') {
        // simc's message lacks the closing quote; kept as is.
        throw fail(`Variable syntax error: '${parsed}`);
      }
      this.vars.set(this.expand(name.slice(2, -1)), value);
      return;
    }
    if (name === 'input') {
      const previous = this.vars.get('current_base_name');
      const f = this.openFile(value);
      if (!f) throw fail(`Unable to open input parameter file '${value}'.`);
      this.vars.set('current_base_name', baseName(f.actual));
      this.parseFile(f.bytes);
      if (previous !== undefined) this.vars.set('current_base_name', previous);
      return;
    }
    name = this.expand(name);
    const key = directiveKey(name);
    if (key) this.add(`fake.${key}`, value, true);
    else this.add(name, value);
  }
}
