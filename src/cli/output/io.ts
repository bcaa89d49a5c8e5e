import { colours, type Colours } from './ansi.js';
import { decideColourLevel } from './colour.js';
import { terminalGuard, terminalSafeLine } from '../../util/safe.js';

/**
 * A key/value value that a view built itself (coloured, with any foreign text inside already escaped): keyValues
 * prints it as it is. A plain string value is foreign text and is escaped.
 */
export class Painted {
  constructor(readonly text: string) {}
}

export const painted = (text: string): Painted => new Painted(text);

/** What the output module needs to know about a stream: tests pass fakes, the CLI passes process.stdout/stderr. */
export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface OutputOptions {
  stdout: OutStream;
  stderr: OutStream;
  env: NodeJS.ProcessEnv;
  json: boolean;
  noColor: boolean;
  quiet: boolean;
}

/**
 * The only owner of stdout and stderr. Commands hand it data; it decides TTY or not, colour or not, JSON or text.
 * Rules: results go to stdout; notices, warnings, progress and errors go to stderr; with --json, stdout holds exactly
 * one JSON document and nothing else.
 */
export class Output {
  readonly json: boolean;
  readonly quiet: boolean;
  /** Colours for text written to stdout. */
  readonly c: Colours;
  /** Colours for text written to stderr. */
  readonly ce: Colours;
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly env: NodeJS.ProcessEnv;
  private jsonWritten = false;
  /** Secret values (API key, provider credentials, signing secrets) scrubbed from everything this module writes. */
  private readonly secrets: string[] = [];

  constructor(opts: OutputOptions) {
    this.stdout = opts.stdout;
    this.stderr = opts.stderr;
    this.env = opts.env;
    this.json = opts.json;
    this.quiet = opts.quiet;
    this.c = colours(decideColourLevel(opts.stdout, opts.env, opts.noColor));
    this.ce = colours(decideColourLevel(opts.stderr, opts.env, opts.noColor));
  }

  /** Register a secret: from now on it never appears in output, whatever path tries to print it. */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4 && !this.secrets.includes(value)) this.secrets.push(value);
  }

  scrub(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.split(secret).join('[REDACTED]');
    return result;
  }

  get stdoutIsTTY(): boolean {
    return Boolean(this.stdout.isTTY);
  }

  /**
   * A spinner or live line is shown only on an interactive stderr, outside CI, without --quiet, and only on a
   * terminal that knows its width: a pty nobody sized (`script` without a terminal, some CI runners) says 0 columns,
   * and a spinner cannot tell there how many lines to redraw.
   */
  get interactive(): boolean {
    const sized = (this.stderr.columns ?? 0) > 0;
    return Boolean(this.stderr.isTTY) && sized && !this.env.CI && this.env.TERM !== 'dumb' && !this.quiet;
  }

  /** Width for tables on stdout; undefined when stdout is not a terminal (no truncation then). */
  get width(): number | undefined {
    return this.stdout.isTTY ? this.stdout.columns || 100 : undefined;
  }

  /** Write one JSON document to stdout: indented on a TTY, one compact line when piped. */
  printJson(value: unknown): void {
    if (this.jsonWritten) throw new Error('internal: a second JSON document was written to stdout');
    this.jsonWritten = true;
    const text = this.stdout.isTTY ? JSON.stringify(value, null, 2) : JSON.stringify(value);
    this.stdout.write(`${this.scrub(text)}\n`);
  }

  /**
   * One compact JSON object per line on stdout, for the one streaming command (`webhook listen --json`): each line
   * is a complete document. Never mixed with printJson.
   */
  printJsonLine(value: unknown): void {
    if (this.jsonWritten) throw new Error('internal: JSON lines after a JSON document');
    this.stdout.write(`${this.scrub(JSON.stringify(value))}\n`);
  }

  /** Human text for stdout, made terminal-safe: only simjob's own colour codes survive (see safe.ts). */
  safeOut(text: string): string {
    return terminalGuard(this.scrub(text), this.c.level > 0);
  }

  /** The same for stderr (spinner text included). */
  safeErr(text: string): string {
    return terminalGuard(this.scrub(text), this.ce.level > 0);
  }

  /** A line of human output on stdout. Never used in --json mode. */
  line(text = ''): void {
    if (this.json) return;
    this.stdout.write(`${this.safeOut(text)}\n`);
  }

  /** Aligned key/value pairs on stdout; empty values are left out; plain string values are foreign text, escaped. */
  keyValues(pairs: ReadonlyArray<[string, string | number | Painted | null | undefined]>): void {
    const shown = pairs.filter(([, v]) => v !== undefined && v !== null && v !== '');
    const width = Math.max(0, ...shown.map(([k]) => k.length));
    for (const [key, value] of shown) {
      const text = value instanceof Painted ? value.text : terminalSafeLine(String(value));
      this.line(`${this.c.dim(key.padEnd(width))}  ${text}`);
    }
  }

  /** A notice on stderr (suppressed by --quiet). */
  notice(text: string): void {
    if (this.quiet) return;
    this.stderr.write(`${this.safeErr(text)}\n`);
  }

  /** A warning on stderr; shown even with --quiet. The text is one line of foreign-safe plain text. */
  warn(text: string): void {
    this.stderr.write(`${this.ce.yellow('Warning:')} ${this.safeErr(terminalSafeLine(text))}\n`);
  }

  /** Raw text on stderr (used by the error renderer and progress lines); still guarded. */
  err(text: string): void {
    this.stderr.write(this.safeErr(text));
  }
}
