import { readFileSync } from 'node:fs';

/** Alive and not a zombie (a killed worker's parent is PID 1, which in containers may never reap it). */
export function alive(pid: number | null | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}
