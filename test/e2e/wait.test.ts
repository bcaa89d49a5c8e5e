import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { simjob } from '../helpers/cli.js';
import { ptySkips } from '../helpers/pty.js';
import { ANSI, cancelJob, profileFile, spawnCli, spawnPty, stateLines, userEnv } from './wait-helpers.js';

let server: TestServer;
let env: Record<string, string>;
let profile: string;

beforeAll(async () => {
  server = await startServer({ queueMs: 300, runMs: 2500, concurrency: 16 });
  env = userEnv(server);
  profile = profileFile();
});
afterAll(async () => {
  await server.close();
});

async function submitted(meta: string[] = []): Promise<string> {
  const r = await simjob(['submit', profile, '--channel', 'nightly', '--json', ...meta.flatMap((m) => ['--meta', m])], {
    env,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout).id as string;
}

const isTerminalState = (s: string) => ['completed', 'failed', 'cancelled', 'timed_out'].includes(s);

describe('submit --wait without a terminal', () => {
  it('prints one plain line per change of state on stderr, then the result on stdout, exit 0', async () => {
    const run = await spawnCli(['submit', profile, '--channel', 'nightly', '--wait'], env).done;
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr + run.stdout).not.toMatch(ANSI);
    const id = /Submitted job (\d+)/.exec(run.stderr)?.[1];
    expect(run.stderr).toContain(`Waiting for job ${id} (Ctrl-C stops waiting; the job keeps running).`);
    const states = stateLines(run.stderr);
    // one line per change: no state twice in a row, in the order of the state machine, ending completed
    expect(states.filter((s, i) => s === states[i - 1])).toEqual([]);
    expect(states.at(-1)).toBe('completed');
    expect(states).toContain('running');
    const order = ['pending', 'queued', 'starting', 'running', 'completed'];
    expect(states.map((s) => order.indexOf(s))).toEqual([...states.map((s) => order.indexOf(s))].sort((a, b) => a - b));
    // stdout: the result only
    expect(run.stdout).toMatch(new RegExp(`^Job +${id}\\nStatus +completed\\nActor +Fury +[\\d,.]+ dps ± [\\d,.]+`));
    expect(run.stdout).toMatch(/#\tProfileset\tDPS\t±\tΔ DPS\tΔ %\tStage\n1\tset_\d/);
    expect(run.stdout).not.toMatch(/running|Waiting/);
  });

  it('status --wait of a job that fails: the errorCode, its advice, exit 3', async () => {
    const id = await submitted(['test.outcome=simulation_error']);
    const run = await simjob(['status', id, '--wait'], { env });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/\] failed — simulation_error\n/);
    expect(run.stdout).toMatch(/simulation_error: SimulationCraft exited with an error/);
    expect(run.stdout).toContain('fix the line named in the reason');
  });

  it('--json: progress on stderr, exactly the result resource on stdout', async () => {
    const id = await submitted();
    const run = await simjob(['status', id, '--wait', '--json'], { env });
    expect(run.exitCode).toBe(0);
    const body = JSON.parse(run.stdout);
    expect(body.id).toBe(id);
    expect(body.status).toBe('completed');
    expect(body.result.summary.mainActor.name).toBe('Fury');
    expect(stateLines(run.stderr).at(-1)).toBe('completed');
  });

  it('a job that ends without a result: its job record, exit 3', async () => {
    const id = await submitted(['test.outcome=execution_failed']);
    const run = await simjob(['status', id, '--wait', '--json'], { env });
    expect(run.exitCode).toBe(3);
    const body = JSON.parse(run.stdout);
    expect(body).toMatchObject({ id, status: 'failed', errorCode: 'execution_failed' });
    expect(body.result).toBeUndefined();
  });

  it('--timeout ends the wait with exit 8 and leaves the job running', async () => {
    const id = await submitted(['test.runMs=60000']);
    const run = await simjob(['status', id, '--wait', '--timeout', '2s'], { env });
    expect(run.exitCode).toBe(8);
    expect(run.stderr).toMatch(
      new RegExp(
        `Error: Job ${id} is still (queued|starting|running) after 2 s\\. It keeps running; pick it up with: simjob status ${id} --wait`,
      ),
    );
    expect(run.stdout).toBe('');
    expect(isTerminalState(server.jobs.get(id)!.status)).toBe(false);
    await cancelJob(server, id);
  });

  it('transient poll errors are shown once and ridden out', async () => {
    const id = await submitted();
    server.inject({ method: 'GET', path: `/v1/sim/jobs/${id}/status`, status: 503, retryAfter: 1, times: 5 });
    // A retry budget shorter than the Retry-After hands each 503 up at once, to the wait loop under test.
    const run = await simjob(['status', id, '--wait'], { env: { ...env, SIMJOB_RETRY_BUDGET: '500ms' } });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr.match(/Polling failed \(/g)).toHaveLength(1);
    expect(run.stderr).toMatch(/Polling failed \(.*queue_unavailable.*\); retrying in 1 s\. The job is unaffected\./);
    expect(stateLines(run.stderr).at(-1)).toBe('completed');
  });
});

