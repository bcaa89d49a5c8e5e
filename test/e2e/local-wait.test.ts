/**
 * `submit --local --wait` with no worker running runs the queue itself while it waits, and hands it over to a
 * background worker when it stops waiting (docs/design.md, "One local runner"). What a user sees: Ctrl-C, a closed
 * terminal or SIGTERM leave the job running and it completes with nobody watching, a waiting CLI that dies loses
 * nothing, cancel stops simc, no process stays behind once the queue is empty, and a killed worker's simc is
 * finished, not run twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import {
  alive,
  cleanUp,
  jobFile,
  json,
  localEnv,
  profileFile,
  quickProfile,
  run,
  runQuickJob,
  statusOf,
  waitFor,
  workerPid,
  type LocalEnv,
} from './local-helpers.js';

let envs: LocalEnv[] = [];
let children: ChildProcess[] = [];
function freshEnv(): LocalEnv {
  const env = localEnv();
  envs.push(env);
  return env;
}
afterEach(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children = [];
  await Promise.all(envs.map(cleanUp));
  envs = [];
});

/** `simjob submit … --local --wait` in a process group of its own, as a shell runs a foreground command. */
function startWaiting(env: LocalEnv, profile: string) {
  const child = spawn(process.execPath, [BIN, 'submit', profile, '--local', '--wait', '--json'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, exited, stderr: () => stderr };
}

/** The job the waiting CLI runs, once its simc has started. */
async function runningJob(env: LocalEnv): Promise<{ id: string; simcPid: number }> {
  return waitFor('the job to run', async () => {
    const listed = json(await run(env, ['jobs', '--local', '--json']));
    const id = listed.jobs[0]?.id as string | undefined;
    const simcPid = id ? (jobFile(env, id).simcPid as number | null) : null;
    return id && simcPid ? { id, simcPid } : undefined;
  });
}

const SLOW = ['# fake.start_delay_ms=1500'];

describe('submit --local --wait', () => {
  it('completes, and leaves no process behind once the queue is empty', async () => {
    const env = freshEnv();
    expect(await runQuickJob(env, 'Waited')).toMatchObject({
      status: 'completed',
      retried: false,
      result: { summary: { mainActor: { name: 'Waited' } } },
    });
    const log = join(env.SIMJOB_DATA_DIR, 'worker.log');
    const pid = Number(/worker (\d+) holds the lock/.exec(readFileSync(log, 'utf8'))?.[1]);
    await waitFor('the worker to leave', async () =>
      /releases the lock/.test(readFileSync(log, 'utf8')) && !alive(pid) ? true : undefined,
    );
  });

  it('with no worker running, runs the queue in its own process: no background worker starts', async () => {
    const env = freshEnv();
    const waiting = startWaiting(env, profileFile(env, 'quick.simc', quickProfile('Own')));
    expect(await waiting.exited, waiting.stderr()).toBe(0);
    const log = readFileSync(join(env.SIMJOB_DATA_DIR, 'worker.log'), 'utf8');
    // one holder of the lock, the waiting command itself, which let it go when its job ended
    expect(log.match(/holds the lock/g)).toHaveLength(1);
    expect(log).toContain(`worker ${waiting.child.pid} holds the lock (concurrency 1; hosted by a waiting command)`);
    expect(log).toMatch(new RegExp(`completed\n.* worker ${waiting.child.pid} releases the lock\n$`));
  });

  it('leaves the job running on Ctrl-C; it completes, not retried', async () => {
    const env = freshEnv();
    const waiting = startWaiting(env, profileFile(env, 'slow.simc', quickProfile('Slow', SLOW)));
    const { id } = await runningJob(env);
    process.kill(-(waiting.child.pid as number), 'SIGINT'); // the terminal's Ctrl-C goes to the whole foreground group
    expect(await waiting.exited).toBe(130);
    expect(waiting.stderr()).toMatch(new RegExp(`job ${id} keeps running`));
    expect((await statusOf(env, id)).status).toBe('running');

    const done = await run(env, ['status', id, '--wait', '--json']);
    expect(done.exitCode).toBe(0);
    expect(json(done)).toMatchObject({ status: 'completed', retried: false });
    expect(jobFile(env, id).attempt).toBe(1);
  });

  it.each([
    ['SIGHUP', 129],
    ['SIGTERM', 143],
  ] as const)(
    'hands the queue over on %s: the job completes with nobody waiting, not retried',
    async (signal, code) => {
      const env = freshEnv();
      const waiting = startWaiting(env, profileFile(env, 'slow.simc', quickProfile('Slow', SLOW)));
      const { id } = await runningJob(env);
      waiting.child.kill(signal);
      expect(await waiting.exited).toBe(code);
      // No simjob command runs from here: the background worker the hand-over started finishes the run.
      await waitFor('the job to end', async () => (jobFile(env, id).status === 'completed' ? true : undefined));
      expect(jobFile(env, id)).toMatchObject({ attempt: 1, retried: false });
      const log = readFileSync(join(env.SIMJOB_DATA_DIR, 'worker.log'), 'utf8');
      expect(log).toMatch(new RegExp(`worker ${waiting.child.pid} releases the lock[^]*${id} adopted`));
    },
  );

  it("fails a job whose simc crashes after the waiting CLI left, with simc's crash line", async () => {
    const env = freshEnv();
    const waiting = startWaiting(
      env,
      profileFile(env, 'crash.simc', quickProfile('Crash', [...SLOW, '# fake.crash_after=0'])),
    );
    const { id } = await runningJob(env);
    process.kill(-(waiting.child.pid as number), 'SIGINT');
    expect(await waiting.exited).toBe(130);

    const done = await run(env, ['status', id, '--wait', '--json']);
    expect(done.exitCode).toBe(3);
    expect(json(done)).toMatchObject({ status: 'failed', errorCode: 'execution_failed', retried: false });
    expect(json(done).statusReason).toMatch(/sim_signal_handler: Segmentation fault!/);
  });

  it('loses nothing when the waiting CLI dies: its simc runs on, and the next command finishes the job', async () => {
    const env = freshEnv();
    const waiting = startWaiting(env, profileFile(env, 'slow.simc', quickProfile('Slow', SLOW)));
    const { id, simcPid } = await runningJob(env);
    // It ran the queue itself (no worker was running), so SIGKILL leaves the run as a killed worker's: detached.
    waiting.child.kill('SIGKILL');
    await waiting.exited;
    expect(alive(simcPid)).toBe(true);

    const done = await run(env, ['status', id, '--wait', '--json']);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(json(done)).toMatchObject({ status: 'completed', retried: false });
    expect(jobFile(env, id)).toMatchObject({ attempt: 1 }); // finished from its files, not run again
    expect(readFileSync(join(env.SIMJOB_DATA_DIR, 'worker.log'), 'utf8')).toContain(`${id} adopted`);
    const result = json(await run(env, ['result', id, '--json']));
    expect(result.result.summary.mainActor.name).toBe('Slow');
  });

  it("finishes a killed worker's simc from its files, long after it ended, with simc's own time", async () => {
    const env = freshEnv();
    const submitted = await run(env, ['submit', profileFile(env, 'slow.simc', quickProfile('Slow', SLOW)), '--local']);
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const { id, simcPid } = await runningJob(env);
    const worker = workerPid(env) as number;
    process.kill(worker, 'SIGKILL');
    await waitFor('simc to end', async () => (alive(simcPid) || alive(worker) ? undefined : true));
    await new Promise((done) => setTimeout(done, 3_000)); // nobody looks at the job meanwhile

    const adoptedAt = Date.now();
    expect((await run(env, ['jobs', '--local'])).exitCode).toBe(0); // any local command starts the next worker
    await waitFor('the job to end', async () => (jobFile(env, id).status === 'completed' ? true : undefined));
    const record = jobFile(env, id) as { simDurationMs: number; startedAt: string; attempt: number };
    expect(record.attempt).toBe(1); // finished, not run again
    // simc ended at least 3 s before the adoption: its time is not the time until then
    expect(record.simDurationMs).toBeGreaterThan(0);
    expect(record.simDurationMs).toBeLessThan(adoptedAt - Date.parse(record.startedAt) - 2_500);
  });

  it('is stopped by cancel: the waiting CLI exits 3 with the job cancelled and simc gone', async () => {
    const env = freshEnv();
    const waiting = startWaiting(env, profileFile(env, 'hang.simc', quickProfile('Hang', ['# fake.hang_after=1'])));
    const { id, simcPid } = await runningJob(env);
    expect(json(await run(env, ['cancel', id, '--json']))).toMatchObject({ status: 'cancel_requested' });
    expect(await waiting.exited).toBe(3);
    expect(await statusOf(env, id)).toMatchObject({ status: 'cancelled', errorCode: 'user_cancelled' });
    await waitFor('simc to be gone', async () => (alive(simcPid) ? undefined : true));
  });
});
