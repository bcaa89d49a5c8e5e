/**
 * The files of examples/ do what the README and examples/README.md say: ci.sh runs a nightly step against the
 * bundled test server (made-up numbers), with simjob on PATH as a CI job has it.
 */
import { execa } from 'execa';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { BIN, isolatedDirs } from '../helpers/cli.js';
import { validateJunit } from '../helpers/junit.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { tempDir } from '../helpers/temp.js';
import { cleanUp, FAKE_SIMC, freshLocalEnvs, run, type LocalEnv } from './local-helpers.js';
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
    // The one warning is the stand-in's label: its numbers are not a simulation's.
    expect(r.stderr).toMatch(/^Warning: synthetic numbers \(stand-in simc\)/m);
    expect(r.stderr.replace(/^Warning: synthetic numbers.*\n/m, '')).not.toMatch(/Warning/);
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

/**
 * The commands the README and examples/README.md show, run as a reader copies them: from a folder that looks like the
 * checkout (examples/ and test/ linked in, so nothing is written into the real one), simjob on PATH, fresh config.
 */
/** The data dirs checkoutLike made: the background worker a local command there started is stopped after each test. */
let asWrittenDirs: LocalEnv[] = [];
afterEach(async () => {
  await Promise.all(asWrittenDirs.map(cleanUp));
  asWrittenDirs = [];
});

function checkoutLike(): { dir: string; env: Record<string, string> } {
  const dirs = isolatedDirs();
  asWrittenDirs.push(dirs);
  const dir = tempDir('simjob-as-written-');
  for (const name of ['examples', 'test']) symlinkSync(join(REPO_ROOT, name), join(dir, name));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'simjob'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'simjob'), 0o755);
  const env = {
    ...dirs,
    PATH: `${bin}:${process.env.PATH}`,
    HOME: process.env.HOME ?? dir,
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    NO_COLOR: '1',
  };
  return { dir, env };
}

async function asWritten(line: string, at: { dir: string; env: Record<string, string> }, extra = {}) {
  const r = await execa('sh', ['-c', line], {
    cwd: at.dir,
    env: { ...at.env, ...extra },
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** The ```sh blocks of a markdown section (from its heading to the next heading of any level). */
function shBlocks(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const rest = markdown.slice(start + heading.length + 2);
  const section = rest.slice(0, rest.search(/\n#{2,3} /) + 1 || undefined);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    m[1]!
      .split('\n')
      .map((l) => l.replace(/\s+#\s.*$/, '').trim())
      .filter(Boolean),
  );
}

describe('the README, read top to bottom, runs without an edit', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

  it('every command run against the stand-in simc (the first local sim, top gear, droptimizer, stat weights)', async () => {
    const at = checkoutLike();
    const [first] = shBlocks(readme, '## A first local sim');
    // `npm run demo` has its own test (demo.test.ts); the simjob lines are run here
    expect(first).toContain('simjob submit examples/fury-profilesets.simc --local --wait --simc test/fake-simc/simc');
    const lines = readme.split('\n').filter((l) => l.startsWith('simjob ') && l.includes('--simc test/fake-simc/simc'));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      const r = await asWritten(line.replace(/\s+#\s.*$/, ''), at);
      expect(r.exitCode, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stdout, line).not.toBe('');
    }
    const sim = await asWritten(first![0]!, at);
    expect(sim.stdout).toMatch(/^Status +completed$/m);
    expect(sim.stdout).toMatch(/^1\t\S+\t[\d,.]+/m); // piped: the table as tab-separated values
  }, 300_000);

  it('"Trying the remote commands offline": the lines try-server prints, then each command, against the test server', async () => {
    const server = await startServer({ queueMs: 20, runMs: 100 });
    try {
      const at = checkoutLike();
      const [start, session] = shBlocks(readme, '### Trying the remote commands offline');
      expect(start).toEqual(['npm run try-server']); // try-server.test.ts runs it and checks the two lines it prints
      const exports = session!.filter((l) => l.startsWith('export '));
      expect(exports).toEqual(['export SIMJOB_BASE_URL=http://127.0.0.1:8787', 'export SIMJOB_API_KEY=sk_test_good']);
      // the same two lines, with the port this test's server got
      const env = { SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' };
      for (const line of session!.filter((l) => !l.startsWith('export '))) {
        const r = await asWritten(line, at, env);
        expect(r.exitCode, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
      }
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('examples/README.md: every command runs as written, from the checkout', () => {
  const text = readFileSync(join(EXAMPLES, 'README.md'), 'utf8');
  const commands = [...text.matchAll(/`((?:simjob|sh examples\/|PROFILES=)[^`]+)`/g)].map((m) => m[1]!);

  it('the profile, the scenarios and the addon export through the stand-in; ci.sh against the test server', async () => {
    expect(commands).toHaveLength(4);
    const server = await startServer({ queueMs: 20, runMs: 100, concurrency: 8 });
    try {
      const at = checkoutLike();
      const env = { SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' };
      for (const command of commands) {
        const r = await asWritten(command, at, env);
        expect(r.exitCode, `${command}\n${r.stderr}`).toBe(0);
      }
      expect(existsSync(join(at.dir, '.simjob-state', 'results.json'))).toBe(true); // ci.sh's first good night
    } finally {
      await server.close();
    }
  }, 300_000);
});
