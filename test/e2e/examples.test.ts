/**
 * The files of examples/ do what the README and examples/README.md say: ci.sh runs a nightly step against the
 * bundled test server (made-up numbers), with simjob on PATH as a CI job has it.
 */
import { execa } from 'execa';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { BIN } from '../helpers/cli.js';
import { validateJunit } from '../helpers/junit.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { tempDir } from '../helpers/temp.js';
import { FAKE_SIMC, freshLocalEnvs, run } from './local-helpers.js';
import { userEnv } from './wait-helpers.js';

const EXAMPLES = resolve(REPO_ROOT, 'examples');

describe('examples/ci.sh against the test server', () => {
  let server: TestServer;
  let work: string;
  let env: Record<string, string>;
  let profile: string;
  beforeAll(async () => {
    server = await startServer({ queueMs: 20, runMs: 100, concurrency: 8 });
    work = tempDir('simjob-ci-example-');
    mkdirSync(join(work, 'profiles'));
    profile = join(work, 'profiles', 'fury-profilesets.simc');
    writeFileSync(profile, readFileSync(join(EXAMPLES, 'fury-profilesets.simc')));
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'simjob'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'simjob'), 0o755);
    env = {
      ...userEnv(server),
      PATH: `${bin}:${process.env.PATH}`,
      HOME: process.env.HOME ?? work,
      TMPDIR: process.env.TMPDIR ?? '/tmp',
      PROFILES: profile,
      STATE: join(work, 'state'),
    };
  });
  afterAll(async () => {
    await server.close();
  });

  const ciStep = () =>
    execa('sh', [join(EXAMPLES, 'ci.sh')], { cwd: work, env, extendEnv: false, reject: false, timeout: 120_000 });
  const baseline = () => join(work, 'state', 'results.json');

  it('the first night: 3 scenario jobs, JUnit and Markdown reports, and the results become the baseline', async () => {
    const r = await ciStep();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await validateJunit(join(work, 'sims.xml'))).toMatchObject({ tests: 3, failures: 0, errors: 0 });
    expect(readFileSync(join(work, 'summary.md'), 'utf8')).toContain('fury-profilesets.simc');
    expect(readFileSync(baseline(), 'utf8')).toBe(readFileSync(join(work, 'results.json'), 'utf8'));
  }, 150_000);

  it('the next night, nothing changed: the same numbers within their error, so it passes and is the new baseline', async () => {
    const before = readFileSync(baseline(), 'utf8');
    const r = await ciStep();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/regress/i);
    expect(existsSync(join(work, 'compare.md'))).toBe(true);
    expect(await validateJunit(join(work, 'compare.xml'))).toMatchObject({ failures: 0 });
    const after = readFileSync(baseline(), 'utf8');
    expect(after).toBe(readFileSync(join(work, 'results.json'), 'utf8'));
    expect(after).not.toBe(before); // new jobs, new draws: equal within the error, not to the digit
  }, 150_000);

  it('a night whose profile got worse fails with exit 3 (the regression), names it and keeps the baseline', async () => {
    const kept = readFileSync(baseline(), 'utf8');
    // the test server's true DPS for a profile is 100,000–150,000 unless `# test.dps=` sets it
    writeFileSync(profile, `${readFileSync(profile, 'utf8')}# test.dps=90000\n`);
    const r = await ciStep();
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/\d+ regressions of more than 1% \(significant\)/);
    expect(await validateJunit(join(work, 'compare.xml'))).toMatchObject({ failures: 3 });
    expect(readFileSync(baseline(), 'utf8')).toBe(kept);
  }, 150_000);
});

describe('the profile and the addon export, locally through the stand-in simc', () => {
  const freshEnv = freshLocalEnvs();

  it('fury-profilesets.simc: the actor and its four profilesets, ranked', async () => {
    const r = await run(freshEnv(), ['submit', join(EXAMPLES, 'fury-profilesets.simc'), '--local', '--wait']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/Warning/);
    const ranked = r.stdout
      .split('\n')
      .filter((line) => /^[1-4]\t/.test(line))
      .map((line) => line.split('\t')[1])
      .sort();
    expect(ranked).toEqual(['no_augment', 'no_flask', 'no_potion', 'other_food']);
  });

  it('scenarios.sh: the raid presets, then 2 fight styles × 2 target counts, each one table', async () => {
    const env = freshEnv();
    const bin = join(dirname(env.SIMJOB_DATA_DIR), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'simjob'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'simjob'), 0o755);
    const r = await execa('sh', [join(EXAMPLES, 'scenarios.sh'), '--local', '--simc', FAKE_SIMC], {
      cwd: REPO_ROOT,
      env: { ...env, PATH: `${bin}:${process.env.PATH}` },
      reject: false,
      timeout: 120_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('3 jobs (1 profile × 3 scenarios): 3 completed.');
    expect(r.stderr).toContain('4 jobs (1 profile × 4 scenarios): 4 completed.');
  }, 150_000);

  it('addon/fury-bags-vault.txt: topgear names the set to equip', async () => {
    const r = await run(
      freshEnv(),
      ['topgear', join(EXAMPLES, 'addon', 'fury-bags-vault.txt'), '--slots', 'trinket,finger', '--local', '--wait'],
      60_000,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Equip .+ over the equipped set\.$/m);
  }, 90_000);
});