describe('Ctrl-C', () => {
  it('stops waiting, leaves the job running, says how to pick it up, exit 130', async () => {
    const id = await submitted(['test.runMs=60000']);
    const live = spawnCli(['status', id, '--wait'], env);
    await live.waitForStderr(/\] running/);
    live.process.kill('SIGINT');
    const run = await live.done;
    expect(run.exitCode).toBe(130);
    expect(run.stderr).toMatch(
      new RegExp(
        `Stopped waiting; job ${id} keeps running \\(last seen running \\d+%\\)\\. Pick it up again with: simjob status ${id} --wait\\n$`,
      ),
    );
    expect(server.jobs.get(id)!.status).toBe('running');
    await cancelJob(server, id);
  });

  it('with --cancel-on-interrupt the job is cancelled', async () => {
    const id = await submitted(['test.runMs=60000']);
    const live = spawnCli(['status', id, '--wait', '--cancel-on-interrupt'], env);
    await live.waitForStderr(/\] running/);
    expect(live.stderr()).toContain(`Waiting for job ${id} (Ctrl-C cancels the job).`);
    live.process.kill('SIGINT');
    const run = await live.done;
    expect(run.exitCode).toBe(130);
    expect(run.stderr).toContain(`Stopped waiting and requested cancellation of job ${id}`);
    const job = await server.waitForJob(id, ['cancelled']);
    expect(job.errorCode).toBe('user_cancelled');
  });

  it('a second Ctrl-C exits at once, even while the cancel is under way', async () => {
    const id = await submitted(['test.runMs=60000']);
    server.inject({
      method: 'POST',
      path: `/v1/sim/jobs/${id}/cancel`,
      status: 200,
      body: { success: true, id, status: 'cancelled' },
      delayMs: 8000,
    });
    const live = spawnCli(['status', id, '--wait', '--cancel-on-interrupt'], env);
    await live.waitForStderr(/\] running/);
    live.process.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 400));
    const second = Date.now();
    live.process.kill('SIGINT');
    const run = await live.done;
    expect(run.exitCode).toBe(130);
    expect(Date.now() - second).toBeLessThan(3000);
    server.clearFaults();
    await cancelJob(server, id);
  });
});

describe.skipIf(ptySkips('the pseudo-terminal tests of submit --wait'))(
  'submit --wait on a terminal (pseudo-terminal)',
  () => {
    it('an ora spinner on stderr with state, ETA, progress, stage and elapsed time; then the result', async () => {
      const term = await spawnPty(
        ['submit', profile, '--channel', 'nightly', '--multistage', '--wait', '--meta', 'test.queueMs=3000'],
        env,
        110,
      );
      await term.waitFor(/queued · starts in ~\d s · 0:0\d/);
      await term.waitFor(/running ■*□* \d+% · stage \d\/3 (initial|intermediate|final) · 0:0\d/);
      const { exitCode, output } = await term.exit;
      expect(exitCode).toBe(0);
      expect(output).toMatch(ANSI);
      expect(output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
      const text = stripVTControlCharacters(output);
      expect(text).toMatch(/✔ Job \d+ completed after [\d.]+ s of waiting\./);
      expect(text).toMatch(/Multistage +\d+ initial/);
      expect(text).toMatch(/Actor +Fury +[\d,.]+ dps/);
      // the table fits the 110 columns of this terminal
      const plain = output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/);
      for (const line of plain.filter((l) => /^\d+ +set_/.test(l))) expect([...line].length).toBeLessThanOrEqual(110);
    });

    it('Ctrl-C typed on the terminal: the spinner is cleared, the job keeps running, exit 130', async () => {
      const id = await submitted(['test.runMs=60000']);
      const term = await spawnPty(['status', id, '--wait'], env);
      await term.waitFor(/running ■*□* \d+%/);
      term.write('\x03');
      const { exitCode, output } = await term.exit;
      expect(exitCode).toBe(130);
      expect(output).toContain(`Stopped waiting; job ${id} keeps running`);
      expect(server.jobs.get(id)!.status).toBe('running');
      await cancelJob(server, id);
    });
  },
);
