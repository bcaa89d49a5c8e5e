import type { ChalkInstance } from 'chalk';
import { terminalSafeLine } from './safe.js';

/** Small formatters shared by every human view. */

export function formatDuration(ms: number | null | undefined): string | undefined {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return undefined;
  const s = Math.round(ms / 1000);
  if (s < 60) return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} m`;
}

export function formatNumber(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatTime(iso: string | null | undefined): string | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** A job state in its colour: green done, red failed, yellow waiting or running; a state this client does not know
 * (a server's word) escaped and uncoloured. */
export function colourState(c: ChalkInstance, state: string): string {
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
