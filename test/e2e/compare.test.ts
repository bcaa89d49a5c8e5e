import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { simjob } from '../helpers/cli-in-process.js';
import { tempDir } from '../helpers/temp.js';
import { validateJunit } from '../helpers/junit.js';
import { profileFile, submitFinished, userEnv } from './wait-helpers.js';

let server: TestServer;
let env: Record<string, string>;
let profile: string;

beforeAll(async () => {
  server = await startServer({ queueMs: 50, runMs: 200, concurrency: 8 });
  env = userEnv(server);
  profile = profileFile('Fury', 5);
});
afterAll(async () => {
  await server.close();
});

const finished = (args: string[] = []): Promise<string> => submitFinished(server, env, profile, args, simjob);

interface Row {
  name: string;
  kind: string;
  a: { mean: number; mean_error: number } | null;
  b: { mean: number; mean_error: number } | null;
  delta?: number;
  combinedError?: number;
  significant?: boolean;
}

describe('compare', () => {
  it('the actors and every profileset side by side, with Δ, the combined 95% error and significance', async () => {
    const [a, b] = [await finished(), await finished()];
    const run = await simjob(['compare', a, b, '--json'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout) as { a: { id: string }; b: { id: string }; test: string; rows: Row[] };
    expect([body.a.id, body.b.id]).toEqual([a, b]);
    expect(body.test).toContain('√(eA² + eB²)');
    const resultA = JSON.parse((await simjob(['result', a, '--json'], { env })).stdout).result.summary.mainActor;
    const resultB = JSON.parse((await simjob(['result', b, '--json'], { env })).stdout).result.summary.mainActor;
    expect(body.rows[0]).toMatchObject({
      name: 'Fury',
      kind: 'actor',
      a: { mean: resultA.mean },
      b: { mean: resultB.mean },
    });
    expect(
      body.rows
        .filter((r) => r.kind === 'profileset')
        .map((r) => r.name)
        .sort(),
    ).toEqual(['set_0', 'set_1', 'set_2', 'set_3', 'set_4']);
    for (const row of body.rows) {
      const combined = Math.sqrt(row.a!.mean_error ** 2 + row.b!.mean_error ** 2);
      expect(row.delta).toBeCloseTo(row.b!.mean - row.a!.mean, 6);
      expect(row.combinedError).toBeCloseTo(combined, 6);
      expect(row.significant).toBe(Math.abs(row.delta!) > combined);
    }

    const human = await simjob(['compare', a, b], { env });
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^A +${a} +nightly @ [0-9a-f]{10}\\nB +${b} +nightly @`));
    expect(human.stdout).toContain('Name\tA\t± A\tB\t± B\tΔ\tΔ %\t± Δ\tSignificant\n');
    expect(human.stdout).toMatch(
      /\nFury \(actor\)\t[\d,.]+\t[\d,.]+\t[\d,.]+\t[\d,.]+\t[+−]?[\d,.]+\t[+−]?[\d,.]+%\t[\d,.]+\t(yes|no)\n/,
    );
    expect(human.stderr).toMatch(/\d of 6 differences are significant\. Δ = B − A\. ±Δ = √\(eA² \+ eB²\)/);
  });

  it('a job compared with itself differs by nothing, significantly nowhere', async () => {
    const a = await finished();
    const body = JSON.parse((await simjob(['compare', a, a, '--json'], { env })).stdout) as { rows: Row[] };
    expect(body.rows.every((r) => r.delta === 0 && r.significant === false)).toBe(true);
  });

  it('a job without DPS cannot be compared: exit 3, saying why', async () => {
    const ok = await finished();
    const failed = await finished(['--meta', 'test.outcome=failed']);
    const run = await simjob(['compare', ok, failed], { env });
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toBe(
      `Error: Job ${failed} has no DPS to compare: it ended failed (execution_failed). See it with: simjob result ${failed}\n`,
    );
  });

  it('a job id without a result (cancelled while queued) against a saved file: exit 3, one line saying why', async () => {
    const dir = tempDir('simjob-compare-');
    const ok = join(dir, 'ok.json');
    writeFileSync(ok, (await simjob(['result', await finished(), '--json'], { env })).stdout);
    const queued = await simjob(['submit', profile, '--channel', 'nightly', '--meta', 'test.queueMs=60000', '--json'], {
      env,
    });
    const id = JSON.parse(queued.stdout).id as string;
    expect((await simjob(['cancel', id], { env })).exitCode).toBe(0);
    for (const args of [
      [id, ok],
      [ok, id, '--json'],
    ]) {
      const run = await simjob(['compare', ...args], { env });
      expect(run.exitCode).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `Error: Job ${id} has no DPS to compare: it ended cancelled (user_cancelled). See it with: simjob result ${id}\n`,
      );
    }
  });

  it('saved files: a job saved without a result (its job record, as a batch saves one) is listed as no DPS, offline, exit 0', async () => {
    const dir = tempDir('simjob-compare-');
    const ok = join(dir, 'ok.json');
    writeFileSync(ok, (await simjob(['result', await finished(), '--json'], { env })).stdout);
    const failed = await finished(['--meta', 'test.outcome=failed']);
    const { result: _, ...record } = JSON.parse((await simjob(['result', failed, '--json'], { env })).stdout) as {
      result: unknown;
    };
    const saved = join(dir, 'failed.json');
    writeFileSync(saved, JSON.stringify([record]));
    const run = await simjob(['compare', ok, saved], { env: { PATH: process.env.PATH! } });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(`(job ${failed}): no DPS: it ended failed (execution_failed).`);
  });

  it('a regression gate does not pass a failed job: exit 3, unless --allow-failed', async () => {
    const dir = tempDir('simjob-compare-');
    const ok = join(dir, 'ok.json');
    writeFileSync(ok, (await simjob(['result', await finished(), '--json'], { env })).stdout);
    const failed = await finished(['--meta', 'test.outcome=failed']);
    const saved = join(dir, 'failed.json');
    writeFileSync(saved, (await simjob(['result', failed, '--json'], { env })).stdout);
    const offline = { PATH: process.env.PATH! };
    const junit = join(dir, 'gate.xml');

    const gate = await simjob(['compare', ok, saved, '--fail-on-regression', '1', '--report', `junit=${junit}`], {
      env: offline,
    });
    expect(gate.exitCode, gate.stderr).toBe(3);
    expect(gate.stderr).toContain('1 result with no DPS to compare, so --fail-on-regression cannot pass');
    expect(gate.stderr).toContain('(--allow-failed lets them through):\n');
    expect(gate.stderr).toContain(`  job ${failed}: no DPS: it ended failed (execution_failed)\n`);
    expect(await validateJunit(junit)).toMatchObject({ tests: 1, failures: 1, skipped: 0 });
    const json = await simjob(['compare', ok, saved, '--fail-on-regression', '1', '--json'], { env: offline });
    expect(json.exitCode).toBe(3);
    const { notJudged } = JSON.parse(json.stdout) as { notJudged: Array<{ id: string }> };
    expect(notJudged.map((u) => u.id)).toEqual([failed]);

    const allowed = await simjob(
      ['compare', ok, saved, '--fail-on-regression', '1', '--allow-failed', '--report', `junit=${junit}`],
      { env: offline },
    );
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain(`(job ${failed}): no DPS: it ended failed (execution_failed).`);
    expect(await validateJunit(junit)).toMatchObject({ tests: 1, failures: 0, skipped: 1 });

    const alone = await simjob(['compare', ok, saved, '--allow-failed'], { env: offline });
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toBe(
      'Error: --allow-failed lets a result without DPS pass --fail-on-regression; it needs that flag.' +
        ' Add --fail-on-regression PCT, or drop --allow-failed.\n',
    );
  });
});
