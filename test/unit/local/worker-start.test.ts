import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { earlyWorkerEnv, startWorkerEarly } from '../../../src/local/worker-start.js';
import { tempDir } from '../../helpers/temp.js';

const env = { HOME: '/home/u', SIMJOB_PROFILE: 'from-env' };

describe('earlyWorkerEnv: the worker environment read from a submit command line before the CLI loads', () => {
  it('is the caller environment for a plain local submit (SIMJOB_PROFILE left as it is)', () => {
    expect(earlyWorkerEnv(['submit', 'a.simc', '--local'], env)).toBe(env);
  });

  it('starts nothing for a waiting submit: it runs its job itself when the queue has room (inline.ts)', () => {
    expect(earlyWorkerEnv(['submit', 'a.simc', '--local', '--wait'], env)).toBeUndefined();
    expect(earlyWorkerEnv(['submit', 'a.simc', '--local', '-w'], env)).toBeUndefined();
    expect(earlyWorkerEnv(['submit', 'a.simc', '--local', '-qw'], env)).toBeUndefined();
  });

  it('carries -p/--profile as SIMJOB_PROFILE, as the local backend does for a flag-chosen profile', () => {
    expect(earlyWorkerEnv(['--profile', 'work', 'submit', 'a.simc', '--local'], env)).toEqual({ ...env, SIMJOB_PROFILE: 'work' });
    expect(earlyWorkerEnv(['submit', 'a.simc', '--local', '--profile=ci'], env)?.SIMJOB_PROFILE).toBe('ci');
    expect(earlyWorkerEnv(['submit', '-p', 'home', 'a.simc', '--local'], env)?.SIMJOB_PROFILE).toBe('home');
  });

  it('starts nothing when no job will run, or when the command line needs the real parser', () => {
    expect(earlyWorkerEnv(['submit', 'a.simc'], env)).toBeUndefined(); // remote
    expect(earlyWorkerEnv(['status', '--local'], env)).toBeUndefined();
    expect(earlyWorkerEnv(['submit', 'a.simc', '--local', '--dry-run'], env)).toBeUndefined();
    expect(earlyWorkerEnv(['submit', '--local', '--help'], env)).toBeUndefined();
    expect(earlyWorkerEnv(['submit', 'a.simc', '--', '--local'], env)).toBeUndefined(); // an operand, not the flag
    expect(earlyWorkerEnv(['submit', 'a.simc', '--local', '-pwork'], env)).toBeUndefined();
    expect(earlyWorkerEnv(['submit', 'a.simc', '--local', '--profile'], env)).toBeUndefined();
  });
});

describe('startWorkerEarly', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('does nothing at all (not even the data dir) for a command line that runs no local job', async () => {
    dir = tempDir('simjob-early-');
    await startWorkerEarly(['submit', 'a.simc', '--local', '--dry-run'], { SIMJOB_DATA_DIR: join(dir, 'data') });
    expect(readdirSync(dir)).toEqual([]);
  });
});
