import type { Ora } from 'ora';
import type { StatusRecord } from '../../core/resources/schemas.js';
import { colourState, type Colours } from './ansi.js';
import { formatDuration } from '../../util/format.js';
import type { Output } from './io.js';
import { terminalSafeLine } from '../../util/safe.js';
import { describeStatus, queueEtaText, stageText } from './views/status.js';

/** What the wait loop reports to; drawn as a spinner on a terminal, as plain lines anywhere else. */
export interface Progress {
  update(status: StatusRecord, elapsedMs: number): void;
  /** A poll failed; the wait goes on. `outage`: failures in a row so far, and for how long. */
  transient(error: Error, retryInMs: number, outage: { failures: number; forMs: number }): void;
  /** The job is terminal: leave a last line saying how it ended. */
  done(status: StatusRecord, elapsedMs: number): void;
  /** Stop drawing (interrupt, timeout, error) without a verdict. */
  stop(): void;
}

/** `0:42`, `12:05`, `1:02:09`: elapsed time on a wall clock. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** A change worth a line of its own when there is no spinner: the state, or the multistage stage. */
export function stateKey(status: StatusRecord): string {
  return `${status.status}|${status.status === 'running' ? (stageText(status) ?? '') : ''}`;
}

/** A 10-cell bar for a percentage: `■■■■□□□□□□`. */
export function percentBar(c: Colours, percent: number, cells = 10): string {
  const filled = Math.max(0, Math.min(cells, Math.round((percent / 100) * cells)));
  return c.cyan('■'.repeat(filled)) + c.dim('□'.repeat(cells - filled));
}

/**
 * The live text of one job for a spinner: state (coloured), bar and percent, stage, queue ETA counted down since
 * the status was read.
 */
export function liveText(c: Colours, status: StatusRecord, sinceReadMs: number, shownPercent?: number): string {
  const parts = [colourState(c, status.status)];
  const percent = shownPercent ?? status.progress?.percent;
  if (status.status === 'running' && typeof percent === 'number')
    parts[0] += ` ${percentBar(c, percent)} ${Math.floor(percent)}%`;
  const stage = stageText(status);
  if (stage && status.status === 'running') parts.push(`stage ${stage}`);
  const eta = queueEtaText(status, sinceReadMs);
  if (eta) parts.push(eta);
  if (status.retried) parts.push(c.yellow('retried after a platform error'));
  return parts.join(c.dim(' · '));
}

export async function createProgress(
  out: Output,
  id: string,
  ctrlC = 'Ctrl-C stops waiting; the job keeps running',
): Promise<Progress> {
  out.notice(out.ce.dim(`Waiting for job ${id} (${ctrlC}).`));
  return out.interactive ? spinnerProgress(out, id) : lineProgress(out, '', id);
}

/** A long outage is mentioned again at most this often: a CI log gets a line a minute, not one per poll. */
export const OUTAGE_REMINDER_MS = 60_000;

/**
 * Which poll failures of one job's wait are worth a line: the first of an outage, then one a minute saying it
 * lasts (with the command that picks the job up again), and one when polling works again. Nothing else.
 */
export class OutageNotices {
  /** Whole minutes of the current outage already covered by a line; undefined while polls work. */
  private announced: number | undefined;
  private lastingMs = 0;

  constructor(private readonly id?: string) {}

  failed(error: Error, retryInMs: number, outage: { forMs: number }): string | undefined {
    this.lastingMs = outage.forMs;
    const minute = Math.floor(outage.forMs / OUTAGE_REMINDER_MS);
    if (this.announced !== undefined && minute <= this.announced) return undefined;
    const first = this.announced === undefined;
    this.announced = minute;
    if (first) return transientText(error, retryInMs);
    const pickUp = this.id ? `; Ctrl-C stops waiting, and \`simjob status ${this.id} --wait\` picks it up again` : '';
    return `Polling has failed for ${formatDuration(outage.forMs) ?? '0 s'} (${reason(error)}); next try in ${Math.ceil(retryInMs / 1000)} s. The job is unaffected${pickUp}.`;
  }

  /** A poll worked: the line saying so, when the outage had one. */
  recovered(): string | undefined {
    if (this.announced === undefined) return undefined;
    this.announced = undefined;
    return `Polling works again (it failed for ${formatDuration(this.lastingMs) ?? '0 s'}).`;
  }
}

/**
 * Without a terminal (CI, pipes, TERM=dumb): one plain line per change of state, no ANSI codes, each with the time
 * waited so far. A poll error is shown once per outage.
 */
export function lineProgress(out: Output, label = '', id?: string): Progress {
  let lastKey = '';
  const outage = new OutageNotices(id);
  return {
    update(status, elapsedMs) {
      const back = outage.recovered();
      if (back) out.notice(`${label}${back}`);
      const key = stateKey(status);
      if (key === lastKey) return;
      lastKey = key;
      out.notice(`[${clock(elapsedMs)}] ${label}${describeStatus(status)}`);
    },
    transient(error, retryInMs, lasting) {
      const line = outage.failed(error, retryInMs, lasting);
      if (line) out.notice(`${label}${line}`);
    },
    done: () => undefined,
    stop: () => undefined,
  };
}

