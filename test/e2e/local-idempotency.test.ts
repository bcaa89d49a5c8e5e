/**
 * Idempotency keys of local submissions: a key given with --idempotency-key names one job, as on the service; a
 * submission without one records nothing, so <data dir>/keys holds no file per job.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshLocalEnvs, json, profileFile, quickProfile, run, type LocalEnv } from './local-helpers.js';

const freshEnv = freshLocalEnvs();

const keyRecords = (env: LocalEnv) => {
  const dir = join(env.SIMJOB_DATA_DIR, 'keys');
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe('local idempotency keys', () => {
  it('without --idempotency-key: every submission is a job of its own, and no key is recorded', async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'p.simc', quickProfile('Plain'));
    const first = json(await run(env, ['submit', profile, '--local', '--json']));
    const second = json(await run(env, ['submit', profile, '--local', '--json']));
    expect(second.id).not.toBe(first.id);
    expect(keyRecords(env)).toEqual([]);
    const dryRun = json(await run(env, ['submit', profile, '--local', '--dry-run', '--json']));
    expect(dryRun).not.toHaveProperty('idempotencyKey'); // no key is made for a local run
    expect(dryRun).not.toHaveProperty('headers'); // and no request is shown: a local run sends none
  });

  it('with --idempotency-key: the same request again is that job (a replay), another request with it is refused', async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'p.simc', quickProfile('Keyed'));
    const first = json(await run(env, ['submit', profile, '--local', '--json', '--idempotency-key', 'nightly-1']));
    const again = await run(env, ['submit', profile, '--local', '--idempotency-key', 'nightly-1']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain(`Job ${first.id} was already submitted with idempotency key nightly-1`);
    expect(keyRecords(env)).toHaveLength(1);

    const other = profileFile(env, 'other.simc', quickProfile('Other'));
    const refused = await run(env, ['submit', other, '--local', '--idempotency-key', 'nightly-1']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(
      `This idempotency key was already used for job ${first.id} with a different request.`,
    );
    expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'jobs'))).toEqual([first.id]);
  });
});
