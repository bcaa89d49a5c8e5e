import type { StatusRecord } from '../../core/resources/schemas.js';
import type { Output } from './io.js';
import { clock, liveText, startTickingSpinner, stateKey, transientText } from './progress.js';
import { terminalSafeLine as safe } from '../../util/safe.js';
import { truncate } from './table.js';
import { describeStatus } from './views/status.js';

/** One profile of a batch as the progress view sees it. */
export interface BatchItem {
  label: string;
  id?: string;
  status?: StatusRecord;
  statusAt?: number;
  /** Ended: terminal, failed to submit, or the wait for it failed. */
  settled?: boolean;
}

export interface BatchProgress {
  /** A job id became known: printed at once (stderr), so an interrupted batch can be picked up. */
  accepted(item: BatchItem, line: string): void;
  update(item: BatchItem, elapsedMs: number): void;
  transient(item: BatchItem, error: Error, retryInMs: number): void;
  /** Anything else worth a line (a 429 being waited out, a failed submission). */
  note(text: string): void;
  stop(): void;
}

const MAX_LIVE_ROWS = 8;

/**
 * Progress of a batch on stderr: on a terminal one spinner whose text lists the jobs still in flight under a
 * tally; elsewhere one plain line per change of state of any job, prefixed with its profile.
 */
export async function createBatchProgress(out: Output, items: readonly BatchItem[]): Promise<BatchProgress> {
  if (!out.interactive) return linesFor(out);
  const c = out.ce;
  const started = Date.now();
  const failing = new Set<BatchItem>();
  const width = () => Math.max(40, ((out.stderr as { columns?: number }).columns ?? 100) - 4);
  const text = () => {
    const now = Date.now();
    const counts = new Map<string, number>();
    for (const item of items) {
      const state =
        item.status?.status ?? (item.settled ? 'not submitted' : item.id ? 'submitted' : 'waiting to submit');
      counts.set(safe(state), (counts.get(safe(state)) ?? 0) + 1);
    }
    const tally = [...counts].map(([state, n]) => `${n} ${state}`).join(', ');
    const live = items.filter((i) => i.id && !i.settled);
    const rows = live.slice(0, MAX_LIVE_ROWS).map((i) => {
      const state = i.status ? liveText(c, i.status, now - (i.statusAt ?? now)) : c.dim('submitted');
      return `  ${truncate(safe(i.label), 28).padEnd(28)}  ${c.dim(safe(i.id ?? ''))}  ${state}`;
    });
    if (live.length > MAX_LIVE_ROWS) rows.push(c.dim(`  … and ${live.length - MAX_LIVE_ROWS} more`));
    return [
      `${items.length} ${items.length === 1 ? 'job' : 'jobs'}: ${tally}${c.dim(` · ${clock(now - started)}`)}`,
      ...rows,
    ]
      .map((l) => truncate(l, width() + 40))
      .join('\n');
  };
  const spinner = await startTickingSpinner(out, text);
  const redraw = spinner.redraw;
  return {
    accepted: (_item, line) => {
      out.err(`${line}\n`);
      redraw();
    },
    update: (item) => {
      failing.delete(item);
      redraw();
    },
    transient: (item, error, retryIn) => {
      if (!failing.has(item)) out.notice(`${safe(item.label)}: ${transientText(error, retryIn)}`);
      failing.add(item);
    },
    note: (line) => out.notice(line),
    stop: () => spinner.stop(),
  };
}

function linesFor(out: Output): BatchProgress {
  const started = Date.now();
  const last = new Map<BatchItem, string>();
  const failing = new Set<BatchItem>();
  return {
    // Even with --quiet: the ids are what an interrupted batch is picked up with.
    accepted: (_item, line) => out.err(`${line}\n`),
    update: (item) => {
      failing.delete(item);
      if (!item.status) return;
      const key = stateKey(item.status);
      if (last.get(item) === key) return;
      last.set(item, key);
      out.notice(
        `[${clock(Date.now() - started)}] ${safe(item.label)} (${safe(item.id ?? '')}): ${describeStatus(item.status)}`,
      );
    },
    transient: (item, error, retryIn) => {
      if (!failing.has(item)) out.notice(`${safe(item.label)}: ${transientText(error, retryIn)}`);
      failing.add(item);
    },
    note: (line) => out.notice(line),
    stop: () => undefined,
  };
}