export function transientText(error: Error, retryInMs: number): string {
  return `Polling failed (${reason(error)}); retrying in ${Math.ceil(retryInMs / 1000)} s. The job is unaffected.`;
}

function reason(error: Error): string {
  return terminalSafeLine(error.message).replace(/\.$/, '');
}

export interface TickingSpinner {
  /** Draw the text again now (after a change). */
  redraw(): void;
  /** Stop redrawing; leave a last line with this symbol and text, or nothing. */
  stop(last?: { symbol: string; text: string }): void;
}

/**
 * An ora spinner on stderr whose text is redrawn every second, so clocks and ETAs tick between polls. ora writes to
 * the stream itself, so its text passes the same terminal guard as every other line.
 */
export async function startTickingSpinner(out: Output, text: () => string): Promise<TickingSpinner> {
  const { default: ora } = await import('ora');
  const safeText = () => out.safeErr(text());
  const spinner: Ora = ora({
    stream: out.stderr as NodeJS.WriteStream,
    discardStdin: false,
    isEnabled: true,
    text: safeText(),
  }).start();
  const redraw = () => {
    spinner.text = safeText();
  };
  const ticker = setInterval(redraw, 1000);
  ticker.unref();
  return {
    redraw,
    stop(last) {
      clearInterval(ticker);
      if (last) spinner.stopAndPersist({ symbol: last.symbol, text: out.safeErr(last.text) });
      else spinner.stop();
    },
  };
}

/** On a terminal: an ora spinner on stderr, redrawn every second so elapsed time and the queue ETA tick. */
async function spinnerProgress(out: Output, id: string): Promise<Progress> {
  const c = out.ce;
  const started = Date.now();
  let status: StatusRecord | undefined;
  let readAt = started;
  let problem: string | undefined;
  const percent = new PercentEstimate();

  const text = () => {
    const now = Date.now();
    const state = status ? liveText(c, status, now - readAt, percent.at(now)) : c.dim('checking…');
    const tail = problem ? ` ${c.yellow(problem)}` : '';
    return `${c.bold(id)}  ${state}${c.dim(` · ${clock(now - started)}`)}${tail}`;
  };
  const spinner = await startTickingSpinner(out, text);
  const outage = new OutageNotices(id);

  return {
    update(next) {
      status = next;
      readAt = Date.now();
      percent.read(next, readAt);
      problem = undefined;
      const back = outage.recovered();
      if (back) out.notice(back);
      spinner.redraw();
    },
    transient(error, retryInMs, lasting) {
      problem = `(connection trouble; retrying in ${Math.ceil(retryInMs / 1000)} s)`;
      spinner.redraw();
      const line = outage.failed(error, retryInMs, lasting);
      if (line) out.notice(line);
    },
    done(final, elapsedMs) {
      const ok = final.status === 'completed';
      const symbol = ok ? c.green('✔') : c.red('✖');
      const how = `${colourState(c, final.status)}${final.errorCode ? ` (${final.errorCode})` : ''}`;
      spinner.stop({
        symbol,
        text: `Job ${c.bold(id)} ${how} after ${formatDuration(elapsedMs) ?? '0 s'} of waiting.`,
      });
      out.err('\n'); // on the terminal, a blank line between the verdict and the result
    },
    stop() {
      spinner.stop();
    },
  };
}

/**
 * The percentage a spinner shows between two polls (which may be 30 s apart on a long run): the last reading moved
 * on at the rate measured since the first reading of this run, never past 99% and never backwards between two
 * readings. Each reading corrects it.
 */
export class PercentEstimate {
  private first: { at: number; percent: number } | undefined;
  private last: { at: number; percent: number } | undefined;
  private shown = 0;

  read(status: StatusRecord, at: number): void {
    const percent = status.progress?.percent;
    // Multistage progress is not linear in time (each stage is more precise than the last) and the stage shown
    // comes from the reading: such runs are shown as read.
    const staged = (status.progress?.stage?.total ?? 1) > 1;
    if (status.status !== 'running' || typeof percent !== 'number' || staged) {
      this.first = this.last = undefined;
      this.shown = 0;
      return;
    }
    if (!this.first || percent < this.first.percent) this.first = { at, percent };
    this.last = { at, percent };
    // A reading is the truth: the estimate starts again from it (even when that is below what was shown).
    this.shown = percent;
  }

  /** undefined: show the reading as it is (not running, or no rate yet). */
  at(now: number): number | undefined {
    const { first, last } = this;
    if (!first || !last || last.at <= first.at || last.percent <= first.percent) return last?.percent;
    const rate = (last.percent - first.percent) / (last.at - first.at);
    const estimate = Math.min(99, last.percent + rate * (now - last.at));
    this.shown = Math.max(this.shown, Math.max(last.percent, estimate));
    return this.shown;
  }
}
