/**
 * The head start of `submit FILE --local --wait` (src/local/head-start.ts): simc starts before the CLI has loaded.
 * A user must see nothing of it but the speed: the run becomes the job's when it is the job's run; otherwise
 * (a bad flag, a refused profile, a busy queue) it is stopped and leaves no folder; a CLI killed before it took
 * the run leaves an orphan that the next head start removes.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, cleanUp, FAKE_SIMC, json, localEnv, profileFile, quickProfile, run, submitLocal, waitFor, waitForStatus, type LocalEnv } from './local-helpers.js';

let envs: LocalEnv[] = [];
const groups: number[] = [];
afterEach(async () => {
  for (const group of groups.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // gone
    }
  }
  await Promise.all(envs.map(cleanUp));
  envs = [];
});

/** An env whose simc notes the pid of every run it starts (one line each) in `runs`, then becomes the stand-in. */
function recordingEnv(extra: Record<string, string> = {}): LocalEnv & { runs: () => number[] } {
  const env = localEnv(extra);
  envs.push(env);
  const root = dirname(env.SIMJOB_DATA_DIR);
  mkdirSync(root, { recursive: true });
  const runsFile = join(root, 'runs.txt');
  const simc = join(root, 'simc');
  writeFileSync(simc, `#!/bin/sh\necho $$ >> '${runsFile}'\nexec '${FAKE_SIMC}' "$@"\n`);
  chmodSync(simc, 0o755);
  env.SIMJOB_SIMC = simc;
  const runs = () => (existsSync(runsFile) ? readFileSync(runsFile, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []);
  return Object.assign(env, { runs });
}

const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
const jobFolders = (env: LocalEnv) => entries(join(env.SIMJOB_DATA_DIR, 'jobs'));
const SLOW = '# fake.start_delay_ms=4000';

/** What a CLI leaves between starting simc and writing the job: the job's folder (its profile, no record), its marker. */
function earlyRun(env: LocalEnv, id: string, marker: string): { folder: string; marker: string } {
  const folder = join(env.SIMJOB_DATA_DIR, 'jobs', id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'input.simc'), quickProfile('Early'));
  mkdirSync(join(env.SIMJOB_DATA_DIR, 'early'), { recursive: true });
  writeFileSync(join(env.SIMJOB_DATA_DIR, 'early', id), marker);
  return { folder, marker: join(env.SIMJOB_DATA_DIR, 'early', id) };
}

