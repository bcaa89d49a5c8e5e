import type { StatusRecord } from '../api/schemas.js';
import { formatDuration } from './format.js';
import type { Output } from './io.js';
import { describeStatus } from './views/status.js';

export interface Progress {
  update(status: StatusRecord, elapsedMs: number): void;
  transient(error: Error, retryInMs: number): void;
  done(status: StatusRecord): void;
  stop(): void;
}

/**
 * Progress of a wait, on stderr. Without a terminal (CI, pipes): one plain line per change of state, no ANSI.
 * (An interactive spinner is drawn by the same interface on a TTY.)
 */
export function createProgress(out: Output, id: string): Progress {
  let lastLine = '';
  const write = (status: StatusRecord, elapsedMs: number) => {
    const line = `${id}: ${describeStatus(status)}`;
    const changed = line.replace(/ \d+%/, '') !== lastLine.replace(/ \d+%/, '');
    if (changed) out.notice(`${line} (${formatDuration(elapsedMs) ?? '0 s'})`);
    lastLine = line;
  };
  out.notice(`Waiting for job ${id} (Ctrl-C stops waiting; the job keeps running)`);
  return {
    update: write,
    transient: (error, retryIn) => out.notice(`Polling failed (${error.message}); retrying in ${Math.ceil(retryIn / 1000)} s…`),
    done: () => undefined,
    stop: () => undefined,
  };
}
