/**
 * One bad job never stops the local queue: a job folder that cannot be written (chmod 555, as a user without
 * privileges) or locked (a folder where its lock belongs), a folder in queue/, a record that is a FIFO or a link to
 * /dev/zero, a damaged idempotency key record. The worker skips what it cannot touch with one line naming the path
 * (no stack trace), runs the other jobs and exits; the commands about the bad job say what is wrong in one line.
 */
import { execa } from 'execa';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, type CliResult } from '../helpers/cli.js';
import { noteSkipped } from '../helpers/skip-note.js';
import {
  alive,
  freshLocalEnvs,
  jobFile,
  json,
  profileFile,
  quickProfile,
  run,
  statusOf,
  waitFor,
  workerPid,
  type LocalEnv,
} from './local-helpers.js';

const freshEnv = freshLocalEnvs();

const isRoot = process.getuid?.() === 0;
/** Root ignores file modes: the chmod cases run the CLI as `nobody` through setpriv (util-linux). */
const DROP = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'] as const;
const dropProblem = !isRoot
  ? undefined
  : spawnSync(DROP[0], [...DROP.slice(1), 'true']).status !== 0
    ? 'runs as root without setpriv to drop to nobody'
    : // nobody must reach this Node and this checkout (a clone in a folder private to root is out of its reach)
      spawnSync(DROP[0], [...DROP.slice(1), process.execPath, BIN, '--version']).status !== 0
      ? `nobody cannot run ${process.execPath} ${BIN} (a folder above them is private to root)`
      : undefined;
const canDrop = dropProblem === undefined;
if (dropProblem) noteSkipped('the chmod 555 job folder tests', dropProblem);

/** The CLI as a user without privileges (when the tests run as root): its files must be that user's. */
function asUser(env: LocalEnv, args: string[]): Promise<CliResult> {
  const command = isRoot ? [...DROP, process.execPath, BIN, ...args] : [process.execPath, BIN, ...args];
  return execa(command[0] as string, command.slice(1), {
    env: { PATH: process.env.PATH, HOME: dirname(env.SIMJOB_DATA_DIR), ...env },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  }).then((r) => ({ exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) }));
}

/** Hand an env's folders (and the temp folder above them) to `nobody`. */
function giveToNobody(env: LocalEnv): void {
  if (!isRoot) return;
  const root = dirname(env.SIMJOB_DATA_DIR);
  chmodSync(root, 0o777);
  // the test run's temp folder above it is private to root: nobody must be let through it
  for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir))
    if ((statSync(dir).mode & 0o001) === 0) chmodSync(dir, statSync(dir).mode | 0o111);
  const uid = Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout);
  const gid = Number(spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).stdout);
  for (const dir of [env.SIMJOB_DATA_DIR, env.SIMJOB_CONFIG_DIR, join(root, 'profiles')]) {
    mkdirSync(dir, { recursive: true });
    for (const name of ['', ...readdirSync(dir, { recursive: true, encoding: 'utf8' })])
      chownSync(join(dir, name), uid, gid);
  }
}

const workerLog = (env: LocalEnv) => {
  try {
    return readFileSync(join(env.SIMJOB_DATA_DIR, 'worker.log'), 'utf8');
  } catch {
    return '';
  }
};

/** The worker has run and left: it held the lock once and no longer does. */
async function workerGone(env: LocalEnv, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    'the worker to exit',
    async () => {
      const pid = workerPid(env);
      return /releases the lock|stopping/.test(workerLog(env)) && !(pid && alive(pid)) ? true : undefined;
    },
    timeoutMs,
  );
}

