/**
 * Helpers for the end-to-end tests of local mode: the built CLI (bin/simjob.js) against the stand-in simc, with a
 * fresh config and data dir per test. The background worker those runs start is stopped by its pid at the end.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterEach, expect } from 'vitest';
import { isolatedDirs, simjob, type CliResult } from '../helpers/cli.js';
import { alive } from '../helpers/process.js';
import { REPO_ROOT } from '../helpers/shared.js';

export const FAKE_SIMC = resolve(REPO_ROOT, 'test', 'fake-simc', 'simc');

export interface LocalEnv extends Record<string, string> {
  SIMJOB_CONFIG_DIR: string;
  SIMJOB_DATA_DIR: string;
}

export function localEnv(extra: Record<string, string> = {}): LocalEnv {
  // the stand-in simc's knobs reach it only when named: simc gets a minimal environment
  return { ...isolatedDirs(), SIMJOB_SIMC: FAKE_SIMC, SIMJOB_SIMC_ENV: 'FAKE_SIMC_*', NO_COLOR: '1', ...extra };
}

/** A profile file in a folder beside the env's data dir. */
export function profileFile(env: LocalEnv, name: string, text: string): string {
  const path = join(dirname(env.SIMJOB_DATA_DIR), 'profiles', name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const run = (env: LocalEnv, args: string[], timeoutMs = 30_000): Promise<CliResult> =>
  simjob(args, { env, timeoutMs });

export function json<T = Record<string, any>>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
  }
}

export async function submitLocal(env: LocalEnv, profile: string, args: string[] = []): Promise<string> {
  const result = await run(env, ['submit', profile, '--local', '--json', ...args]);
  expect(result.exitCode, result.stderr).toBe(0);
  const id = json(result).id as string;
  expect(id).toMatch(/^local-[0-9a-z]{18}$/);
  return id;
}

export async function statusOf(env: LocalEnv, id: string): Promise<Record<string, any>> {
  const result = await run(env, ['status', id, '--json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return json(result);
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function waitForStatus(
  env: LocalEnv,
  id: string,
  wanted: string,
  timeoutMs?: number,
): Promise<Record<string, any>> {
  return waitFor(
    `${id} to be ${wanted}`,
    async () => {
      const status = await statusOf(env, id);
      return status.status === wanted ? status : undefined;
    },
    timeoutMs,
  );
}

/** The record simjob keeps for a job (internal: used to find simc's pid). */
export function jobFile(env: LocalEnv, id: string): Record<string, any> {
  return JSON.parse(readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', id, 'job.json'), 'utf8'));
}

export function workerPid(env: LocalEnv): number | undefined {
  try {
    return JSON.parse(readFileSync(join(env.SIMJOB_DATA_DIR, 'worker.lock'), 'utf8')).pid as number;
  } catch {
    return undefined;
  }
}

export { alive };

/** Is this pid the simc of that job (its working directory is the job folder)? Linux only; elsewhere: no. */
function runsIn(pid: number, dir: string): boolean {
  try {
    return resolve(readlinkSync(`/proc/${pid}/cwd`)) === resolve(dir);
  } catch {
    return false;
  }
}

/**
 * Call at the top of a test file: returns a maker of fresh envs (localEnv), every one cleaned up (cleanUp) after
 * each test, pass or fail.
 */
export function freshLocalEnvs(): (extra?: Record<string, string>) => LocalEnv {
  let envs: LocalEnv[] = [];
  afterEach(async () => {
    await Promise.all(envs.map(cleanUp));
    envs = [];
  });
  return (extra = {}) => {
    const env = localEnv(extra);
    envs.push(env);
    return env;
  };
}

/**
 * Stop the worker this test started (SIGTERM: it stops its simc runs) and any simc a killed worker left, then
 * remove the test's folders.
 */
export async function cleanUp(env: LocalEnv): Promise<void> {
  // A worker still starting (e.g. started early by a submit that then failed) removes worker.spawn once it has
  // tried the lock: wait for that, so it is stopped below rather than writing into a folder being removed.
  const spawning = join(env.SIMJOB_DATA_DIR, 'worker.spawn');
  await waitFor(
    'the starting worker to take the lock',
    async () => (existsSync(spawning) ? undefined : true),
    5_000,
  ).catch(() => undefined);
  const pid = workerPid(env);
  if (pid && alive(pid)) {
    process.kill(pid, 'SIGTERM');
    await waitFor('the worker to stop', async () => (alive(pid) ? undefined : true), 10_000).catch(() => undefined);
  }
  let ids: string[] = [];
  try {
    ids = readdirSync(join(env.SIMJOB_DATA_DIR, 'jobs')).filter((n) => n.startsWith('local-'));
  } catch {
    // no jobs
  }
  for (const id of ids) {
    if (!existsSync(join(env.SIMJOB_DATA_DIR, 'jobs', id, 'job.json'))) continue;
    let record: { simcPid: number | null; detached?: boolean };
    try {
      record = jobFile(env, id) as typeof record;
    } catch {
      continue; // a record a test reshaped
    }
    const { simcPid, detached } = record;
    // a detached run is a process group: simc and anything it started
    if (alive(simcPid) && runsIn(simcPid as number, join(env.SIMJOB_DATA_DIR, 'jobs', id)))
      process.kill(detached ? -(simcPid as number) : (simcPid as number), 'SIGKILL');
  }
  rmSync(dirname(env.SIMJOB_DATA_DIR), { recursive: true, force: true, maxRetries: 3 });
}

/** A small profile the stand-in runs in a few milliseconds of "simulation". */
export function quickProfile(name: string, extra: string[] = []): string {
  return [`warrior="${name}"`, 'spec=fury', 'level=90', 'iterations=200', ...extra, ''].join('\n');
}

/** `submit <name>.simc --local --wait --json` of a quickProfile; it must exit 0. Returns the job it prints. */
export async function runQuickJob(env: LocalEnv, name: string): Promise<Record<string, any>> {
  const result = await run(env, [
    'submit',
    profileFile(env, `${name}.simc`, quickProfile(name)),
    '--local',
    '--wait',
    '--json',
  ]);
  expect(result.exitCode, result.stderr).toBe(0);
  return json(result);
}
