/** Processes by pid: alive or not, and when one started. */
import { readFileSync } from 'node:fs';
import { errnoCode } from '../../util/errno.js';

/**
 * Is a process with this pid alive (on this machine)? EPERM means it exists but belongs to someone else. On Linux
 * a zombie counts as dead: a killed worker is re-parented to PID 1, which in containers often never reaps it.
 */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
  if (process.platform === 'linux') {
    const state = procStat(pid)?.[0];
    return state !== undefined && state !== 'Z'; // undefined: gone between the two checks
  }
  return true;
}

/**
 * Is this process stopped by job control (Ctrl-Z, SIGSTOP; Linux: state T of /proc/<pid>/stat)? A tracer's stop (t)
 * is not counted. False elsewhere, where it cannot be told.
 */
export function isStopped(pid: number): boolean {
  return process.platform === 'linux' && procStat(pid)?.[0] === 'T';
}

/** The process that had this pid and start time is gone: the pid is dead, or now another process's. */
export function isGone(pid: number, start: string | null | undefined): boolean {
  return !isAlive(pid) || (start !== null && start !== undefined && processStart(pid) !== start);
}

/**
 * When a process started (Linux: field 22 of /proc/<pid>/stat, in clock ticks since boot), to tell a process from a
 * later one given the same pid; undefined elsewhere or when it is gone.
 */
export function processStart(pid: number): string | undefined {
  return process.platform === 'linux' ? procStat(pid)?.[19] : undefined;
}

/**
 * Linux: the fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses, so it is cut
 * at the last ")"): [0] the state, [2] the process group, [19] the start time. Undefined when it cannot be read.
 */
export function procStat(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}
