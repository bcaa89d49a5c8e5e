/**
 * `simjob report` as a command (the pages themselves are looked at in chromium by report-browser.test.ts): its
 * inputs (job ids, saved results, a batch on stdin, saved submissions), where it writes, --json, --open, exit codes
 * and one-line errors. Numbers come from the test server and the stand-in simc: synthetic.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simjob } from '../helpers/cli-in-process.js';
import { startServer, type TestServer } from '../server/index.js';
import {
  cleanUp,
  localEnv,
  profileFile as localProfile,
  quickProfile,
  run,
  submitLocal,
  waitForStatus,
} from './local-helpers.js';
import { profileFile, submitFinished, userEnv } from './wait-helpers.js';

let server: TestServer;
let env: Record<string, string>;
let dir: string;
let profile: string;

beforeAll(async () => {
  server = await startServer({ queueMs: 20, runMs: 100, concurrency: 8 });
  env = userEnv(server);
  dir = mkdtempSync(join(tmpdir(), 'simjob-report-'));
  profile = profileFile('Fury', 6, dir);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const finished = (args: string[] = []): Promise<string> => submitFinished(server, env, profile, args, simjob);

/** The rows of the page's profileset table (one <tr> per line). */
const tableRows = (html: string) =>
  (html.split('<table class="sortable sets">')[1] ?? '')
    .split('</tbody>')[0]!
    .split('\n')
    .filter((l) => l.startsWith('<tr'));