describe('the head start of submit --local --wait', () => {
  it('is the job\'s run: simc runs once, and --debug says so', async () => {
    const env = recordingEnv();
    const result = await run(env, ['submit', profileFile(env, 'p.simc', quickProfile('Ahead')), '--local', '--wait', '--json', '--debug']);
    expect(result.exitCode, result.stderr).toBe(0);
    const job = json(result);
    expect(job).toMatchObject({ status: 'completed', retried: false, result: { summary: { mainActor: { name: 'Ahead' } } } });
    expect(result.stderr).toContain(`local: job ${job.id} is the run of simc started ahead of the CLI`);
    expect(env.runs()).toHaveLength(1);
    expect(Date.parse(job.createdAt)).toBeLessThanOrEqual(Date.parse(job.startedAt));
    expect(entries(join(env.SIMJOB_DATA_DIR, 'early'))).toEqual([]);
    expect(jobFolders(env)).toEqual([job.id]);
    // the temp files of its last writes were made while simc ran, and each was taken by its write
    const files = entries(join(env.SIMJOB_DATA_DIR, 'jobs', job.id));
    expect(files).toEqual(expect.arrayContaining(['job.json', 'result.json', 'profilesets.json']));
    expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('makes the next one\'s folder while its simc runs, and the next takes it: a job folder made ahead, never a job', async () => {
    const env = recordingEnv();
    const spare = join(env.SIMJOB_DATA_DIR, 'spare');
    const first = json(await run(env, ['submit', profileFile(env, 'a.simc', quickProfile('First')), '--local', '--wait', '--json']));
    expect(entries(spare)).toEqual([]); // a data dir used once is left without one
    const zeroth = json(await run(env, ['submit', profileFile(env, 'z.simc', quickProfile('Again')), '--local', '--wait', '--json']));
    const [made] = entries(spare);
    expect(entries(join(spare, made!)).sort()).toEqual(['input.simc', 'marker', 'stderr.log', 'stdout.log']);
    const inode = statSync(join(spare, made!, 'input.simc')).ino;
    const second = await run(env, ['submit', profileFile(env, 'b.simc', quickProfile('Second')), '--local', '--wait', '--json', '--debug']);
    expect(second.exitCode, second.stderr).toBe(0);
    const job = json(second);
    expect(second.stderr).toContain(`local: job ${job.id} is the run of simc started ahead of the CLI`);
    expect(job).toMatchObject({ status: 'completed', result: { summary: { mainActor: { name: 'Second' } } } });
    // the folder made by the first is the second's job folder, with the second's profile in its file
    expect(statSync(join(env.SIMJOB_DATA_DIR, 'jobs', job.id, 'input.simc')).ino).toBe(inode);
    expect(readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', job.id, 'input.simc'), 'utf8')).toContain('warrior="Second"');
    expect(entries(spare)).toHaveLength(1);
    expect(entries(spare)).not.toContain(made);
    expect(entries(join(env.SIMJOB_DATA_DIR, 'early'))).toEqual([]);
    const listed = json(await run(env, ['jobs', '--local', '--json'])).jobs.map((j: { id: string }) => j.id);
    expect(listed.sort()).toEqual([first.id, zeroth.id, job.id].sort());
  });

  it('is stopped and leaves nothing when a flag is refused', async () => {
    const env = recordingEnv();
    const profile = profileFile(env, 'p.simc', quickProfile('Refused', [SLOW]));
    const result = await run(env, ['submit', profile, '--local', '--wait', '--channel', 'bogus']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--channel/);
    // A head start was made before the CLI read its flags: only it makes <data dir>/early. Its simc may have been
    // stopped even before the recording wrapper wrote its pid (the CLI refuses the flag within milliseconds).
    expect(existsSync(join(env.SIMJOB_DATA_DIR, 'early'))).toBe(true);
    const [pid] = env.runs();
    if (pid !== undefined) await waitFor('the head start\'s simc to be gone', async () => (alive(pid) ? undefined : true), 5_000);
    expect(jobFolders(env)).toEqual([]);
    expect(entries(join(env.SIMJOB_DATA_DIR, 'early'))).toEqual([]);
  });

  it('is stopped when the submit refuses the profile, and --json readers get no job', async () => {
    const env = recordingEnv();
    const profile = profileFile(env, 'p.simc', quickProfile('Metric', [SLOW, 'profileset_metric=hps']));
    const result = await run(env, ['submit', profile, '--local', '--wait', '--json']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/profileset_metric=hps cannot be summarised/);
    expect(existsSync(join(env.SIMJOB_DATA_DIR, 'early'))).toBe(true); // a head start was made (as above)
    const [pid] = env.runs();
    if (pid !== undefined) await waitFor('the head start\'s simc to be gone', async () => (alive(pid) ? undefined : true), 5_000);
    expect(jobFolders(env)).toEqual([]);
  });

  it('waits its turn behind a running job instead of starting a second simc', async () => {
    const env = recordingEnv();
    const first = await submitLocal(env, profileFile(env, 'slow.simc', quickProfile('First', ['# fake.start_delay_ms=1500'])));
    await waitForStatus(env, first, 'running');
    const second = await run(env, ['submit', profileFile(env, 'q.simc', quickProfile('Second')), '--local', '--wait', '--json', '--debug']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(json(second)).toMatchObject({ status: 'completed', result: { summary: { mainActor: { name: 'Second' } } } });
    expect(second.stderr).not.toContain('started ahead of the CLI');
    expect((await waitForStatus(env, first, 'completed')).status).toBe('completed');
    expect(env.runs()).toHaveLength(2); // one run each: no head start was started for the second, or thrown away
  });

  it("never takes a marker being written for a dead CLI's; one left half-written for long is removed", async () => {
    const env = recordingEnv();
    // A CLI rewrites its marker once simc runs: a reader can meet the file empty, between the truncate and the write.
    const { folder, marker } = earlyRun(env, 'local-01m8000000bbbbbbbb', '');

    const first = await run(env, ['submit', profileFile(env, 'p.simc', quickProfile('Next')), '--local', '--wait', '--json']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(existsSync(join(folder, 'input.simc'))).toBe(true);
    expect(existsSync(marker)).toBe(true);

    // Still unreadable a minute later: its CLI was killed mid-write, and the next head start clears it away.
    const aMinuteAgo = new Date(Date.now() - 60_000);
    utimesSync(marker, aMinuteAgo, aMinuteAgo);
    const second = await run(env, ['submit', profileFile(env, 'p.simc', quickProfile('Next')), '--local', '--wait', '--json']);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(existsSync(folder)).toBe(false);
    expect(entries(join(env.SIMJOB_DATA_DIR, 'early'))).toEqual([]);
  });

  it('removes the run of a CLI killed before it took it, on the next head start', async () => {
    const env = recordingEnv();
    // A CLI killed between starting simc and writing the job: its marker names a dead CLI and the run's process group.
    const sleeper = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    groups.push(sleeper.pid as number);
    const deadCli = spawn('true');
    await new Promise((done) => deadCli.on('exit', done));
    const { folder } = earlyRun(env, 'local-01m8000000aaaaaaaa', `${deadCli.pid} ${sleeper.pid}\n`);

    const result = await run(env, ['submit', profileFile(env, 'p.simc', quickProfile('Next')), '--local', '--wait', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(json(result).status).toBe('completed');
    await waitFor('the orphan\'s process group to be gone', async () => (alive(sleeper.pid) ? undefined : true), 5_000);
    expect(existsSync(folder)).toBe(false);
    expect(entries(join(env.SIMJOB_DATA_DIR, 'early'))).toEqual([]);
    expect(jobFolders(env)).toEqual([json(result).id]);
  });
});