/** A queue of four: the first runs a while, so the other three are still queued when one of them is broken. */
async function queueOfFour(env: LocalEnv, submit: (args: string[]) => Promise<CliResult>): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, name] of ['First', 'Second', 'Third', 'Fourth'].entries()) {
    const profile = profileFile(env, `${name}.simc`, quickProfile(name, i === 0 ? ['# fake.start_delay_ms=2000'] : []));
    giveToNobody(env);
    const result = await submit(['submit', profile, '--local', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    ids.push(json(result).id as string);
  }
  return ids;
}

function expectOneLineLog(env: LocalEnv, path: string): void {
  const log = workerLog(env);
  expect(log).toContain(path);
  expect(log).not.toMatch(/^\s+at /m); // no stack trace
  // one line per try, and few tries: no spinning
  expect(log.split('\n').filter((line) => line.includes(path)).length).toBeLessThanOrEqual(3);
}

describe('a queue with one broken job folder among them', () => {
  it('runs the others and the worker exits (a folder where the job lock belongs)', async () => {
    const env = freshEnv();
    const ids = await queueOfFour(env, (args) => run(env, args));
    const broken = ids[2] as string;
    const lockPath = join(env.SIMJOB_DATA_DIR, 'jobs', broken, 'lock');
    mkdirSync(lockPath);
    await workerGone(env);
    for (const id of ids.filter((id) => id !== broken)) expect((await statusOf(env, id)).status).toBe('completed');
    expectOneLineLog(env, lockPath);
    const status = await run(env, ['status', broken]);
    expect(status.exitCode).toBe(1);
    expect(status.stderr.trim().split('\n')).toEqual([
      `Error: ${lockPath}: a folder is where simjob keeps a file. Remove or rename that folder.`,
    ]);
    // fixed, it runs
    spawnSync('rmdir', [lockPath]);
    await waitFor('the fixed job to complete', async () =>
      (await statusOf(env, broken)).status === 'completed' ? true : undefined,
    );
  });

  it.skipIf(!canDrop)('runs the others and the worker exits (chmod 555 on a job folder, as a user)', async () => {
    const env = freshEnv();
    const ids = await queueOfFour(env, (args) => asUser(env, args));
    const broken = ids[1] as string;
    const folder = join(env.SIMJOB_DATA_DIR, 'jobs', broken);
    chmodSync(folder, 0o555);
    await workerGone(env);
    for (const id of ids.filter((id) => id !== broken)) {
      const status = await asUser(env, ['status', id, '--json']);
      expect(json(status).status).toBe('completed');
    }
    expectOneLineLog(env, `${folder}/`);
    expect(workerLog(env)).toContain('permission denied');
    const status = await asUser(env, ['status', broken]);
    expect(status.exitCode).toBe(1);
    expect(status.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(`^Error: ${folder}/.*: permission denied\\.`),
    ]);
  });
});

describe('chmod 555 on a running job folder (as a user)', () => {
  it.skipIf(!canDrop)('the waiting CLI says so in one line; the queued job runs and the worker exits', async () => {
    const env = freshEnv();
    const slow = profileFile(env, 'slow.simc', quickProfile('Slow', ['# fake.start_delay_ms=2500']));
    const next = profileFile(env, 'next.simc', quickProfile('Next'));
    giveToNobody(env);
    const waiting = asUser(env, ['submit', slow, '--local', '--wait']);
    const id = await waitFor('the job to run', async () => {
      const folder = join(env.SIMJOB_DATA_DIR, 'jobs');
      const [first] = existsSync(folder) ? readdirSync(folder).filter((n) => n.startsWith('local-')) : [];
      return first && jobFile(env, first).simcPid ? first : undefined;
    });
    const queued = await asUser(env, ['submit', next, '--local', '--json']);
    expect(queued.exitCode, queued.stderr).toBe(0);
    const folder = join(env.SIMJOB_DATA_DIR, 'jobs', id);
    chmodSync(folder, 0o555);
    const result = await waiting;
    expect(result.exitCode).toBe(1);
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('Error: '));
    expect(errors).toEqual([expect.stringMatching(`^Error: ${folder}/.*: permission denied\\.`)]);
    await workerGone(env);
    expect(json(await asUser(env, ['status', json(queued).id, '--json'])).status).toBe('completed');
    expectOneLineLog(env, `${folder}/`);
  });
});

