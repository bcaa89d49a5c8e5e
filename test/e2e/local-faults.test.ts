/**
 * Local mode when its files go wrong: a full disk, a reshaped record, a read-only folder, a folder where a lock
 * file belongs, a file where a folder belongs, a stray queue entry, a recorded simc pid given to another program.
 * Each says in one line which path is wrong and how; the other jobs are not affected; nothing hangs.
 * The disk tests mount a small tmpfs and need root; they are skipped (with the reason) elsewhere.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  alive,
  FAKE_SIMC,
  freshLocalEnvs,
  jobFile,
  json,
  profileFile,
  quickProfile,
  run,
  runQuickJob,
  waitFor,
  workerPid,
} from './local-helpers.js';

const freshEnv = freshLocalEnvs();

/** Mounting a tmpfs needs root (and a kernel that lets this container mount): tried once. */
const mountable = (() => {
  if (process.getuid?.() !== 0) return false;
  const dir = join(process.env.TMPDIR ?? '/tmp', `simjob-mount-probe-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status === 0;
  if (ok) spawnSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
  return ok;
})();
const NEEDS_MOUNT = 'needs root and mount (tmpfs, read-only bind mounts)';

/** Run `body` with `dir` as a tmpfs of `size`, unmounted afterwards whatever happens. */
async function withTmpfs(dir: string, size: string, body: () => Promise<void>): Promise<void> {
  mkdirSync(dir, { recursive: true });
  expect(spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status).toBe(0);
  try {
    await body();
  } finally {
    spawnSync('umount', ['-l', dir]);
  }
}

/** Every file under `dir` whose name ends in .tmp. */
function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmp'));
}

const bigProfile = (name: string) =>
  quickProfile(
    name,
    Array.from({ length: 30 }, (_, i) => `profileset."p${i}"=potion=disabled`),
  );

const oneLine = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((line) => !/^(Waiting for|\[\d+:\d+\])/.test(line));

describe('a full disk', () => {
  it.skipIf(!mountable)(
    `ends the job failed as such, and the waiting command exits; no temp files stay (${NEEDS_MOUNT})`,
    async () => {
      const env = freshEnv();
      const profile = profileFile(env, 'big.simc', bigProfile('Full'));
      await withTmpfs(env.SIMJOB_DATA_DIR, '300k', async () => {
        const ends: Array<{ exitCode: number; status?: string; reason?: string }> = [];
        for (let i = 0; i < 6; i++) {
          const result = await run(env, ['submit', profile, '--local', '--wait', '--json'], 60_000);
          const answer = result.stdout.trim() ? json(result) : {};
          ends.push({
            exitCode: result.exitCode,
            status: answer.status,
            reason: answer.statusReason ?? oneLine(result.stderr).join(' '),
          });
        }
        expect(ends[0]).toMatchObject({ exitCode: 0, status: 'completed' });
        const full = ends.filter((end) => end.exitCode !== 0);
        expect(full.length).toBeGreaterThan(0);
        for (const end of full) expect(end.reason).toContain("no space left on the data dir's disk");
        expect(full.some((end) => end.status === 'failed' && end.exitCode === 3)).toBe(true);
        // every job it made has ended, and is listed
        const listed = await run(env, ['jobs', '--local', '--json']);
        expect(listed.exitCode, listed.stderr).toBe(0);
        expect(
          json(listed).jobs.filter((job: { status: string }) => job.status === 'running' || job.status === 'queued'),
        ).toEqual([]);
        expect(tempFiles(env.SIMJOB_DATA_DIR)).toEqual([]);
      });
    },
  );
});

describe('a full disk without --wait', () => {
  it.skipIf(!mountable)(
    `ends the jobs as the waiting path does; the worker logs one line per fault and exits (${NEEDS_MOUNT})`,
    async () => {
      const env = freshEnv();
      const profile = profileFile(env, 'big.simc', bigProfile('Full'));
      await withTmpfs(env.SIMJOB_DATA_DIR, '300k', async () => {
        const ids: string[] = [];
        for (let i = 0; i < 6; i++) {
          const result = await run(env, ['submit', profile, '--local', '--json'], 60_000);
          if (result.exitCode === 0) ids.push(json(result).id as string);
          else expect(oneLine(result.stderr).join(' ')).toContain("no space left on the data dir's disk");
        }
        expect(ids.length).toBeGreaterThan(1);
        const log = () => readFileSync(join(env.SIMJOB_DATA_DIR, 'worker.log'), 'utf8');
        await waitFor(
          'the worker to leave',
          async () => (/releases the lock|stopping/.test(log()) ? true : undefined),
          60_000,
        );
        const listed = await run(env, ['jobs', '--local', '--json']);
        expect(listed.exitCode, listed.stderr).toBe(0);
        const jobs = json(listed).jobs as Array<{ id: string; status: string }>;
        expect(jobs.filter((job) => job.status === 'queued' || job.status === 'running')).toEqual([]);
        expect(log()).not.toMatch(/^\s+at /m);
        const failed = jobs.find((job) => job.status === 'failed');
        expect(failed).toBeDefined();
        const result = await run(env, ['result', (failed as { id: string }).id]);
        expect(result.exitCode).toBe(3);
        expect(result.stdout).toContain("execution_failed: no space left on the data dir's disk");
        expect(result.stdout).toContain('Free some space');
        expect(result.stdout).not.toContain('simc crashed');
        expect(tempFiles(env.SIMJOB_DATA_DIR)).toEqual([]);
      });
    },
  );
});

describe('a read-only job folder', () => {
  it.skipIf(!mountable)(
    `makes the waiting command exit 1 naming it; the other jobs are listed (${NEEDS_MOUNT})`,
    async () => {
      const env = freshEnv();
      const done = await runQuickJob(env, 'Done');
      const slow = profileFile(env, 'b.simc', quickProfile('Slow', ['# fake.start_delay_ms=1500']));
      const waiting = run(env, ['submit', slow, '--local', '--wait', '--json'], 60_000);
      const id = await waitFor('the slow job', async () => {
        const jobs = json(await run(env, ['jobs', '--local', '--json'])).jobs as Array<{ id: string; status: string }>;
        return jobs.find((job) => job.status === 'running')?.id;
      });
      const folder = join(env.SIMJOB_DATA_DIR, 'jobs', id);
      expect(spawnSync('mount', ['--bind', folder, folder]).status).toBe(0);
      try {
        expect(spawnSync('mount', ['-o', 'remount,bind,ro', folder]).status).toBe(0);
        const result = await waiting;
        expect(result.exitCode).toBe(1);
        const [line, ...more] = oneLine(result.stderr);
        expect(more).toEqual([]);
        expect(line).toContain(`${folder}/`);
        expect(line).toContain('the file system is read-only');
        expect(line).not.toMatch(/bug/i);
        const listed = await run(env, ['jobs', '--local', '--json']);
        expect(listed.exitCode, listed.stderr).toBe(0);
        expect(json(listed).jobs.map((job: { id: string }) => job.id)).toContain(done.id);
      } finally {
        spawnSync('umount', ['-l', folder]);
      }
    },
  );
});

describe('the data dir', () => {
  it('with a folder where the claim lock file belongs: one line naming it, exit 1', async () => {
    const env = freshEnv();
    mkdirSync(join(env.SIMJOB_DATA_DIR, 'claim.lock'), { recursive: true });
    const result = await run(env, ['submit', profileFile(env, 'p.simc', quickProfile('Lock')), '--local', '--wait']);
    expect(result.exitCode).toBe(1);
    expect(oneLine(result.stderr)).toEqual([
      expect.stringContaining(`${join(env.SIMJOB_DATA_DIR, 'claim.lock')}: a folder is where simjob keeps a file.`),
    ]);
    expect(result.stderr).not.toMatch(/bug/i);
  });

  it.each(['queue', 'jobs'])('with a file where the %s folder belongs: one line naming it, exit 1', async (name) => {
    const env = freshEnv();
    mkdirSync(env.SIMJOB_DATA_DIR, { recursive: true });
    writeFileSync(join(env.SIMJOB_DATA_DIR, name), '');
    const result = await run(env, ['jobs', '--local']);
    expect(result.exitCode).toBe(1);
    expect(oneLine(result.stderr)).toEqual([
      expect.stringContaining(
        `${join(env.SIMJOB_DATA_DIR, name)}: a file is where simjob keeps a folder. Remove or rename that file.`,
      ),
    ]);
  });

  it.skipIf(!mountable)(
    `read-only: jobs are listed, a submit says so in one line, exit 1 (${NEEDS_MOUNT})`,
    async () => {
      const env = freshEnv();
      await runQuickJob(env, 'Before');
      const data = env.SIMJOB_DATA_DIR;
      expect(spawnSync('mount', ['--bind', data, data]).status).toBe(0);
      try {
        expect(spawnSync('mount', ['-o', 'remount,bind,ro', data]).status).toBe(0);
        const listed = await run(env, ['jobs', '--local', '--json']);
        expect(listed.exitCode, listed.stderr).toBe(0);
        expect(json(listed).jobs).toHaveLength(1);
        const result = await run(env, [
          'submit',
          profileFile(env, 'b.simc', quickProfile('After')),
          '--local',
          '--wait',
        ]);
        expect(result.exitCode).toBe(1);
        expect(oneLine(result.stderr)).toEqual([
          expect.stringMatching(new RegExp(`^Error: ${data}/.*: the file system is read-only\\.`)),
        ]);
      } finally {
        spawnSync('umount', ['-l', data]);
      }
    },
  );
});

describe('a reshaped job record', () => {
  it.each([['{}'], ['[1,2]'], ['another job']])(
    '(%s) is reported by name and skipped; the others are listed',
    async (shape) => {
      const env = freshEnv();
      const ids: string[] = [];
      for (const name of ['A', 'B', 'C']) {
        ids.push((await runQuickJob(env, name)).id);
      }
      const [first, bad, last] = ids as [string, string, string];
      const record = join(env.SIMJOB_DATA_DIR, 'jobs', bad, 'job.json');
      writeFileSync(record, shape === 'another job' ? JSON.stringify({ ...jobFile(env, first) }) : shape);
      const listed = await run(env, ['jobs', '--local', '--json']);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(json(listed).jobs.map((job: { id: string }) => job.id)).toEqual([last, first]);
      expect(listed.stderr).toContain(`${record}: not a job record of simjob`);
      const status = await run(env, ['status', bad]);
      expect(status.exitCode).toBe(1);
      expect(status.stderr).toContain(`${record}: not a job record of simjob`);
      expect(status.stderr).not.toMatch(/bug/i);
    },
  );
});

describe('the background worker', () => {
  it('removes a queue entry it does not know, and exits once idle', async () => {
    const env = freshEnv();
    mkdirSync(join(env.SIMJOB_DATA_DIR, 'queue'), { recursive: true });
    const stray = join(env.SIMJOB_DATA_DIR, 'queue', '5-local-01m8gyzzzzzzzzzzzz');
    writeFileSync(stray, '');
    const result = await run(env, ['submit', profileFile(env, 'p.simc', quickProfile('Queued')), '--local', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const pid = await waitFor('a worker', async () => workerPid(env));
    await waitFor('the worker to exit', async () => (alive(pid) ? undefined : true), 20_000);
    expect(existsSync(stray)).toBe(false);
    expect(json(await run(env, ['status', json(result).id, '--json'])).status).toBe('completed');
  });
});

describe('a job whose recorded simc pid is now another program', () => {
  it('is retried and completes; that program is neither waited for nor stopped', async () => {
    const env = freshEnv();
    const id = (await runQuickJob(env, 'Reused')).id as string;
    // an unrelated program leading a process group of its own, started somewhere else
    const other = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', cwd: dirname(env.SIMJOB_DATA_DIR) });
    try {
      const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
      const folder = join(env.SIMJOB_DATA_DIR, 'jobs', id);
      for (const name of readdirSync(folder))
        if (name !== 'job.json' && name !== 'input.simc') rmSync(join(folder, name));
      const record = jobFile(env, id);
      writeFileSync(
        join(folder, 'job.json'),
        JSON.stringify({
          ...record,
          status: 'running',
          completedAt: null,
          detached: true,
          simcPid: other.pid,
          owner: { pid: Number(dead.stdout), nonce: 'gone' },
          attempt: 1,
          retried: false,
        }),
      );
      writeFileSync(join(env.SIMJOB_DATA_DIR, 'running', id), '');
      await waitFor(
        'the job to complete again',
        async () => {
          const status = json(await run(env, ['status', id, '--json']));
          return status.status === 'completed' ? status : undefined;
        },
        20_000,
      );
      expect(jobFile(env, id)).toMatchObject({ retried: true, attempt: 2 });
      expect(alive(other.pid)).toBe(true);
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe('simc', () => {
  it("gets none of simjob's secrets in its environment", async () => {
    const env = freshEnv({
      SIMJOB_API_KEY: 'sj_secret_api_key',
      SIMJOB_WEBHOOK_SECRET: 'whsec_secret',
      SIMJOB_PROVIDER_CLIENT_ID: 'provider-id',
      SIMJOB_PROVIDER_CLIENT_SECRET: 'provider-secret',
    });
    const dump = join(dirname(env.SIMJOB_DATA_DIR), 'simc-env.txt');
    env.SIMJOB_SIMC = join(dirname(env.SIMJOB_DATA_DIR), 'simc-env');
    writeFileSync(env.SIMJOB_SIMC, `#!/bin/sh\nenv > '${dump}'\nexec '${FAKE_SIMC}' "$@"\n`, { mode: 0o755 });
    await runQuickJob(env, 'Env');
    const seen = readFileSync(dump, 'utf8');
    expect(seen).toMatch(/^PATH=/m);
    for (const secret of ['sj_secret_api_key', 'whsec_secret', 'provider-secret']) expect(seen).not.toContain(secret);
    expect(seen).not.toMatch(/^SIMJOB_/m);
  });
});
