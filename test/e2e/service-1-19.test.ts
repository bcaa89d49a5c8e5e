/**
 * The newer service (openapi 1.19.1, served by the spec server): the credit budget in usage and submit, and the
 * small mends of issue 16 (hints that name the job, thousands separators).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs, simjob } from '../helpers/cli-in-process.js';

let server: TestServer;
let env: Record<string, string>;
const work = mkdtempSync(join(tmpdir(), 'simjob-service119-'));
const profile = join(work, 'fury.simc');
writeFileSync(profile, 'warrior="Fury"\nspec=fury\nlevel=90\n');

beforeAll(async () => {
  server = await startServer({ queueMs: 50, runMs: 300, limits: { maxSimcVariants: 6400 } });
  env = { ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' };
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const lastSubmit = () => [...server.requests].reverse().find((r) => r.method === 'POST' && r.path === '/v1/sim/jobs')!;

describe('usage', () => {
  it('shows the credit budget, its rate and the pool, and numbers with thousands separators', async () => {
    const usage = await simjob(['usage'], { env });
    expect(usage.exitCode, usage.stderr).toBe(0);
    expect(usage.stdout).toMatch(/Credits per job +115,200 max \(default 9,600\)/);
    expect(usage.stdout).toMatch(/Credit rate +32 credits per second of simc/);
    expect(usage.stdout).toMatch(/Pool +standard/);
    expect(usage.stdout).toMatch(/Max runtime +3,600 s \(default 300 s\)/);
    expect(usage.stdout).toMatch(/Max variants +6,400\n/);
    expect(usage.stdout).toMatch(/Credits used +0 this period \(no sims completed\)\n/);
  });

  it('shows the credits used this period, worked out from the sims run, their runtime and the rate', async () => {
    const own = await startServer({ queueMs: 20, runMs: 200 });
    const ownEnv = { ...env, SIMJOB_BASE_URL: own.url };
    try {
      for (let i = 0; i < 2; i++) {
        const r = await simjob(['submit', profile, '--channel', 'nightly', '--wait', '--quiet'], { env: ownEnv });
        expect(r.exitCode, r.stderr).toBe(0);
      }
      const { period, plan } = JSON.parse((await simjob(['usage', '--json'], { env: ownEnv })).stdout);
      expect(period.simsRun).toBe(2);
      const total = Math.round(2 * period.avgRuntimeSeconds * plan.creditsPerSecond).toLocaleString('en-US');
      const usage = await simjob(['usage'], { env: ownEnv });
      expect(usage.stdout).toMatch(
        new RegExp(`Credits used +about ${total} this period \\(2 completed × [\\d.]+ s average × 32 credits/s\\)`),
      );
    } finally {
      await own.close();
    }
  });

  it('still shows the runtime a budget buys when the deprecated seconds fields are null', async () => {
    const newer = await startServer({ limits: { secondsFieldsNull: true, maxCreditsPerJob: 48_000 } });
    try {
      const usage = await simjob(['usage'], { env: { ...env, SIMJOB_BASE_URL: newer.url } });
      expect(usage.exitCode, usage.stderr).toBe(0);
      expect(
        JSON.parse((await simjob(['usage', '--json'], { env: { ...env, SIMJOB_BASE_URL: newer.url } })).stdout).plan
          .maxRuntimeSeconds,
      ).toBeNull();
      expect(usage.stdout).toMatch(/Credits per job +48,000 max \(default 9,600\)/);
      expect(usage.stdout).toMatch(/Max runtime +about 1,500 s \(default about 300 s\), from the credit budget/);
    } finally {
      await newer.close();
    }
  });
});

describe('submit --max-credits', () => {
  it('sends runtime.maxCredits (valid against openapi 1.19.1) and shows the budget that applies', async () => {
    const result = await simjob(['submit', profile, '--channel', 'nightly', '--max-credits', '6400'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(lastSubmit().validation.valid).toBe(true);
    expect(lastSubmit().body).toMatchObject({ runtime: { maxCredits: 6400 } });
    expect(result.stdout).toContain('Limits: budget 6,400 credits, runtime 200 s, queue 1,800 s');
  });

  it('is validated before anything is sent', async () => {
    const count = server.requests.filter((r) => r.method === 'POST').length;
    const cases: Array<[string[], string]> = [
      [['--max-credits', '0'], 'Error: --max-credits must be a positive whole number'],
      [['--max-credits', '12.5'], 'Error: --max-credits must be a positive whole number'],
      [['--max-credits', '6400', '--max-runtime', '200'], 'Error: --max-credits and --max-runtime do not go together'],
      [['--max-credits', '6400', '--plain'], 'Error: --max-credits cannot be sent with --plain'],
      [
        ['--max-credits', '6400', '--local'],
        'Error: --max-credits is a budget on the hosted service; local runs cost no credits.',
      ],
    ];
    for (const [args, error] of cases) {
      const result = await simjob(['submit', profile, '--channel', 'nightly', ...args], { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0], args.join(' ')).toContain(error);
    }
    expect(server.requests.filter((r) => r.method === 'POST').length).toBe(count);
  });
});

describe('hints name the job', () => {
  it('result of a running job (409 result_not_ready) says which job to wait for', async () => {
    const submitted = await simjob(
      ['submit', profile, '--channel', 'nightly', '--json', '--meta', 'test.runMs=600000'],
      { env },
    );
    const id = JSON.parse(submitted.stdout).id as string;
    const result = await simjob(['result', id], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('(result_not_ready)');
    expect(result.stderr).toContain(`simjob status ${id} --wait`);
    expect(result.stderr).not.toContain('<id>');
    await simjob(['cancel', id], { env });
  });
});

describe('result of the newer summary fields', () => {
  async function finished(text: string): Promise<string> {
    const file = join(work, `p${Math.random().toString(36).slice(2)}.simc`);
    writeFileSync(file, text);
    const submitted = await simjob(['submit', file, '--channel', 'nightly', '--json'], { env });
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const id = JSON.parse(submitted.stdout).id as string;
    await server.waitForJob(id);
    return id;
  }

  it('lists the actors of a copy= comparison (summary.actors), best first, against the headline actor', async () => {
    const id = await finished('warrior="Fury"\nspec=fury\ncopy=Fury_Alt\ntalents=B\ncopy=Fury_Third,Fury\n');
    const record = JSON.parse((await simjob(['result', id, '--json'], { env })).stdout);
    const actors = record.result.summary.actors;
    expect(actors.count).toBe(3);
    const means = actors.results.map((a: { mean: number }) => a.mean);
    expect(means).toEqual([...means].sort((a, b) => b - a));
    const shown = await simjob(['result', id], { env });
    expect(shown.exitCode, shown.stderr).toBe(0);
    const rows = shown.stdout
      .split('\n')
      .filter((l) => /^\d+\t/.test(l))
      .map((l) => l.split('\t'));
    expect(rows.map((r) => r[1])).toEqual(actors.results.map((a: { name: string }) => a.name));
    const fury = actors.results.find((a: { name: string }) => a.name === 'Fury');
    rows.forEach((row, i) => {
      const mean = actors.results[i].mean as number;
      expect(row[4]).toBe(
        row[1] === 'Fury'
          ? ''
          : `${mean > fury.mean ? '+' : '−'}${((Math.abs(mean - fury.mean) / fury.mean) * 100).toFixed(2)}%`,
      );
    });
  });

  it('headlines the group total when the profile asks for profileset_metric=raid_dps', async () => {
    const id = await finished('warrior="Fury"\nspec=fury\ncopy=Fury_Alt\nprofileset_metric=raid_dps,dps\n');
    const summary = JSON.parse((await simjob(['result', id, '--json'], { env })).stdout).result.summary;
    expect(summary.metric).toBe('raid_dps');
    const total = summary.actors.results.reduce((n: number, a: { mean: number }) => n + a.mean, 0);
    expect(summary.mainActor.mean).toBeCloseTo(total, 1);
    const shown = await simjob(['result', id], { env });
    expect(shown.stdout).toMatch(/Actor +Fury +[\d,.]+ raid dps \(group total\) ±/);
  });
});