describe('the queue folder', () => {
  it('with folders in it: an empty one is removed, one with files is named once; the job runs', async () => {
    const env = freshEnv();
    const queue = join(env.SIMJOB_DATA_DIR, 'queue');
    mkdirSync(join(queue, '1-local-01m8gyzzzzzzzzzzzz'), { recursive: true }); // a marker's name, as a folder
    mkdirSync(join(queue, 'kept'));
    writeFileSync(join(queue, 'kept', 'note.txt'), 'mine');
    const result = await run(env, ['submit', profileFile(env, 'q.simc', quickProfile('Queued')), '--local', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    await workerGone(env);
    expect((await statusOf(env, json(result).id)).status).toBe('completed');
    expect(existsSync(join(queue, '1-local-01m8gyzzzzzzzzzzzz'))).toBe(false);
    expect(existsSync(join(queue, 'kept', 'note.txt'))).toBe(true);
    expectOneLineLog(env, join(queue, 'kept'));
  });

  it('a folder where claim.lock belongs: a submit without --wait exits 1 naming it, and queues nothing', async () => {
    const env = freshEnv();
    mkdirSync(join(env.SIMJOB_DATA_DIR, 'claim.lock'), { recursive: true });
    const result = await run(env, ['submit', profileFile(env, 'c.simc', quickProfile('Claim')), '--local']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `Error: ${join(env.SIMJOB_DATA_DIR, 'claim.lock')}: a folder is where simjob keeps a file. Remove or rename that folder.`,
    ]);
    expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'queue'))).toEqual([]);
  });
});

describe('a fault of the whole data dir', () => {
  it('(a folder made where claim.lock belongs) is one log line per try, each after a longer pause; fixed, the queue runs', async () => {
    const env = freshEnv();
    const ids = await queueOfFour(env, (args) => run(env, args));
    const claimLock = join(env.SIMJOB_DATA_DIR, 'claim.lock');
    mkdirSync(claimLock);
    const faults = () =>
      workerLog(env)
        .split('\n')
        .filter((line) => line.includes(`${claimLock}: a folder is`));
    await waitFor('three tries', async () => (faults().length >= 3 ? true : undefined), 30_000);
    const pauses = faults().map((line) => Number(/trying again in ([\d.]+) s/.exec(line)?.[1]));
    for (let i = 1; i < pauses.length; i++) expect(pauses[i]).toBeGreaterThan(pauses[i - 1] as number);
    expect(workerLog(env)).not.toMatch(/^\s+at /m);
    spawnSync('rmdir', [claimLock]);
    for (const id of ids)
      await waitFor(
        `${id} to complete`,
        async () => ((await statusOf(env, id)).status === 'completed' ? true : undefined),
        30_000,
      );
  });
});

describe('a job record that is no file', () => {
  it.each([
    ['a link to /dev/zero', (path: string) => symlinkSync('/dev/zero', path)],
    ['a FIFO', (path: string) => expect(spawnSync('mkfifo', [path]).status).toBe(0)],
  ])('(%s): `jobs --local` lists the others, `status` names it; nothing hangs', async (_what, make) => {
    const env = freshEnv();
    const ids: string[] = [];
    for (const name of ['A', 'B']) {
      const result = await run(env, [
        'submit',
        profileFile(env, `${name}.simc`, quickProfile(name)),
        '--local',
        '--wait',
        '--json',
      ]);
      expect(result.exitCode, result.stderr).toBe(0);
      ids.push(json(result).id as string);
    }
    const record = join(env.SIMJOB_DATA_DIR, 'jobs', ids[0] as string, 'job.json');
    const kept = readFileSync(record);
    rmSync(record);
    make(record);
    try {
      const listed = await run(env, ['jobs', '--local', '--json'], 10_000);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(json(listed).jobs.map((job: { id: string }) => job.id)).toEqual([ids[1]]);
      expect(listed.stderr).toContain(`${record}: not a regular file.`);
      const status = await run(env, ['status', ids[0] as string], 10_000);
      expect(status.exitCode).toBe(1);
      expect(status.stderr.trim().split('\n')).toEqual([
        expect.stringContaining(`Error: ${record}: not a regular file.`),
      ]);
    } finally {
      // the clean-up reads every record
      rmSync(record);
      writeFileSync(record, kept);
    }
  });
});

