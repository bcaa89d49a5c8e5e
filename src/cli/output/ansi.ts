import type { ColourLevel } from './colour.js';
import { terminalSafeLine } from '../../util/safe.js';

/**
 * The styles simjob paints with, written as chalk writes them: a style is re-opened after an inner one closes it,
 * and closed and re-opened around each line break. Not chalk itself: importing chalk builds its tables of every
 * style and sniffs the terminal on every command, --json ones too, for the seven styles used here.
 * The level comes from colour.ts; at 0 text passes through unchanged.
 */
export type Style = (text: string | number) => string;

export interface Colours {
  readonly level: ColourLevel;
  readonly bold: Style;
  readonly dim: Style;
  readonly red: Style;
  readonly green: Style;
  readonly yellow: Style;
  readonly magenta: Style;
  readonly cyan: Style;
}

/** SGR open and close codes (those of chalk's ansi-styles). */
const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;

export function colours(level: ColourLevel): Colours {
  const style = ([open, close]: readonly [number, number]): Style =>
    level === 0 ? plain : paint(`\x1b[${open}m`, `\x1b[${close}m`);
  return {
    level,
    bold: style(CODES.bold),
    dim: style(CODES.dim),
    red: style(CODES.red),
    green: style(CODES.green),
    yellow: style(CODES.yellow),
    magenta: style(CODES.magenta),
    cyan: style(CODES.cyan),
  };
}

const plain: Style = (text) => `${text}`;

function paint(open: string, close: string): Style {
  return (text) => {
    let string = `${text}`;
    if (!string) return string;
    if (string.includes('\x1b')) string = string.replaceAll(close, close + open);
    if (string.includes('\n')) string = string.replace(/\r?\n/g, (lineBreak) => close + lineBreak + open);
    return open + string + close;
  };
}

/** A job state in its colour: green done, red failed, yellow waiting or running; a state this client does not know
 * (a server's word) escaped and uncoloured. */
export function colourState(c: Colours, state: string): string {
  switch (state) {
    case 'completed':
      return c.green(state);
    case 'failed':
    case 'timed_out':
      return c.red(state);
    case 'cancelled':
      return c.magenta(state);
    case 'running':
    case 'starting':
      return c.cyan(state);
    case 'pending':
    case 'queued':
      return c.yellow(state);
    default:
      return terminalSafeLine(state);
  }
}
