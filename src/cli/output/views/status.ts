import { isTerminal } from '../../../core/resources/enums.js';
import type { StatusRecord } from '../../../core/resources/schemas.js';
import { colourState } from '../ansi.js';
import { formatDuration, formatTime } from '../../../util/format.js';
import { painted, type Output } from '../io.js';
import { terminalSafeLine as safe } from '../../../util/safe.js';

export interface DescribeOptions {
  /** Colours the state name. */
  c?: (state: string) => string;
  /** Seconds to take off the queue ETA (time passed since the status was read), so a countdown can be shown. */
  etaElapsedMs?: number;
}

/**
 * Where a job is, in one line: `running 45% · stage 2/3 intermediate`, `queued · starts in ~40 s`,
 * `failed — simulation_error`. A state this client does not know is shown as it is.
 */
export function describeStatus(status: StatusRecord, options: DescribeOptions = {}): string {
  const paint = options.c ?? ((s: string) => s);
  let head = paint(safe(status.status));
  const percent = status.progress?.percent;
  if (status.status === 'running' && typeof percent === 'number') head += ` ${Math.floor(percent)}%`;
  const parts = [head];
  const stage = stageText(status);
  if (stage && status.status === 'running') parts.push(`stage ${stage}`);
  const eta = queueEtaText(status, options.etaElapsedMs ?? 0);
  if (eta) parts.push(eta);
  if (status.retried && !isTerminal(status.status)) parts.push('retried after a platform error');
  const text = parts.join(' · ');
  return status.errorCode ? `${text} — ${safe(status.errorCode)}` : text;
}

/** `2/3 intermediate`, or undefined for a single-pass run. */
export function stageText(status: StatusRecord): string | undefined {
  const stage = status.progress?.stage;
  if (!stage?.current || !stage.total || stage.total <= 1) return undefined;
  return `${stage.current}/${stage.total}${stage.label ? ` ${safe(stage.label)}` : ''}`;
}

/** `starts in ~40 s` while waiting with an ETA (counted down by `elapsedMs`), else undefined. */
export function queueEtaText(status: StatusRecord, elapsedMs = 0): string | undefined {
  if (status.status !== 'queued' && status.status !== 'pending') return undefined;
  const eta = status.queue?.estimatedStartSeconds;
  if (typeof eta !== 'number') return undefined;
  const left = eta * 1000 - elapsedMs;
  if (left < 1000) return 'starting soon';
  const s = Math.ceil(left / 1000);
  return `starts in ~${s < 60 ? `${s} s` : formatDuration(s * 1000)}`;
}

export function printStatus(out: Output, id: string, status: StatusRecord): void {
  out.keyValues([
    ['Job', id],
    ['Status', painted(describeStatus(status, { c: (s) => colourState(out.c, s) }))],
    ['Reason', status.statusReason ?? undefined],
    ['Queued at', formatTime(status.queue?.queuedAt)],
    ['Started', formatTime(status.startedAt)],
    ['Updated', formatTime(status.updatedAt)],
    [
      'simc exit code',
      status.simcExitCode === null || status.simcExitCode === undefined ? undefined : String(status.simcExitCode),
    ],
    ['Retried', status.retried ? 'yes (after a platform error)' : undefined],
  ]);
}
