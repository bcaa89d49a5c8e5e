/**
 * Timing helpers shared by the local benches: a command's wall time and, where /usr/bin/time exists, its CPU time
 * (user + system, its waited-for children included), and medians. On a shared machine the CPU figures move less
 * than the wall times, so the benches print both.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './figures.js';

const TIME = '/usr/bin/time';
const hasTime = existsSync(TIME);
const scratch = mkdtempSync(join(tmpdir(), 'simjob-bench-time-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

export interface Sample {
  wallMs: number;
  /** undefined without /usr/bin/time */
  cpuMs: number | undefined;
  stdout: Buffer;
}

export function timed(command: string, args: string[], options: SpawnSyncOptions = {}): Sample {
  const out = join(scratch, 'time.txt');
  const [cmd, argv] = hasTime ? [TIME, ['-f', '%U %S', '-o', out, command, ...args]] : [command, args];
  const started = process.hrtime.bigint();
  const child = spawnSync(cmd, argv, { maxBuffer: 256 * 1024 * 1024, ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${child.status}: ${child.stderr?.toString()}`);
  let cpuMs: number | undefined;
  if (hasTime) {
    const [user, system] = readFileSync(out, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
    cpuMs = ((user ?? 0) + (system ?? 0)) * 1000;
  }
  return { wallMs, cpuMs, stdout: child.stdout as Buffer };
}

/** Median of the CPU times, or NaN when they were not measured. */
export function medianCpu(samples: Sample[]): number {
  const cpu = samples.map((s) => s.cpuMs).filter((v): v is number => v !== undefined);
  return cpu.length ? median(cpu) : Number.NaN;
}

export const medianWall = (samples: Sample[]) => median(samples.map((s) => s.wallMs));