describe('simjob report', () => {
  it('writes simjob-report-<id>.html in the current folder for a job id, and says where and how big', async () => {
    const id = await finished();
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    const r = await simjob(['report', id], { env, cwd });
    expect(r.exitCode, r.stderr).toBe(0);
    const path = join(cwd, `simjob-report-${id}.html`);
    expect(r.stdout).toMatch(
      new RegExp(`^Wrote ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ KB\\): 1 job, 6 profilesets\\.\\n$`),
    );
    const html = readFileSync(path, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(tableRows(html)).toHaveLength(7);
    // Self-contained: nothing is loaded from anywhere, and the policy allows nothing to be.
    expect(html).not.toMatch(/<link|<img|@import|url\((?!#)|src=/);
    expect(html).toContain("default-src 'none'");
    const quiet = await simjob(['report', id, '--quiet', '-o', join(cwd, 'q.html')], { env });
    expect(quiet.stdout).toBe(`${join(cwd, 'q.html')}\n`);
  });

  it('--json prints where it wrote, the size and the jobs', async () => {
    const id = await finished();
    const out = join(dir, 'json.html');
    const r = await simjob(['report', id, '-o', out, '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ path: out, bytes: readFileSync(out).length, jobs: [id], opened: false });
  });

  it("a saved result of a job with 1,000 profilesets shows the summary's 200 and says how to get every one; the job id reads them all", async () => {
    const id = await finished(['--meta', 'test.profilesets=1000']);
    const saved = join(dir, 'thousand.json');
    writeFileSync(saved, (await simjob(['result', id, '--json'], { env })).stdout);
    const fromFile = await simjob(['report', saved, '-o', join(dir, 'saved.html')], {
      env: { PATH: process.env.PATH! },
    });
    expect(fromFile.exitCode, fromFile.stderr).toBe(0);
    const html = readFileSync(join(dir, 'saved.html'), 'utf8');
    expect(tableRows(html)).toHaveLength(201);
    expect(html).toContain(
      `The job's summary lists the top 200 of its 1,000 profilesets; <code>simjob report ${id}</code> reads every one`,
    );
    expect(html).toContain('from file ');
    const fromId = await simjob(['report', id, '-o', join(dir, 'all.html')], { env });
    expect(fromId.stdout).toContain('1 job, 1,000 profilesets.');
    expect(tableRows(readFileSync(join(dir, 'all.html'), 'utf8'))).toHaveLength(1001);
  });

  it('reads a batch on stdin (submit --wait --json) as a comparison, Δ against the first job', async () => {
    const other = profileFile('Arms', 3, mkdtempSync(join(dir, 'arms-')));
    const batch = await simjob(['submit', profile, other, '--channel', 'nightly', '--wait', '--json'], {
      env,
      timeoutMs: 30_000,
    });
    expect(batch.exitCode, batch.stderr).toBe(0);
    const out = join(dir, 'batch.html');
    const r = await simjob(['report', '-', '-o', out], { env: { PATH: process.env.PATH! }, input: batch.stdout });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('2 jobs, 9 profilesets.');
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<h1>Comparison of 2 jobs</h1>');
    expect(html).toContain('Main actor DPS of 2 jobs, Δ against the first');
    expect(html.match(/<section id="job-\d"/g)).toHaveLength(2);
    // Both profiles name their profilesets set_0, set_1, …: the three they share are compared across the jobs.
    const across = html.split('<table class="sortable across">')[1]!.split('</table>')[0]!;
    expect(
      across
        .split('\n')
        .filter((l) => l.startsWith('<tr>'))
        .map((l) => /<td class="text">([^<]+)<\/td>/.exec(l)![1])
        .sort(),
    ).toEqual(['set_0', 'set_1', 'set_2']);
  });

  it('a saved submission (submit --json, no --wait) is fetched by its id', async () => {
    const submitted = await simjob(['submit', profile, '--channel', 'nightly', '--json'], { env });
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const id = JSON.parse(submitted.stdout).id as string;
    await server.waitForJob(id);
    const saved = join(dir, 'submitted.json');
    writeFileSync(saved, submitted.stdout);
    const out = join(dir, 'submitted.html');
    const r = await simjob(['report', saved, '-o', out], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 job, 6 profilesets.');
    expect(readFileSync(out, 'utf8')).toContain('from the service');
  });

  it('a failed job: the page says what went wrong, and the exit code is 3 as for simjob result', async () => {
    const id = await finished(['--meta', 'test.outcome=simulation_error']);
    const out = join(dir, 'failed.html');
    const r = await simjob(['report', id, '-o', out], { env });
    expect(r.exitCode).toBe(3);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<p class="outcome"><strong>simulation_error</strong>');
    expect(html).toContain('simc rejected the profile');
  });

  describe('jobs that ended without a result (the service answers its result with 422 result_unavailable)', () => {
    const outcome = (file: string) => /<p class="outcome">(.*?)<\/p>/.exec(readFileSync(file, 'utf8'))?.[1];

    it('a saved one (its job record) is shown as saved, with no network: what went wrong, exit 3; so in a saved batch', async () => {
      const waited = (args: string[]) =>
        simjob(['submit', profile, '--channel', 'nightly', '--wait', '--json', ...args], { env, timeoutMs: 30_000 });
      const [failed, ok] = await Promise.all([waited(['--meta', 'test.outcome=execution_failed']), waited([])]);
      expect(failed.exitCode, failed.stderr).toBe(3);
      const saved = join(dir, 'no-result.json');
      writeFileSync(saved, failed.stdout);
      // No base URL, no key: a request would be a usage error (exit 2), not a page.
      const offline = { PATH: process.env.PATH! };
      const out = join(dir, 'no-result.html');
      const r = await simjob(['report', saved, '-o', out], { env: offline });
      expect(r.exitCode, r.stderr).toBe(3);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('1 job, 0 profilesets.');
      expect(outcome(out)).toBe(
        '<strong>execution_failed</strong>: The job failed before producing any output.<br>simc crashed or exited abnormally; check the stderr_log artifact. Resubmitting may help.',
      );
      expect(readFileSync(out, 'utf8')).toContain('from file ');

      const batch = join(dir, 'mixed.json');
      writeFileSync(batch, JSON.stringify([JSON.parse(ok.stdout), JSON.parse(failed.stdout)]));
      const both = await simjob(['report', batch, '-o', join(dir, 'mixed.html')], { env: offline });
      expect(both.exitCode, both.stderr).toBe(3);
      expect(both.stdout).toContain('2 jobs, 6 profilesets.');
    });

    it('by its id: a job cancelled while queued, and a queue timeout', async () => {
      const cancelled = (
        await simjob(['submit', profile, '--channel', 'nightly', '--meta', 'test.queueMs=60000', '--json'], { env })
      ).stdout;
      const cancelledId = JSON.parse(cancelled).id as string;
      expect((await simjob(['cancel', cancelledId], { env })).exitCode).toBe(0);
      const timedOutId = await finished(['--max-queue', '1', '--meta', 'test.queueMs=5000']);
      for (const [id, code] of [
        [cancelledId, 'user_cancelled'],
        [timedOutId, 'queue_timeout'],
      ]) {
        const out = join(dir, `${code}.html`);
        const r = await simjob(['report', id!, '-o', out], { env });
        expect(r.exitCode, r.stderr).toBe(3);
        expect(r.stderr).toBe('');
        expect(outcome(out)).toMatch(new RegExp(`^<strong>${code}</strong>: `));
      }
    });
  });

  it('--open starts $BROWSER with the file, detached; without a browser it says where the file is and still exits 0', async () => {
    const id = await finished();
    const seen = join(dir, 'browser-args');
    const fake = join(dir, 'fake-browser');
    writeFileSync(fake, `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`);
    chmodSync(fake, 0o755);
    const out = join(dir, 'open.html');
    const opened = await simjob(['report', id, '-o', out, '--open'], { env: { ...env, BROWSER: fake } });
    expect(opened.exitCode, opened.stderr).toBe(0);
    expect(opened.stderr).toContain('Opened it in the browser.');
    for (let i = 0; i < 50 && !existsSync(seen); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(seen, 'utf8')).toBe(out);

    const none = await simjob(['report', id, '-o', out, '--open'], {
      env: { ...env, DISPLAY: '', WAYLAND_DISPLAY: '' },
    });
    expect(none.exitCode).toBe(0);
    expect(none.stderr).toBe(
      `Not opened: there is no display (DISPLAY and WAYLAND_DISPLAY are unset). Open ${out} in a browser.\n`,
    );
    const broken = await simjob(['report', id, '-o', out, '--open'], {
      env: { ...env, BROWSER: 'no-such-browser-here' },
    });
    expect(broken.exitCode).toBe(0);
    expect(broken.stderr).toContain('Not opened: $BROWSER (no-such-browser-here) is not a command here.');
  });

  it('refuses bad inputs with one line each and exit 2', async () => {
    const cases: Array<[string[], string, RegExp]> = [];
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, 'hello');
    const notResult = join(dir, 'other.json');
    writeFileSync(notResult, '{"jobs": []}');
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '[]');
    cases.push([
      ['missing.json'],
      '',
      /^Error: missing\.json does not exist\. Save a result with: simjob result <id> --json > result\.json/,
    ]);
    cases.push([[notJson], '', /^Error: .*not\.json is not JSON: /]);
    cases.push([
      [notResult],
      '',
      /^Error: .*other\.json is not a job result \(the resource of simjob result <id> --json\)\./,
    ]);
    cases.push([[empty], '', /^Error: .*empty\.json holds an empty list: no results to read\./]);
    cases.push([['-', '-'], '', /^Error: Only one input can come from stdin \("-"\)\.\n/]);
    cases.push([[notJson, '-o', join(dir, 'no', 'such', 'dir', 'x.html')], '', /^Error: .*not\.json is not JSON/]);
    cases.push([['report-me.json', '--top', '0'], '', /^Error: --top/]);
    for (const [args, input, message] of cases) {
      const r = await simjob(['report', ...args], { env: { PATH: process.env.PATH! }, input });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stdout).toBe('');
    }
    const id = await finished();
    const r = await simjob(['report', id, '-o', join(dir, 'no', 'such', 'dir', 'x.html')], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^Error: Cannot write the report to .*x\.html: its folder does not exist\. Choose another file with -o <file\.html>\.\n$/,
    );
  });
});

describe('simjob report of a local job (stand-in simc)', () => {
  const local = localEnv();
  afterAll(() => cleanUp(local));

  it('reads the job through the local backend, multistage funnel and all', async () => {
    const lines = ['iterations=200'];
    for (let i = 0; i < 8; i++) lines.push(`profileset."set_${i}"+=trinket1=,id=${200_000 + i}`);
    const path = localProfile(local, 'local.simc', quickProfile('Local', lines));
    const id = await submitLocal(local, path, ['--multistage']);
    await waitForStatus(local, id, 'completed', 30_000);
    const out = join(dir, 'local.html');
    const r = await run(local, ['report', id, '-o', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('from a local job');
    expect(tableRows(html)).toHaveLength(9);
    expect(html).toContain('<svg class="chart funnel"');
  });
});