describe('a damaged idempotency key record', () => {
  it.each([['not json {'], ['{"jobId": 5}'], ['{}']])('(%s) is one line naming its file', async (text) => {
    const env = freshEnv();
    const profile = profileFile(env, 'k.simc', quickProfile('Key'));
    const first = await run(env, ['submit', profile, '--local', '--wait', '--idempotency-key', 'k-1', '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    const keys = join(env.SIMJOB_DATA_DIR, 'keys');
    const [name] = readdirSync(keys);
    writeFileSync(join(keys, name as string), text);
    const again = await run(env, ['submit', profile, '--local', '--idempotency-key', 'k-1']);
    expect(again.exitCode).toBe(1);
    const lines = again.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${join(keys, name as string)}: `);
    expect(lines[0]).toContain('Remove that file');
    expect(again.stderr).not.toMatch(/undefined|job folder/);
  });
});

describe('a killed worker', () => {
  it('leaves its simc running: the next worker adopts the run, also after a second kill; not retried', async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'slow.simc', quickProfile('Slow', ['iterations=2000', '# fake.iter_us=2000']));
    const submitted = await run(env, ['submit', profile, '--local', '--json']);
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const id = json(submitted).id as string;
    const simcPid = await waitFor('simc to run', async () => jobFile(env, id).simcPid ?? undefined);
    for (let kill = 0; kill < 2; kill++) {
      const pid = await waitFor('a worker running the job', async () => {
        const owner = workerPid(env);
        return owner && alive(owner) && jobFile(env, id).owner?.pid === owner ? owner : undefined;
      });
      process.kill(pid, 'SIGKILL');
      await waitFor('the worker to die', async () => (alive(pid) ? undefined : true));
      expect(alive(simcPid)).toBe(true); // simc runs on, in a session of its own
      expect((await statusOf(env, id)).status).toBe('running'); // the next command starts a worker, which adopts it
    }
    const done = await waitFor(
      'the job to complete',
      async () => {
        const status = await statusOf(env, id);
        return status.status === 'completed' ? status : undefined;
      },
      60_000,
    );
    expect(done.retried).toBe(false);
    expect(jobFile(env, id)).toMatchObject({ attempt: 1, retried: false });
    expect(workerLog(env).match(new RegExp(`${id} adopted`, 'g'))).toHaveLength(2);
  });
});

describe('a stopped waiting CLI', () => {
  // It was running the queue itself (no worker was running). Ctrl-Z (SIGTSTP) hands the queue over before the
  // process stops; SIGSTOP cannot be caught, so the next command finds it stopped and a new worker takes over.
  it.each([
    ['SIGTSTP', 'releases the lock'],
    ['SIGSTOP', 'lost the lock'],
  ] as const)(
    '(%s) holds nothing: its job completes, the next one runs, and resumed it reports it',
    async (signal, how) => {
      const env = freshEnv();
      const first = profileFile(env, 'first.simc', quickProfile('First', ['iterations=1000', '# fake.iter_us=1000']));
      const child = spawn(process.execPath, [BIN, 'submit', first, '--local', '--wait', '--json'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      try {
        const id = await waitFor('its job to run', async () => {
          const folder = join(env.SIMJOB_DATA_DIR, 'jobs');
          const jobs = existsSync(folder) ? readdirSync(folder).filter((n) => n.startsWith('local-')) : [];
          const job = jobs[0] ? jobFile(env, jobs[0]) : undefined;
          return job?.simcPid ? (job.id as string) : undefined;
        });
        child.kill(signal);
        await waitFor('it to stop', async () => (processState(child.pid as number) === 'T' ? true : undefined));
        const next = await run(env, [
          'submit',
          profileFile(env, 'next.simc', quickProfile('Next')),
          '--local',
          '--json',
        ]);
        expect(next.exitCode, next.stderr).toBe(0);
        const done = await waitFor(
          'the next job to complete',
          async () => ((await statusOf(env, json(next).id)).status === 'completed' ? true : undefined),
          60_000,
        );
        expect(done).toBe(true);
        expect((await statusOf(env, id)).status).toBe('completed');
        child.kill('SIGCONT');
        expect(await exited).toBe(0); // resumed, it finds its job ended and reports it
        expect(json({ exitCode: 0, stdout, stderr: '' }).id).toBe(id);
        expect(workerLog(env)).toContain(`worker ${child.pid} ${how}`);
        expect(jobFile(env, id)).toMatchObject({ attempt: 1, retried: false });
      } finally {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }
    },
  );
});

/** A process's state letter (Linux /proc): T when stopped. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}
