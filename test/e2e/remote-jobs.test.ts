import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs, simjob } from '../helpers/cli-in-process.js';
import { tempDir } from '../helpers/temp.js';

let server: TestServer;
let env: Record<string, string>;
const work = tempDir('simjob-jobs-');
const profile = join(work, 'fury.simc');
writeFileSync(profile, 'warrior="Fury"\nspec=fury\nlevel=90\nprofileset."a"=talents=A\nprofileset."b"=talents=B\n');

beforeAll(async () => {
  server = await startServer({
    queueMs: 50,
    runMs: 300,
    apiKeys: ['sk_test_good', { key: 'sk_hooks', webhook: { secret: 'whsec' } }],
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  env = { ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' };
  server.clearFaults();
});

const lastSubmit = () => [...server.requests].reverse().find((r) => r.method === 'POST' && r.path === '/v1/sim/jobs')!;

async function submitted(args: string[] = []): Promise<string> {
  const result = await simjob(['submit', profile, '--channel', 'nightly', '--json', ...args], { env });
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout).id as string;
}

describe('submit', () => {
  it('sends every field of spec 2.1 from its flags, validated against openapi 1.19.1', async () => {
    const result = await simjob(
      [
        'submit',
        profile,
        '--channel',
        'weekly',
        '--branch',
        'midnight',
        '--multistage',
        '--max-runtime',
        '600',
        '--max-queue',
        '120',
        '--priority',
        'background',
        '--meta',
        'run=42',
        '--meta',
        'who=ci',
        '--webhook',
        '--html',
        '--csv',
        '--json-version',
        '3',
        '--idempotency-key',
        'nightly-42-fury',
      ],
      {
        env: {
          ...env,
          SIMJOB_API_KEY: 'sk_hooks',
          SIMJOB_PROVIDER_CLIENT_ID: 'cid',
          SIMJOB_PROVIDER_CLIENT_SECRET: 'csecret',
        },
      },
    );
    expect(result.exitCode).toBe(0);
    const req = lastSubmit();
    expect(req.validation.valid).toBe(true);
    expect(req.headers['idempotency-key']).toBe('nightly-42-fury');
    expect(req.headers['user-agent']).toMatch(/^simjob\/\d+\.\d+\.\d+ node\//);
    expect(req.body).toEqual({
      build: { channel: 'weekly', gitBranch: 'midnight' },
      profile: { text: readFileSync(profile, 'utf8') },
      runtime: { multiStage: true, maxRuntimeSeconds: 600, maxQueueSeconds: 120 },
      priority: 'background',
      metadata: { run: '42', who: 'ci' },
      credentials: { providerClientId: 'cid', providerClientSecret: 'csecret' },
      webhook: { events: ['job.terminal'] },
      artifacts: { html: true, csv: true, json: { version: '3' } },
    });
    expect(result.stdout).toMatch(/^Submitted job \d{18} \(weekly, background\) from /);
    expect(result.stdout).toMatch(/Share: http/);
    expect(result.stdout + result.stderr).not.toContain('csecret');
  });

  it('--plain sends text/plain with the query parameters and headers of 2.1', async () => {
    const result = await simjob(['submit', profile, '--channel', 'latest', '--plain', '--multistage', '--html'], {
      env: { ...env, SIMJOB_PROVIDER_CLIENT_ID: 'cid', SIMJOB_PROVIDER_CLIENT_SECRET: 'csecret' },
    });
    expect(result.exitCode).toBe(0);
    const req = lastSubmit();
    expect(req.contentType).toMatch(/^text\/plain/);
    expect(req.query).toEqual({ channel: 'latest', multiStage: 'true', artifactsHtml: 'true' });
    expect(req.headers['x-provider-client-id']).toBe('cid');
    expect(req.headers['x-provider-client-secret']).toBe('csecret');
    expect(req.body).toBe(readFileSync(profile, 'utf8'));
    expect(req.validation.valid).toBe(true);
  });

  it('a profile from stdin', async () => {
    const result = await simjob(['submit', '-', '--channel', 'nightly', '--json'], { env, input: 'mage="Stdin"\n' });
    expect(result.exitCode).toBe(0);
    expect((lastSubmit().body as { profile: { text: string } }).profile.text).toBe('mage="Stdin"\n');
  });

  it('an idempotent replay says so; a reused key with another payload names the original job', async () => {
    const first = await simjob(['submit', profile, '--channel', 'nightly', '--idempotency-key', 'k-replay'], { env });
    const id = /Submitted job (\d{18})/.exec(first.stdout)?.[1];
    expect(id).toBeDefined();
    const again = await simjob(
      ['submit', profile, '--channel', 'nightly', '--idempotency-key', 'k-replay', '--meta', 'retry=1'],
      { env },
    );
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain(
      `Job ${id} was already submitted with idempotency key k-replay; this is that job (replay, nothing new was created).`,
    );
    const conflict = await simjob(['submit', profile, '--channel', 'weekly', '--idempotency-key', 'k-replay'], { env });
    expect(conflict.exitCode).toBe(1);
    expect(conflict.stderr).toContain(
      `already used for job ${id} with a different payload (idempotency_key_reuse). Run \`simjob status ${id}\``,
    );
    expect(conflict.stderr).toMatch(/Request ID: req_[0-9a-f]{32}/);
  });

  it('a submission is retried only with its idempotency key, and never makes a second job', async () => {
    server.inject({ method: 'POST', path: '/v1/sim/jobs', status: 503, retryAfter: 1, times: 1 });
    server.inject({ method: 'POST', path: '/v1/sim/jobs', status: 500, times: 1 });
    const before = server.jobs.size;
    const result = await simjob(['submit', profile, '--channel', 'nightly', '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/The service is unavailable \(queue_unavailable\); retrying in 1 s/);
    const posts = server.requests.slice(-3).filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(server.jobs.size).toBe(before + 1);
  });

  it('when every attempt fails, the error gives the key to recover the job without a duplicate', async () => {
    const outage = server.inject({ method: 'POST', path: '/v1/sim/jobs', status: 502, times: Infinity });
    const result = await simjob(['submit', profile, '--channel', 'nightly'], {
      env: { ...env, SIMJOB_RETRY_BUDGET: '1s' },
    });
    outage.remaining = 0;
    expect(result.exitCode).toBe(1);
    expect(outage.hits).toBeGreaterThan(1);
    const key = /--idempotency-key (simjob-[0-9a-f-]+)/.exec(result.stderr)?.[1];
    expect(key).toBeDefined();
    const recovered = await simjob(['submit', profile, '--channel', 'nightly', '--idempotency-key', key!, '--json'], {
      env,
    });
    expect(recovered.exitCode).toBe(0);
  });

  it('--dry-run validates and prints the request without sending it', async () => {
    const count = server.requests.length;
    const result = await simjob(['submit', profile, '--channel', 'nightly', '--multistage', '--dry-run', '--json'], {
      env: { ...env, SIMJOB_PROVIDER_CLIENT_ID: 'a', SIMJOB_PROVIDER_CLIENT_SECRET: 'topsecret' },
    });
    expect(result.exitCode).toBe(0);
    expect(server.requests.length).toBe(count);
    const shown = JSON.parse(result.stdout);
    expect(shown.body.build).toEqual({ channel: 'nightly' });
    expect(shown.body.credentials).toEqual({ providerClientId: '[REDACTED]', providerClientSecret: '[REDACTED]' });
    expect(shown.expected.multiStage.reason).toBe('below_min_candidates');
    expect(result.stdout).not.toContain('topsecret');
  });

  it('checks limits against the account before sending, naming the limit', async () => {
    const maxRuntime = server.account().limits.maxRuntimeSeconds;
    const result = await simjob(['submit', profile, '--channel', 'nightly', '--max-runtime', String(maxRuntime + 1)], {
      env,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `Error: --max-runtime ${maxRuntime + 1} is above the account limit plan.maxRuntimeSeconds = ${maxRuntime}. Use --max-runtime ${maxRuntime} or less.\n`,
    );
    const maxQueue = server.account().limits.maxQueueSeconds;
    const queue = await simjob(['submit', profile, '--channel', 'nightly', '--max-queue', String(maxQueue + 1)], {
      env,
    });
    expect(queue.exitCode).toBe(2);
    expect(queue.stderr).toBe(
      `Error: --max-queue ${maxQueue + 1} is above the account limit plan.maxQueueSeconds = ${maxQueue}. Use --max-queue ${maxQueue} or less.\n`,
    );
    const credits = await simjob(
      ['submit', profile, '--channel', 'nightly', '--max-credits', String(maxRuntime * 32 + 1)],
      { env },
    );
    expect(credits.exitCode).toBe(2);
    expect(credits.stderr).toBe(
      `Error: --max-credits ${maxRuntime * 32 + 1} is above the account limit plan.maxCreditsPerJob = ${maxRuntime * 32}. Use --max-credits ${maxRuntime * 32} or less.\n`,
    );
    expect(lastSubmit()?.body).not.toMatchObject({ runtime: { maxRuntimeSeconds: maxRuntime + 1 } });
  });

  it('bad input fails before any request with exit 2', async () => {
    const count = server.requests.length;
    const cases: Array<[string[], RegExp, Record<string, string>?]> = [
      [['submit', join(work, 'missing.simc'), '--channel', 'nightly'], /does not exist/],
      [['submit', profile, '--channel', 'daily'], /--channel must be one of nightly, weekly, latest/],
      [['submit', profile, '--channel', 'nightly', '--max-queue', '0'], /--max-queue must be a positive whole number/],
      [
        ['submit', profile, '--channel', 'nightly', '--max-queue', '1.5'],
        /--max-queue must be a positive whole number/,
      ],
      [
        ['submit', profile, '--channel', 'nightly', '--priority', 'urgent'],
        /--priority must be one of background, standard, high \(got "urgent"\)/,
      ],
      [
        ['submit', profile, '--channel', 'nightly', '--json-version', '4'],
        /--json-version must be one of 2, 3 \(got "4"\)/,
      ],
      [['submit', profile, '--channel', 'nightly', '--meta', `k=${'x'.repeat(501)}`], /values may be at most 500/],
      [
        ['submit', profile, '--channel', 'nightly'],
        /SIMJOB_PROVIDER_CLIENT_SECRET is not set/,
        { SIMJOB_PROVIDER_CLIENT_ID: 'x' },
      ],
      [['submit', profile], /No build channel given/],
    ];
    for (const [args, pattern, extra] of cases) {
      const result = await simjob(args, { env: { ...env, ...extra } });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(pattern);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(server.requests.length).toBe(count);
  });

  it('webhook without a configured endpoint is explained (webhook_not_configured)', async () => {
    const result = await simjob(['submit', profile, '--channel', 'nightly', '--webhook'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('(webhook_not_configured). Set them up in the dashboard');
  });

  it('a high-priority job the account cannot pay for (insufficient_credits_liability)', async () => {
    const dirs = isolatedDirs();
    const poor = await startServer({ apiKeys: [{ key: 'sk_poor', limits: { credits: 10, priorityFeeCredits: 500 } }] });
    try {
      const result = await simjob(['submit', profile, '--channel', 'nightly', '--priority', 'high'], {
        env: { ...dirs, SIMJOB_BASE_URL: poor.url, SIMJOB_API_KEY: 'sk_poor' },
      });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/Not enough credits to reserve this job \(insufficient_credits(_liability)?\)/);
    } finally {
      await poor.close();
    }
  });
});

describe('status, result, cancel, jobs, usage, builds', () => {
  it('--json prints exactly the API resource, and the human views read it', async () => {
    const id = await submitted(['--meta', 'who=status']);
    const status = await simjob(['status', id, '--json'], { env });
    expect(status.exitCode).toBe(0);
    const record = JSON.parse(status.stdout);
    expect(record).toHaveProperty('status');
    expect(record).toHaveProperty('queue');
    const human = await simjob(['status', id], { env });
    expect(human.stdout).toMatch(new RegExp(`^Job +${id}\\nStatus +(pending|queued|starting|running|completed)`));

    const notReady = await simjob(['result', id], { env });
    if (notReady.exitCode !== 0) {
      expect(notReady.exitCode).toBe(1);
      expect(notReady.stderr).toMatch(/result is not ready \(result_not_ready\)/);
    }
    await server.waitForJob(id);
    const result = await simjob(['result', id, '--json'], { env });
    expect(result.exitCode).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body.id).toBe(id);
    expect(body.metadata).toEqual({ who: 'status' });
    expect(body.result.summary.mainActor.profilesets.count).toBe(2);
    const humanResult = await simjob(['result', id], { env });
    expect(humanResult.stdout).toMatch(/Actor +Fury +[\d,.]+ dps ± [\d,.]+/);
    expect(humanResult.stdout).toMatch(/#\tProfileset\tDPS/);
  });

  it('a failed job exits 3 with its errorCode and advice', async () => {
    const id = await submitted(['--meta', 'test.outcome=simulation_error']);
    await server.waitForJob(id);
    const result = await simjob(['result', id], { env });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/simulation_error: /);
    expect(result.stdout).toMatch(/fix the line named in the reason/);
  });

  it('a job that ended without a result (result_unavailable) is shown from its job record: what went wrong, exit 3', async () => {
    const id = await submitted(['--meta', 'test.outcome=execution_failed']);
    await server.waitForJob(id);
    const result = await simjob(['result', id], { env });
    expect(result.exitCode, result.stderr).toBe(3);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Status +failed\n/m);
    expect(result.stdout).toContain(
      'execution_failed: The job failed before producing any output.\nsimc crashed or exited abnormally',
    );
    const json = await simjob(['result', id, '--json'], { env });
    expect(json.exitCode).toBe(3);
    const record = JSON.parse(json.stdout);
    expect(record).toMatchObject({ id, status: 'failed', errorCode: 'execution_failed' });
    expect(record.result).toBeUndefined();
  });

  it("status without --wait reports an ended job's state and exits 0; with --wait its outcome decides: 3", async () => {
    const id = await submitted(['--meta', 'test.outcome=execution_failed']);
    await server.waitForJob(id);
    const status = await simjob(['status', id], { env });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/^Status +failed — execution_failed\n/m);
    const waited = await simjob(['status', id, '--wait'], { env });
    expect(waited.exitCode, waited.stderr).toBe(3);
  });

  it('cancel a queued job, then a second cancel of the ended job', async () => {
    const id = await submitted(['--meta', 'test.queueMs=60000']);
    const cancel = await simjob(['cancel', id], { env });
    expect(cancel.exitCode).toBe(0);
    expect(cancel.stdout).toBe(`Job ${id} cancelled.\n`);
    const running = await submitted(['--meta', 'test.runMs=60000', '--meta', 'test.queueMs=0']);
    await server.waitForJob(running, ['running']);
    const requested = await simjob(['cancel', running, '--json'], { env });
    expect(JSON.parse(requested.stdout).status).toBe('cancel_requested');
    const done = await submitted();
    await server.waitForJob(done);
    const refused = await simjob(['cancel', done], { env });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('has already ended (completed) and cannot be cancelled (job_not_cancellable)');
  });

  it('jobs pages through the list, newest first', async () => {
    const dirs = isolatedDirs();
    const own = { ...dirs, SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_hooks' };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await simjob(['submit', profile, '--channel', 'nightly', '--json'], { env: own });
      ids.push(JSON.parse(r.stdout).id);
    }
    const page = await simjob(['jobs', '--limit', '2', '--json'], { env: own });
    const body = JSON.parse(page.stdout);
    expect(body.jobs.map((j: { id: string }) => j.id)).toEqual(ids.slice().reverse().slice(0, 2));
    expect(body.page.hasMore).toBe(true);
    const human = await simjob(['jobs', '--limit', '2'], { env: own });
    expect(human.stderr).toMatch(/More jobs: simjob jobs --cursor \S+ --limit 2/);
    const all = await simjob(['jobs', '--limit', '2', '--all', '--json'], { env: own });
    expect(
      JSON.parse(all.stdout)
        .jobs.map((j: { id: string }) => j.id)
        .slice(0, 3),
    ).toEqual(ids.slice().reverse());
    const tooMany = await simjob(['jobs', '--limit', '101'], { env: own });
    expect(tooMany.exitCode).toBe(2);
    const badCursor = await simjob(['jobs', '--cursor', 'garbage'], { env: own });
    expect(badCursor.exitCode).toBe(2); // a bad flag value, as `jobs --local --cursor garbage`
    expect(badCursor.stderr).toBe(
      'Error: --cursor garbage is not a cursor of `simjob jobs` (invalid_cursor). Use the page.nextCursor of the previous page.\n',
    );
  });

  it('usage and builds', async () => {
    const usage = await simjob(['usage'], { env });
    expect(usage.stdout).toMatch(/Max runtime +\d/);
    expect(usage.stdout).toMatch(/High priority fee +\d+ credits/);
    const builds = await simjob(['builds', '--json'], { env });
    const list = JSON.parse(builds.stdout).builds as Array<{ id: string; channel: string }>;
    expect(list.map((b) => b.channel).sort()).toEqual(['latest', 'nightly', 'weekly']);
    const one = await simjob(['builds', list[0]!.id], { env });
    expect(one.stdout).toContain(list[0]!.id);
    const missing = await simjob(['builds', '00000000-0000-4000-8000-000000000000'], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/Not found/);
  });

  it('an unknown job id is a clear 404', async () => {
    const result = await simjob(['status', '999999999999999999'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^Error: Not found: GET \/v1\/sim\/jobs\/999999999999999999\/status/);
  });
});

describe('artifacts', () => {
  it('lists, downloads by kind or all (streamed), and never sends the API key to the artifact host', async () => {
    const id = await submitted(['--html', '--csv']);
    await server.waitForJob(id);
    const list = await simjob(['artifacts', id, '--json'], { env });
    const kinds = (JSON.parse(list.stdout) as Array<{ kind: string }>).map((a) => a.kind).sort();
    expect(kinds).toEqual(expect.arrayContaining(['csv_report', 'html_report', 'json_report']));

    const dir = tempDir('simjob-artifacts-');
    const one = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '-o', dir], { env });
    expect(one.exitCode).toBe(0);
    expect(readdirSync(dir)).toEqual(['json_report.json']);
    JSON.parse(readFileSync(join(dir, 'json_report.json'), 'utf8'));

    const allDir = join(dir, 'all');
    const all = await simjob(['artifacts', id, '--download', '-o', allDir], { env });
    expect(all.exitCode).toBe(0);
    expect(readdirSync(allDir).sort()).toEqual(
      expect.arrayContaining(['csv_report.csv', 'html_report.html', 'json_report.json', 'input.simc']),
    );
    for (const request of server.artifactRequests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(JSON.stringify(request.headers)).not.toContain('sk_test_good');
    }
  });

  it('a large artifact streams to disk', async () => {
    const id = await submitted(['--meta', `test.artifactBytes=${20 * 1024 * 1024}`]);
    await server.waitForJob(id);
    const dir = tempDir('simjob-big-');
    const result = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '-o', dir], { env });
    expect(result.exitCode).toBe(0);
    expect(statSync(join(dir, 'json_report.json')).size).toBe(20 * 1024 * 1024);
  });

  it('asks for a fresh URL when the artifact host refuses the stored one', async () => {
    const id = await submitted();
    await server.waitForJob(id);
    server.inject({ method: 'GET', path: /^\/(a|blob)\//, status: 403, times: 1, target: 'artifacts' });
    const dir = tempDir('simjob-fresh-');
    const before = server.requests.length;
    const result = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '-o', dir], { env });
    expect(result.exitCode).toBe(0);
    expect(server.requests.slice(before).some((r) => /^\/v1\/sim\/artifacts\/[^/]+\/url$/.test(r.path))).toBe(true);
    expect(readdirSync(dir)).toEqual(['json_report.json']);
  });

  it('explains artifact_expired', async () => {
    const id = await submitted();
    await server.waitForJob(id);
    server.inject({ method: 'GET', path: /^\/(a|blob)\//, status: 404, times: 1, target: 'artifacts' });
    server.inject({
      method: 'GET',
      path: /^\/v1\/sim\/artifacts\/[^/]+\/url$/,
      status: 410,
      code: 'artifact_expired',
      times: 1,
    });
    const dir = tempDir('simjob-expired-');
    const result = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '-o', dir], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /The artifact has expired: artifacts are kept for the job's retentionDays after it completed \(artifact_expired\)/,
    );
    expect(readdirSync(dir)).toEqual([]);
    server.expireRetention(id);
    const list = await simjob(['artifacts', id], { env });
    expect(list.stderr).toMatch(/has no artifacts/);
  });
});

describe('a server that is slow, rate limited, or newer', () => {
  it('retries GETs on 429 with Retry-After, with a notice, and succeeds', async () => {
    const id = await submitted();
    server.inject({ method: 'GET', path: new RegExp(`/jobs/${id}/status$`), status: 429, retryAfter: 1, times: 2 });
    const result = await simjob(['status', id, '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr.match(/Rate limited by the service \(rate_limit_exceeded\); retrying in 1 s/g)).toHaveLength(
      2,
    );
  });

  it('fails fast when Retry-After is beyond the retry budget, and says when to retry', async () => {
    server.inject({
      method: 'GET',
      path: '/v1/sim/usage',
      status: 503,
      code: 'api_maintenance',
      retryAfter: 3600,
      times: 1,
    });
    const result = await simjob(['usage'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /cannot take jobs right now \(api_maintenance\)\. Retry after 3600 s\. That is longer than the retry budget of 2 min\.\s+Try again after \d\d:\d\d:\d\d\./,
    );
  });

  it('a non-JSON answer from a proxy is a one-line error', async () => {
    const proxy = server.inject({
      method: 'GET',
      path: '/v1/sim/usage',
      status: 502,
      body: '<html>bad gateway</html>',
      times: Infinity,
    });
    const result = await simjob(['usage'], { env: { ...env, SIMJOB_RETRY_BUDGET: '1s' } });
    proxy.remaining = 0;
    expect(result.exitCode).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    const errorAt = lines.findIndex((l) => l.startsWith('Error: '));
    expect(
      lines.slice(0, errorAt).every((l) => /^The service answered HTTP 502; retrying in [\d.]+ (ms|s)…$/.test(l)),
    ).toBe(true);
    expect(lines[errorAt]).toMatch(/^Error: The service failed \(HTTP 502\)/);
    expect(lines.slice(errorAt + 1)).toEqual([expect.stringMatching(/^Request ID: /)]);
  });

  it('unknown fields and new enum values in every answer break nothing', async () => {
    server.setExtraFields(true);
    try {
      const id = await submitted(['--html']);
      await server.waitForJob(id);
      for (const args of [['status', id], ['result', id], ['artifacts', id], ['jobs'], ['usage'], ['builds']]) {
        const human = await simjob(args, { env });
        expect(human.exitCode, args.join(' ')).toBe(0);
        const json = await simjob([...args, '--json'], { env });
        expect(json.exitCode, args.join(' ')).toBe(0);
        JSON.parse(json.stdout);
      }
    } finally {
      server.setExtraFields(false);
    }
  });

  it('--debug logs requests and responses with the key redacted', async () => {
    const result = await simjob(['usage', '--debug'], { env: { ...env, SIMJOB_DEBUG: 'api' } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/→ GET http:\/\/127\.0\.0\.1:\d+\/v1\/sim\/usage/);
    expect(result.stderr).toMatch(/← 200 in \d+ ms \(req_[0-9a-f]{32}\)/);
    expect(result.stderr).toContain('"authorization":"Bearer [REDACTED]"');
    expect(result.stderr).not.toContain('sk_test_good');
  });

  it('every request the CLI made validated against openapi 1.19.1', () => {
    const checked = server.requests.filter((r) => !r.injected && r.validation.valid !== null);
    expect(checked.length).toBeGreaterThan(20);
    const invalid = checked.filter(
      (r) => r.validation.valid === false && r.headers['user-agent']?.toString().startsWith('simjob/'),
    );
    expect(invalid.map((r) => `${r.method} ${r.path}: ${r.validation.errors.join('; ')}`)).toEqual([]);
  });
});
