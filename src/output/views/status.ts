import type { StatusRecord } from '../../api/schemas.js';
import { colourState, formatDuration, formatTime } from '../format.js';
import type { Output } from '../io.js';

/** One line describing where a job is: `running 45% (stage 2/3 intermediate)` or `queued, starts in ~40 s`. */
export function describeStatus(status: StatusRecord, c = (s: string) => s): string {
  const parts = [c(status.status)];
  const percent = status.progress?.percent;
  if (typeof percent === 'number') parts.push(`${Math.round(percent)}%`);
  const stage = status.progress?.stage;
  if (stage?.current && stage.total && stage.total > 1) parts.push(`(stage ${stage.current}/${stage.total}${stage.label ? ` ${stage.label}` : ''})`);
  const eta = status.queue?.estimatedStartSeconds;
  if ((status.status === 'queued' || status.status === 'pending') && typeof eta === 'number') {
    parts.push(`starts in ~${formatDuration(eta * 1000)}`);
  }
  if (status.errorCode) parts.push(`— ${status.errorCode}`);
  return parts.join(' ');
}

export function printStatus(out: Output, id: string, status: StatusRecord): void {
  out.keyValues([
    ['Job', id],
    ['Status', describeStatus(status, (s) => colourState(out.c, s))],
    ['Reason', status.statusReason ?? undefined],
    ['Queued at', formatTime(status.queue?.queuedAt)],
    ['Started', formatTime(status.startedAt)],
    ['Updated', formatTime(status.updatedAt)],
    ['simc exit code', status.simcExitCode === null || status.simcExitCode === undefined ? undefined : String(status.simcExitCode)],
    ['Retried', status.retried ? 'yes (after a platform error)' : undefined],
  ]);
}
