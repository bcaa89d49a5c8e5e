/**
 * Local mode end to end: the built CLI, a background worker and the stand-in simc, one isolated data dir per
 * test. Every outcome a local job can have, as a user and a `--json` script see it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  FAKE_SIMC,
  alive,
  freshLocalEnvs,
  jobFile,
  json,
  profileFile,
  quickProfile,
  run,
  statusOf,
  submitLocal,
  waitFor,
  waitForStatus,
  workerPid,
  type LocalEnv,
} from './local-helpers.js';

const freshEnv = freshLocalEnvs();

const HANG = ['# fake.hang_after=1'];

async function waitResult(env: LocalEnv, id: string) {
  const result = await run(env, ['status', id, '--wait', '--json']);
  return { exitCode: result.exitCode, record: json(result), stderr: result.stderr };
}

describe('a completed local job', () => {
  it('has the summary of spec 2.4 from the json2 report, the CSV, the HTML, and the report bytes as simc wrote them', async () => {
    const env = freshEnv({
      FAKE_SIMC_VERSION_LINE:
        'SimulationCraft 1205-02 for World of Warcraft 12.0.5.67000 Live (wow build 67000, git build midnight abc1234)',
    });
    const profile = profileFile(
      env,
      'sets.simc',
      quickProfile('Fury', [
        'seed=18446744073709551557',
        'profileset."a"=talents=AAA',
        'profileset."b"=talents=BBB',
        'profileset."c, with comma"=talents=CCC',
      ]),
    );
    const submitted = await run(env, [
      'submit',
      profile,
      '--local',
      '--wait',
      '--csv',
      '--html',
      '--json',
      '--meta',
      'run=7',
    ]);
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const record = json(submitted);
    expect(record.id).toMatch(/^local-/);
    expect(record).toMatchObject({
      status: 'completed',
      errorCode: null,
      statusReason: null,
      simcExitCode: '0',
      retried: false,
      metadata: { run: '7' },
    });
    expect(record.build).toMatchObject({ channel: 'latest', commit: 'abc1234', simcVersion: '1205-02' });
    expect(record.startedAt).toBeTruthy();
    expect(record.runtime.simDurationMs).toBeGreaterThan(0);

    const kinds = record.result.artifacts.map((a: { kind: string }) => a.kind).sort();
    expect(kinds).toEqual(['csv_report', 'html_report', 'input', 'json_report', 'stderr_log', 'stdout_log']);
    const file = (kind: string) =>
      fileURLToPath(record.result.artifacts.find((a: { kind: string }) => a.kind === kind).url);

    // The summary is the report's numbers: main actor, mean_error = mean_std_dev × confidence_estimator, ranked sets.
    const reportText = readFileSync(file('json_report'), 'utf8');
    expect(reportText).toContain('"seed":18446744073709551557'); // > 2^53, untouched
    const report = JSON.parse(reportText);
    const dps = report.sim.players[0].collected_data.dps;
    const summary = record.result.summary;
    expect(summary.metric).toBe('dps');
    expect(summary.mainActor.name).toBe('Fury');
    expect(summary.mainActor.mean).toBe(dps.mean);
    expect(summary.mainActor.mean_stddev).toBe(dps.mean_std_dev);
    expect(summary.mainActor.mean_error).toBe(dps.mean_std_dev * report.sim.options.confidence_estimator);
    const sets = summary.mainActor.profilesets;
    expect(sets.count).toBe(3);
    const means = sets.results.map((r: { mean: number }) => r.mean);
    expect(means).toEqual([...means].sort((a, b) => b - a));
    expect(sets.results.map((r: { name: string }) => r.name).sort()).toEqual(['a', 'b', 'c, with comma']);
    expect(sets.results.every((r: { stage: number }) => r.stage === 1)).toBe(true);
    expect(summary.multiStage).toEqual({ enabled: false, reason: 'disabled_by_option', stages: [] });

    const csv = readFileSync(file('csv_report'), 'utf8').trimEnd().split('\n');
    expect(csv[0]).toBe('name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev');
    expect(csv).toHaveLength(5);
    expect(csv[1]).toBe(['Fury', dps.mean, dps.min, dps.max, dps.std_dev, dps.mean_std_dev].join(','));
    expect(csv.some((line) => line.startsWith('"c, with comma",'))).toBe(true);
    expect(readFileSync(file('html_report'), 'utf8')).toMatch(/<html/i);
    expect(readFileSync(file('input'), 'utf8')).toBe(readFileSync(profile, 'utf8'));
    expect(readFileSync(file('stdout_log'), 'utf8')).toContain('SimulationCraft 1205-02');

    // The other commands find the job by its id alone.
    const status = await statusOf(env, record.id);
    expect(status).toMatchObject({ status: 'completed', progress: { percent: 100 } });
    const listed = json(await run(env, ['jobs', '--local', '--json']));
    expect(listed.jobs.map((j: { id: string }) => j.id)).toEqual([record.id]);
    const again = await run(env, ['result', record.id, '--json']);
    expect(again.exitCode).toBe(0);
    expect(json(again).result.summary).toEqual(summary);
  });

  it('reads a JSON v3 report when --json-version 3 was asked', async () => {
    const env = freshEnv();
    const profile = profileFile(
      env,
      'v3.simc',
      quickProfile('Three', ['profileset."x"=talents=X', 'profileset."y"=talents=Y']),
    );
    const result = await run(env, ['submit', profile, '--local', '--wait', '--json-version', '3', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const record = json(result);
    const report = JSON.parse(
      readFileSync(
        fileURLToPath(record.result.artifacts.find((a: { kind: string }) => a.kind === 'json_report').url),
        'utf8',
      ),
    );
    expect(report.report_version).toBe('3.0.0-alpha1');
    const best = [...report.sim.profilesets.results].sort((a, b) => b.metrics[0].mean - a.metrics[0].mean)[0];
    expect(record.result.summary.mainActor.profilesets.results[0]).toMatchObject({
      name: best.name,
      mean: best.metrics[0].mean,
      mean_stddev: best.metrics[0].mean_stddev,
    });
  });

  it('prints a human result and exits 0, with what the service would have clamped or rejected on stderr', async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'loose.simc', quickProfile('Loose', ['threads=2', 'target_error=0.001']));
    const result = await run(env, ['submit', profile, '--local', '--wait']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Loose\s+[\d,.]+ dps/);
    expect(result.stderr).toMatch(
      /Warning: line \d+: the service would run target_error=0.001 at 0.01 \(target_error_floored\); local mode runs it as written/,
    );
    expect(result.stderr).toMatch(/Warning: line \d+: the service would reject `threads=2`/);
  });
});

describe('a local job that fails', () => {
  it("is simulation_error with simc's Error: line as the reason", async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'bad.simc', 'warrior="Bad"\nlevel=999\n');
    const id = await submitLocal(env, profile);
    const { exitCode, record } = await waitResult(env, id);
    expect(exitCode).toBe(3);
    expect(record).toMatchObject({ status: 'failed', errorCode: 'simulation_error', simcExitCode: '1' });
    expect(record.statusReason).toMatch(/^Setup failure: Option 'level' with value '999'.*not within valid boundaries/);
    // no result was written: the temp files made for it while simc ran went with the job's end
    expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'jobs', id)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const result = await run(env, ['result', id, '--json']);
    expect(result.exitCode).toBe(3);
    expect(json(result).result.artifacts.map((a: { kind: string }) => a.kind)).toContain('stderr_log');
  });

  it('is execution_failed when simc crashes (its handler exits 11) or dies by a signal', async () => {
    const env = freshEnv();
    const handler = await submitLocal(
      env,
      profileFile(env, 'crash.simc', quickProfile('Crash', ['iterations=5000', '# fake.crash_after=1'])),
    );
    const signal = await submitLocal(
      env,
      profileFile(
        env,
        'segv.simc',
        quickProfile('Segv', ['iterations=5000', '# fake.crash_after=1', '# fake.crash_mode=signal']),
      ),
    );
    const first = await waitResult(env, handler);
    expect(first.exitCode).toBe(3);
    expect(first.record).toMatchObject({ status: 'failed', errorCode: 'execution_failed', simcExitCode: '11' });
    expect(first.record.statusReason).toMatch(/exited with code 11: sim_signal_handler: Segmentation fault/);
    const second = await waitResult(env, signal);
    expect(second.record).toMatchObject({ status: 'failed', errorCode: 'execution_failed', simcExitCode: 'SIGSEGV' });
    expect(second.record.statusReason).toMatch(/killed by SIGSEGV/);
  });

  it('is execution_failed when simc exits 0 without a readable JSON report', async () => {
    const env = freshEnv();
    const none = await submitLocal(env, profileFile(env, 'none.simc', quickProfile('None', ['# fake.no_report=1'])));
    const garbage = await submitLocal(
      env,
      profileFile(env, 'garbage.simc', quickProfile('Garbage', ['# fake.bad_report=truncate'])),
    );
    const a = await waitResult(env, none);
    expect(a.record).toMatchObject({
      status: 'failed',
      errorCode: 'execution_failed',
      simcExitCode: '0',
      statusReason: 'simc exited 0 but wrote no JSON report.',
    });
    const b = await waitResult(env, garbage);
    expect(b.record).toMatchObject({ status: 'failed', errorCode: 'execution_failed', simcExitCode: '0' });
    expect(b.record.statusReason).toMatch(/JSON report is unreadable: it is not valid JSON/);
  });

  it('is timed_out when simc runs past --max-runtime, and simc is stopped', async () => {
    const env = freshEnv();
    const id = await submitLocal(env, profileFile(env, 'hang.simc', quickProfile('Hang', HANG)), [
      '--max-runtime',
      '1',
    ]);
    const running = await waitForStatus(env, id, 'running');
    expect(running.progress.stage).toMatchObject({ current: 1, total: 1, label: 'initial' });
    const simcPid = await waitFor('simc to start', async () => jobFile(env, id).simcPid ?? undefined);
    const { exitCode, record } = await waitResult(env, id);
    expect(exitCode).toBe(3);
    expect(record).toMatchObject({ status: 'timed_out', errorCode: 'execution_timeout', simcExitCode: 'SIGTERM' });
    expect(alive(simcPid)).toBe(false);
  });
});

describe('queue and cancel', () => {
  it('ends a job that waits past --max-queue with queue_timeout (cancelled, never started)', async () => {
    const env = freshEnv();
    const blocker = await submitLocal(env, profileFile(env, 'hang.simc', quickProfile('Hang', HANG)));
    await waitForStatus(env, blocker, 'running');
    const waiting = await submitLocal(env, profileFile(env, 'q.simc', quickProfile('Queued')), ['--max-queue', '1']);
    const { exitCode, record } = await waitResult(env, waiting);
    expect(exitCode).toBe(3);
    expect(record).toMatchObject({ status: 'cancelled', errorCode: 'queue_timeout', startedAt: null });
    // It has no result: `result` shows its record and what went wrong, and exits 3 as the wait did.
    const result = await run(env, ['result', waiting]);
    expect(result.exitCode, result.stderr).toBe(3);
    expect(result.stdout).toContain('queue_timeout: ');
    expect(result.stdout).toContain('The job never started, so nothing was billed: it is safe to resubmit');
  });

  it('cancels a queued job at once and stops a running one (SIGTERM to simc)', async () => {
    const env = freshEnv();
    const running = await submitLocal(env, profileFile(env, 'hang.simc', quickProfile('Hang', HANG)));
    const queued = await submitLocal(env, profileFile(env, 'q.simc', quickProfile('Queued')));
    await waitForStatus(env, running, 'running');
    expect((await statusOf(env, queued)).status).toBe('queued');

    const cancelQueued = json(await run(env, ['cancel', queued, '--json']));
    expect(cancelQueued).toMatchObject({ success: true, id: queued, status: 'cancelled' });
    expect(await statusOf(env, queued)).toMatchObject({
      status: 'cancelled',
      errorCode: 'user_cancelled',
      startedAt: null,
    });

    const simcPid = await waitFor('simc to start', async () => jobFile(env, running).simcPid ?? undefined);
    const cancelRunning = json(await run(env, ['cancel', running, '--json']));
    expect(cancelRunning).toMatchObject({ success: true, id: running, status: 'cancel_requested' });
    expect(cancelRunning.cancelRequestedAt).toBeTruthy();
    const { exitCode, record } = await waitResult(env, running);
    expect(exitCode).toBe(3);
    expect(record).toMatchObject({ status: 'cancelled', errorCode: 'user_cancelled' });
    expect(record.cancelRequestedAt).toBe(cancelRunning.cancelRequestedAt);
    expect(alive(simcPid)).toBe(false);
    // Cancelling again answers the same; a finished job is not cancellable.
    expect(json(await run(env, ['cancel', running, '--json'])).status).toBe('cancelled');
  });

  it('runs queued jobs by priority, then in submission order', async () => {
    const env = freshEnv();
    const blocker = await submitLocal(env, profileFile(env, 'hang.simc', quickProfile('Hang', HANG)));
    await waitForStatus(env, blocker, 'running');
    const p = profileFile(env, 'p.simc', quickProfile('P'));
    const background = await submitLocal(env, p, ['--priority', 'background']);
    const standard1 = await submitLocal(env, p);
    const high = await submitLocal(env, p, ['--priority', 'high']);
    const standard2 = await submitLocal(env, p);
    await run(env, ['cancel', blocker]);
    for (const id of [background, standard1, high, standard2]) await waitResult(env, id);
    const started = (id: string) => Date.parse(jobFile(env, id).startedAt);
    const order = [background, standard1, high, standard2].sort((a, b) => started(a) - started(b));
    expect(order).toEqual([high, standard1, standard2, background]);
  });
});

describe('a worker that dies', () => {
  it('is noticed by the next simjob call: its simc, still running, is adopted and the job completes, not retried', async () => {
    const env = freshEnv();
    const id = await submitLocal(
      env,
      profileFile(env, 'slow.simc', quickProfile('Slow', ['# fake.start_delay_ms=1500'])),
    );
    await waitForStatus(env, id, 'running');
    const firstSimc = await waitFor('simc to start', async () => jobFile(env, id).simcPid ?? undefined);
    const worker = workerPid(env)!;
    process.kill(worker, 'SIGKILL');
    await waitFor('the worker to die', async () => (alive(worker) ? undefined : true));

    const { exitCode, record } = await waitResult(env, id);
    expect(exitCode).toBe(0);
    expect(record).toMatchObject({ status: 'completed', retried: false });
    expect(jobFile(env, id).attempt).toBe(1); // the one simc ran to its end
    expect(alive(firstSimc)).toBe(false);
    expect(workerPid(env)).not.toBe(worker);
  });

  it('with its simc: retried once, and failed / execution_interrupted when both die on the retry too', async () => {
    const env = freshEnv();
    const id = await submitLocal(env, profileFile(env, 'hang.simc', quickProfile('Hang', HANG)));
    for (let attempt = 1; attempt <= 2; attempt++) {
      await waitFor(`attempt ${attempt} to run`, async () => {
        const status = await statusOf(env, id);
        return status.status === 'running' && jobFile(env, id).attempt === attempt && jobFile(env, id).simcPid
          ? true
          : undefined;
      });
      const worker = workerPid(env)!;
      const simc = jobFile(env, id).simcPid as number;
      process.kill(worker, 'SIGKILL');
      process.kill(-simc, 'SIGKILL'); // simc's process group: the run is gone too, nothing to adopt
      await waitFor('the worker and simc to die', async () => (alive(worker) || alive(simc) ? undefined : true));
    }
    const status = await statusOf(env, id);
    expect(status).toMatchObject({ status: 'failed', errorCode: 'execution_interrupted', retried: true });
    const listed = json(await run(env, ['jobs', '--local', '--json']));
    expect(listed.jobs.filter((j: { status: string }) => j.status === 'running')).toEqual([]);
  });
});

describe('provider credentials', () => {
  it('reach simc only as a private apikey.txt in the job folder, removed when the job ends; never in a record', async () => {
    const secret = 'cs-0123456789abcdef0123456789abcdef';
    const env = freshEnv({
      SIMJOB_PROVIDER_CLIENT_ID: 'cid-0123456789abcdef0123456789abcd',
      SIMJOB_PROVIDER_CLIENT_SECRET: secret,
    });
    const blocker = await submitLocal(env, profileFile(env, 'hang.simc', quickProfile('Hang', HANG)));
    await waitForStatus(env, blocker, 'running');
    const id = await submitLocal(env, profileFile(env, 'p.simc', quickProfile('Creds')));
    const keyFile = join(env.SIMJOB_DATA_DIR, 'jobs', id, 'apikey.txt');
    expect(readFileSync(keyFile, 'utf8')).toBe(`cid-0123456789abcdef0123456789abcd:${secret}\n`);
    if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o077).toBe(0);
    await run(env, ['cancel', blocker]);
    const { record } = await waitResult(env, id);
    expect(record.status).toBe('completed');
    expect(existsSync(keyFile)).toBe(false);
    for (const args of [
      ['status', id, '--json'],
      ['result', id, '--json'],
      ['jobs', '--local', '--json'],
    ]) {
      expect((await run(env, args)).stdout).not.toContain(secret);
    }
    expect(readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', id, 'job.json'), 'utf8')).not.toContain(secret);
  });
});

describe('finding simc', () => {
  it('says in one line how to point simjob at simc when none is found', async () => {
    const env = freshEnv();
    delete (env as Record<string, string>).SIMJOB_SIMC;
    const profile = profileFile(env, 'p.simc', quickProfile('P'));
    const result = await run({ ...env, PATH: '/nonexistent' }, ['submit', profile, '--local']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/No simc found.*--simc.*SIMJOB_SIMC.*simc\.path/);
    // A first-time user without simc learns how to try simjob anyway.
    expect(result.stderr).toContain(
      'a checkout of it has a stand-in: --simc test/fake-simc/simc (its numbers are made up)',
    );
  });

  it('uses --simc over SIMJOB_SIMC, and names the source of a path that does not exist', async () => {
    const env = freshEnv({ SIMJOB_SIMC: '/nonexistent/simc' });
    const profile = profileFile(env, 'p.simc', quickProfile('P'));
    const missing = await run(env, ['submit', profile, '--local']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/The simc named by SIMJOB_SIMC \(\/nonexistent\/simc\) does not exist/);
    const flagged = await run(env, ['submit', profile, '--local', '--wait', '--json', '--simc', FAKE_SIMC]);
    expect(flagged.exitCode, flagged.stderr).toBe(0);
    expect(json(flagged).build.path).toBe(FAKE_SIMC);
    const notLocal = await run(env, ['submit', profile, '--simc', '/x']);
    expect(notLocal.exitCode).toBe(2);
  });

  it('lists the configured binaries with the version and git revision of their version line', async () => {
    const env = freshEnv({
      FAKE_SIMC_VERSION_LINE:
        'SimulationCraft 1201-03 for World of Warcraft 12.0.1.66300 Live (wow build 66300, git build midnight f00dbab)',
    });
    const set = await run(env, ['config', 'set', 'simc.nightly', FAKE_SIMC]);
    expect(set.exitCode, set.stderr).toBe(0);
    const result = await run(env, ['builds', '--local', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const builds = json(result).builds as Array<Record<string, unknown>>;
    expect(builds.map((b) => b.source)).toEqual(['SIMJOB_SIMC', 'simc.nightly']);
    expect(builds[1]).toMatchObject({
      channel: 'nightly',
      simcVersion: '1201-03',
      commit: 'f00dbab',
      gitBranch: 'midnight',
      path: FAKE_SIMC,
    });
    const human = await run(env, ['builds', '--local']);
    expect(human.stdout).toMatch(/simc\.nightly\t1201-03\tmidnight\tf00dbab\t/);
  });
});

describe('jobs --local', () => {
  it('lists newest first, with pages like the service (page.nextCursor)', async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'p.simc', quickProfile('P'));
    const ids = [await submitLocal(env, profile), await submitLocal(env, profile), await submitLocal(env, profile)];
    const first = json(await run(env, ['jobs', '--local', '--limit', '2', '--json']));
    expect(first.jobs.map((j: { id: string }) => j.id)).toEqual([ids[2], ids[1]]);
    expect(first.page).toMatchObject({ limit: 2, hasMore: true });
    const second = json(
      await run(env, ['jobs', '--local', '--limit', '2', '--cursor', first.page.nextCursor, '--json']),
    );
    expect(second.jobs.map((j: { id: string }) => j.id)).toEqual([ids[0]]);
    expect(second.page).toMatchObject({ hasMore: false, nextCursor: null });

    // The table's hint is a command that works as printed: it names --local, so the cursor goes to the local store.
    const human = await run(env, ['jobs', '--local', '--limit', '2']);
    const hint = /More jobs: simjob (jobs --local --cursor \S+ --limit 2) \(or --all\)/.exec(human.stderr);
    expect(hint, human.stderr).not.toBeNull();
    const next = await run(env, [...(hint?.[1] ?? '').split(' '), '--json']);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(json(next).jobs.map((j: { id: string }) => j.id)).toEqual([ids[0]]);
    for (const id of ids) await waitResult(env, id);
  });
});
