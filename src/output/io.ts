import { Chalk, type ChalkInstance } from 'chalk';
import { decideColourLevel } from './colour.js';

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
  readonly c: ChalkInstance;
  /** Colours for text written to stderr. */
  readonly ce: ChalkInstance;
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
    this.c = new Chalk({ level: decideColourLevel(opts.stdout, opts.env, opts.noColor) });
    this.ce = new Chalk({ level: decideColourLevel(opts.stderr, opts.env, opts.noColor) });
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

  /** A spinner or live line is shown only on an interactive stderr, outside CI, without --quiet. */
  get interactive(): boolean {
    return Boolean(this.stderr.isTTY) && !this.env.CI && this.env.TERM !== 'dumb' && !this.quiet;
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

  /** A line of human output on stdout. Never used in --json mode. */
  line(text = ''): void {
    if (this.json) return;
    this.stdout.write(`${this.scrub(text)}\n`);
  }

  /** Aligned key/value pairs on stdout; empty values are left out. */
  keyValues(pairs: ReadonlyArray<[string, string | number | null | undefined]>): void {
    const shown = pairs.filter(([, v]) => v !== undefined && v !== null && v !== '');
    const width = Math.max(0, ...shown.map(([k]) => k.length));
    for (const [key, value] of shown) this.line(`${this.c.dim(key.padEnd(width))}  ${value}`);
  }

  /** A notice on stderr (suppressed by --quiet). */
  notice(text: string): void {
    if (this.quiet) return;
    this.stderr.write(`${this.scrub(text)}\n`);
  }

  /** A warning on stderr; shown even with --quiet. */
  warn(text: string): void {
    this.stderr.write(`${this.ce.yellow('Warning:')} ${this.scrub(text)}\n`);
  }

  /** Raw text on stderr (used by the error renderer and progress lines). */
  err(text: string): void {
    this.stderr.write(this.scrub(text));
  }
}
