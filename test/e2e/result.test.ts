import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { simjob } from '../helpers/cli-in-process.js';
import { profileFile, userEnv } from './wait-helpers.js';

let server: TestServer;
let env: Record<string, string>;
let profile: string;

beforeAll(async () => {
  server = await startServer({ queueMs: 50, runMs: 300, concurrency: 8 });
  env = userEnv(server);
  profile = profileFile('Fury', 0);
});
afterAll(async () => {
  await server.close();
});

async function finished(args: string[]): Promise<string> {
  const r = await simjob(['submit', profile, '--channel', 'nightly', '--json', ...args], { env });
  expect(r.exitCode, r.stderr).toBe(0);
  const id = JSON.parse(r.stdout).id as string;
  await server.waitForJob(id);
  return id;
}

/** The ranked rows of the piped (TSV) table: [rank, name, dps, error, Δ, Δ%, stage]. */
function rows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((l) => /^\d+\t/.test(l))
    .map((l) => l.split('\t'));
}
const dps = (cell: string) => Number(cell.replace(/,/g, ''));

describe('result of a job with 1,000 profilesets', () => {
  let id: string;
  beforeAll(async () => {
    id = await finished(['--meta', 'test.profilesets=1000']);
  });

  it('shows the top 20 of the summary and says the summary holds the top 200 of 1000', async () => {
    const run = await simjob(['result', id], { env });
    expect(run.exitCode).toBe(0);
    const table = rows(run.stdout);
    expect(table).toHaveLength(20);
    expect(table.map((r) => r[0])).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    expect(run.stderr).toContain(
      'The summary holds the top 200 of 1,000 profilesets (showing 20; --top N for more); --all reads every one from the JSON report.',
    );
    const top200 = rows((await simjob(['result', id, '--top', '200'], { env })).stdout);
    expect(top200).toHaveLength(200);
  });

  it('status --wait --top N shows the best N once the job has ended', async () => {
    const run = await simjob(['status', id, '--wait', '--top', '5'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(rows(run.stdout).map((r) => r[0])).toEqual(['1', '2', '3', '4', '5']);
  });

  it('--all reads every profileset from the JSON report artifact, ranked, without the API key', async () => {
    const before = server.artifactRequests.length;
    const run = await simjob(['result', id, '--all'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    const table = rows(run.stdout);
    expect(table).toHaveLength(1000);
    expect(new Set(table.map((r) => r[1])).size).toBe(1000);
    const means = table.map((r) => dps(r[2]!));
    expect(means).toEqual([...means].sort((a, b) => b - a));
    expect(run.stderr).toContain('All 1,000 profilesets, read from the JSON report.');
    // the first 200 are the summary's, in the same order with the same figures
    const summary = JSON.parse((await simjob(['result', id, '--json'], { env })).stdout).result.summary.mainActor
      .profilesets.results as Array<{ name: string; mean: number }>;
    expect(table.slice(0, 200).map((r) => r[1])).toEqual(summary.map((p) => p.name));
    const fetched = server.artifactRequests.slice(before);
    expect(fetched.some((r) => r.path.endsWith('.json') && r.status === 200)).toBe(true);
    for (const r of fetched) expect(r.headers.authorization).toBeUndefined();
  });

  it('--json prints the resource only; --all with --json is refused with the way to get every profileset', async () => {
    const run = await simjob(['result', id, '--json'], { env });
    const body = JSON.parse(run.stdout);
    expect(body.result.summary.mainActor.profilesets.count).toBe(1000);
    expect(body.result.summary.mainActor.profilesets.results).toHaveLength(200);
    expect(run.stderr).toBe('');
    const both = await simjob(['result', id, '--json', '--all'], { env });
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain(`simjob artifacts ${id} --download --kind json_report`);
  });
});

describe('result views', () => {
  it('--all of a multistage job takes each profileset from the last stage it reached', async () => {
    const id = await finished(['--multistage', '--meta', 'test.profilesets=300']);
    const run = await simjob(['result', id, '--all'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    const table = rows(run.stdout);
    expect(table).toHaveLength(300);
    const truth = new Map([...server.jobs.get(id)!.result!.allProfilesets].map((p) => [p.name, p]));
    for (const r of table) {
      expect(r[6]).toBe(String(truth.get(r[1]!)!.stage));
      expect(Math.abs(dps(r[2]!) - truth.get(r[1]!)!.mean)).toBeLessThanOrEqual(0.05 + 1e-9);
    }
    expect(run.stdout).toMatch(/Multistage +300 initial \(180 culled\) → 120 intermediate \(60 culled\) → 60 final\n/);
  });

  it('a v3 JSON report is read as well', async () => {
    const id = await finished(['--json-version', '3', '--meta', 'test.profilesets=250']);
    const run = await simjob(['result', id, '--all'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(rows(run.stdout)).toHaveLength(250);
  });

  it('the headline: actor, DPS ± error, build, times, credits with the priority fee; share link and artifacts', async () => {
    const id = await finished(['--priority', 'high', '--html']);
    const run = await simjob(['result', id], { env });
    expect(run.stdout).toMatch(/Actor +Fury +[\d,]+\.\d dps ± [\d,]+\.\d \(\d\.\d\d%\)\n/);
    expect(run.stdout).toMatch(/Build +nightly @ [0-9a-f]{10}\n/);
    expect(run.stdout).toMatch(/Sim time +[\d.]+ s\nTotal time +[\d.]+ s\n/);
    expect(run.stdout).toMatch(/Credits +\d+ \(incl\. \d+ priority fee\)\n/);
    expect(run.stdout).toMatch(
      /Artifacts +json_report, html_report, input, stdout_log, stderr_log\nHTML report +http:\/\/\S+report\.html\nShare +http:\/\/\S+\/share\//,
    );
  });

  it('a queue timeout: cancelled, queue_timeout, safe to resubmit, exit 3', async () => {
    const r = await simjob(
      ['submit', profile, '--channel', 'nightly', '--max-queue', '1', '--meta', 'test.queueMs=5000', '--wait'],
      { env },
    );
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/Status +cancelled\n/);
    expect(r.stdout).toContain(
      'queue_timeout: Waited in the queue longer than 1 s; the job never started.\nThe job never started, so nothing was billed: it is safe to resubmit',
    );
  });
});
