/**
 * `submit` as scripts meet it: the shape of --json follows the command line (a batch is an array however many files
 * a pattern matched), a local dry run shows the local run (not a request), and flags that cannot work are refused
 * up front (exit 2, one line, nothing sent): an empty --idempotency-key, wait-only flags without --wait, a local
 * --webhook without its settings.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs, simjob, type CliResult } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { FAKE_SIMC, freshLocalEnvs, json, profileFile, quickProfile, run } from './local-helpers.js';

let server: TestServer;
const work = tempDir('simjob-submit-checks-');
const one = join(work, 'one');
const two = join(work, 'two');
const profile = join(one, 'fury.simc');
const FURY = 'warrior="Fury"\nspec=fury\nlevel=90\n';
for (const [dir, names] of [
  [one, ['fury']],
  [two, ['alpha', 'bravo']],
] as const) {
  mkdirSync(dir, { recursive: true });
  for (const name of names) writeFileSync(join(dir, `${name}.simc`), FURY.replace('Fury', name));
}

beforeAll(async () => {
  server = await startServer({ queueMs: 20, runMs: 200, apiKeys: ['sk_test_good'] });
});
afterAll(async () => {
  await server.close();
});

const remoteEnv = () => ({ ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' });
const submits = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/sim/jobs').length;

function expectRefused(result: CliResult, message: string): void {
  expect(result.exitCode, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.startsWith(`Error: ${message}`), result.stderr).toBe(true);
  expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
}

describe('--json is an array for a batch, however many profiles it matched', () => {
  it('a quoted pattern matching one profile, with --wait: an array of one result (the README CI recipe)', async () => {
    const result = await simjob(['submit', `${one}/*.simc`, '-c', 'nightly', '--wait', '--json'], { env: remoteEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout) as Array<{
      id: string;
      status: string;
      result: { summary: { mainActor: { mean: number } } };
    }>;
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ status: 'completed', metadata: { profile } });
    expect(typeof body[0]!.result.summary.mainActor.mean).toBe('number');
  });

  it('the same pattern matching two profiles: an array of two', async () => {
    const result = await simjob(['submit', `${two}/*.simc`, '-c', 'nightly', '--wait', '--json'], { env: remoteEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as Array<{ status: string }>).map((r) => r.status)).toEqual([
      'completed',
      'completed',
    ]);
  });

  it('without --wait and in a dry run too; one plain file stays one object', async () => {
    const env = remoteEnv();
    const shape = async (args: string[]) => {
      const result = await simjob(['submit', ...args, '-c', 'nightly', '--json'], { env });
      expect(result.exitCode, result.stderr).toBe(0);
      const body = JSON.parse(result.stdout) as unknown;
      return Array.isArray(body) ? `array of ${body.length}` : typeof body;
    };
    expect(await shape([`${one}/*.simc`])).toBe('array of 1');
    expect(await shape([`${one}/*.simc`, '--dry-run'])).toBe('array of 1');
    expect(await shape([profile, profile])).toBe('array of 2');
    expect(await shape([profile])).toBe('object');
    expect(await shape([profile, '--dry-run'])).toBe('object');
  });
});

describe('refused before anything is sent (exit 2, one line)', () => {
  it('an empty --idempotency-key, as a too long one is', async () => {
    const env = remoteEnv();
    const before = submits();
    for (const args of [['--dry-run'], []]) {
      expectRefused(
        await simjob(['submit', profile, '-c', 'weekly', '--idempotency-key', '', ...args], { env }),
        '--idempotency-key is empty',
      );
    }
    expectRefused(
      await simjob(['submit', profile, '-c', 'weekly', '--idempotency-key', 'x'.repeat(300)], { env }),
      '--idempotency-key must be 1-255',
    );
    expect(submits()).toBe(before);
  });

  it('--timeout, --top, --cancel-on-interrupt and --report without --wait (as in a dry run); --csv is not a wait flag', async () => {
    const env = remoteEnv();
    const before = submits();
    const cases: Array<[string[], string]> = [
      [['--timeout', '5m'], '--timeout stops waiting after that long; it needs --wait. Add --wait, or drop --timeout.'],
      [['--top', '3'], '--top picks the profilesets of the result shown; it needs --wait.'],
      [['--cancel-on-interrupt'], '--cancel-on-interrupt cancels the job when Ctrl-C stops the wait; it needs --wait.'],
      [['--report', `junit=${join(work, 'x.xml')}`], '--report writes what the jobs ended with; it needs --wait.'],
      [['--timeout', '5m', '--dry-run'], '--timeout stops waiting after that long; it needs --wait.'],
    ];
    for (const [args, message] of cases)
      expectRefused(await simjob(['submit', profile, '-c', 'nightly', ...args], { env }), message);
    expect(submits()).toBe(before);

    const csv = await simjob(['submit', profile, '-c', 'nightly', '--csv', '--json'], { env });
    expect(csv.exitCode, csv.stderr).toBe(0);
    const waited = await simjob(
      ['submit', profile, '-c', 'nightly', '--wait', '--timeout', '5m', '--top', '3', '--json'],
      { env },
    );
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ status: 'completed' });

    // status takes the same wait flags, and the same rule
    const id = JSON.parse(waited.stdout).id as string;
    expectRefused(
      await simjob(['status', id, '--timeout', '5m'], { env }),
      '--timeout stops waiting after that long; it needs --wait.',
    );
    expectRefused(
      await simjob(['status', id, '--top', '3', '--json'], { env }),
      '--top picks the profilesets of the result shown; it needs --wait.',
    );
    expect((await simjob(['status', id, '--wait', '--top', '3'], { env })).exitCode).toBe(0);
  });
});

describe('local mode', () => {
  const freshEnv = freshLocalEnvs();
  const TEXT = quickProfile('Capped', ['iterations=300000', 'threads=4']);
  const warningsOf = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('Warning: '));

  it("--dry-run shows the local run: simc, its arguments, the profile as simc gets it, the real run's warnings; no request", async () => {
    const env = freshEnv();
    const path = profileFile(env, 'capped.simc', TEXT);
    const dry = await run(env, ['submit', path, '--local', '--simc', FAKE_SIMC, '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const body = json(dry);
    expect(body).toMatchObject({
      source: path,
      simc: { path: FAKE_SIMC, source: '--simc' },
      args: ['input.simc', 'json2=report.json', 'output=simc-output.txt', 'progressbar_type=1'],
      cwd: join(env.SIMJOB_DATA_DIR, 'jobs', '<job id>'),
      input: { file: 'input.simc', text: TEXT },
    });
    expect(dry.stdout).not.toContain('/v1/sim/jobs');
    expect(dry.stderr).not.toContain('service maximum');
    expect(existsSync(env.SIMJOB_DATA_DIR)).toBe(false); // nothing written, no worker

    const real = await run(env, ['submit', path, '--local', '--simc', FAKE_SIMC, '--json']);
    expect(real.exitCode, real.stderr).toBe(0);
    expect(warningsOf(real.stderr)).toHaveLength(2);
    expect(warningsOf(real.stderr)[1]).toContain('the service would reject `threads=4`');
    expect(warningsOf(dry.stderr)).toEqual(warningsOf(real.stderr));
    expect(body.warnings).toEqual(warningsOf(real.stderr).map((l) => l.slice('Warning: '.length)));

    const human = await run(env, ['submit', path, '--local', '--simc', FAKE_SIMC, '--dry-run']);
    expect(human.exitCode, human.stderr).toBe(0);
    expect(human.stdout).toContain(`Arguments  input.simc json2=report.json output=simc-output.txt progressbar_type=1`);
    expect(human.stdout).toContain(`input.simc:\n${TEXT}`);
    expect(human.stdout).not.toContain('POST');
  });

  it('--webhook without a URL or secret: exit 2, one line naming the setting, no job made (also in a dry run)', async () => {
    const env = freshEnv();
    const path = profileFile(env, 'hook.simc', quickProfile('Hook'));
    for (const extra of [[], ['--dry-run']]) {
      const result = await run(env, ['submit', path, '--local', '--webhook', ...extra]);
      expectRefused(
        result,
        'This local job asks for a webhook, but no URL and no signing secret is configured (webhook_not_configured).',
      );
      expect(result.stderr).toContain('simjob config set webhook.url');
    }
    // (a plain `submit --local` starts the worker before the CLI loads: it finds no job and leaves after its grace)
    const listed = await run(env, ['jobs', '--local', '--json']);
    expect(JSON.parse(listed.stdout).jobs).toEqual([]);
  });

  it("a batch --wait shows simc's notifications under its summary, each with its profile (a mistyped option shows)", async () => {
    const env = freshEnv();
    const typo = profileFile(env, 'typo.simc', quickProfile('Typo', ['xyzzy=1']));
    const clean = profileFile(env, 'clean.simc', quickProfile('Clean'));
    const result = await run(env, ['submit', typo, clean, '--local', '--wait']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(warningsOf(result.stderr)).toEqual([
      // the stand-in's numbers are labelled once for the batch (src/cli/output/synthetic.ts)
      "Warning: synthetic numbers (stand-in simc): made up by simjob's test/fake-simc, not simulated by SimulationCraft",
      `Warning: ${typo}: simc notification: Warning: Unknown option 'xyzzy' with value '1', ignoring`,
    ]);
  });
});
