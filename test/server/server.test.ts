/**
 * The test server over real HTTP: auth, submission rules and error codes, idempotency, limits, faults, request
 * recording, extra fields and the CLI entry. Lifecycle and artifacts are in lifecycle.test.ts / artifacts.test.ts.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './index.js';
import { EXTRA_FIELD } from './faults.js';
import {
  call,
  expectEnvelope,
  expectResponsesValid,
  get,
  KEY,
  newJob,
  PROFILE,
  submit,
  submitBody,
  type Json,
} from './test-client.js';

let server: TestServer;

async function fresh(options: Parameters<typeof startServer>[0] = {}): Promise<TestServer> {
  await server?.close();
  server = await startServer({ manualClock: true, ...options });
  return server;
}

beforeEach(async () => {
  server = await startServer({ manualClock: true });
});
afterEach(async () => {
  expectResponsesValid(server);
  await server.close();
});

describe('auth', () => {
  it('answers 401 with the four token codes and the envelope', async () => {
    expectEnvelope(await get(server, '/v1/sim/usage', { key: null }), 401, 'missing_token');
    expectEnvelope(await get(server, '/v1/sim/usage', { key: 'sk_nope' }), 401, 'invalid_token');
    expectEnvelope(await get(server, '/v1/sim/usage', { key: 'sk_test_revoked' }), 401, 'revoked_token');
    expectEnvelope(await get(server, '/v1/sim/usage', { key: 'sk_test_expired' }), 401, 'expired_token');
    expectEnvelope(
      await get(server, '/v1/sim/usage', { key: null, headers: { authorization: `Basic ${KEY}` } }),
      401,
      'invalid_token',
    );
    expect((await get(server, '/v1/sim/usage')).status).toBe(200);
  });

  it('can revoke or expire a key while running', async () => {
    await fresh({ apiKeys: ['sk_a', 'sk_b'] });
    expect((await get(server, '/v1/sim/usage', { key: 'sk_a' })).status).toBe(200);
    expectEnvelope(await get(server, '/v1/sim/usage', { key: KEY }), 401, 'invalid_token');
    server.revokeKey('sk_a');
    server.expireKey('sk_b');
    expectEnvelope(await get(server, '/v1/sim/usage', { key: 'sk_a' }), 401, 'revoked_token');
    expectEnvelope(await get(server, '/v1/sim/usage', { key: 'sk_b' }), 401, 'expired_token');
  });

  it('puts X-Request-Id on every response, success included, unique per request', async () => {
    const a = await get(server, '/v1/sim/usage');
    const b = await get(server, '/v1/sim/builds');
    expect(a.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(b.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('scopes jobs to the key: another client gets 404 for them', async () => {
    await fresh({ apiKeys: ['sk_a', 'sk_b'] });
    const id = await newJob(server, {}, undefined, 'sk_a');
    expect((await get(server, `/v1/sim/jobs/${id}`, { key: 'sk_a' })).status).toBe(200);
    expectEnvelope(await get(server, `/v1/sim/jobs/${id}`, { key: 'sk_b' }), 404, 'not_found');
    expect((await get(server, '/v1/sim/jobs', { key: 'sk_b' })).body.jobs).toEqual([]);
  });
});

describe('POST /v1/sim/jobs', () => {
  it('accepts a JSON job: 18-digit id, ceilings, share link on the artifact host, rate headers, no warnings', async () => {
    const r = await submit(server);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.id).toMatch(/^\d{18}$/);
    expect(r.body.runtime).toEqual({
      ceiling: { maxCredits: 9600, runtimeSeconds: 300, queueSeconds: 1800 },
      priorityFeeCredits: 0,
    });
    expect(r.body.links.share).toBe(`${server.artifactUrl}/share/${r.body.id}`);
    expect(r.body.links.manifest).toBeUndefined();
    expect(r.body).not.toHaveProperty('warnings');
    expect(r.headers.get('x-ratelimit-limit')).toBe('600');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('599');
    expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(r.headers.get('x-active-jobs')).toBe('1');
    expect(r.headers.get('x-max-active-jobs')).toBe('100');
    expect(r.headers.get('x-idempotent-replay')).toBeNull();
    const job = await get(server, `/v1/sim/jobs/${r.body.id}`);
    expect(job.body).toMatchObject({
      id: r.body.id,
      status: 'pending',
      priority: 'standard',
      metadata: null,
      build: null,
    });
  });

  it('returns clamp and floor warnings with 1-based lines; target_error=0 is left alone', async () => {
    const text = 'mage="A"\n\n  iterations=300000\ntarget_error=0.001\ntarget_error=0\n';
    const r = await submit(server, { profile: { text } });
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([
      { kind: 'iterations_clamped', line: 3, requested: 300000, applied: 250000, message: expect.any(String) },
      { kind: 'target_error_floored', line: 4, requested: 0.001, applied: 0.01, message: expect.any(String) },
    ]);
  });

  it('rejects bodies that break the 1.19.1 schema with a 400 naming the field', async () => {
    const extra = await submit(server, { runtime: { maxRuntimeSeconds: 60, turbo: true } });
    expectEnvelope(extra, 400, 'invalid_request');
    expect(extra.body.error).toContain("runtime has unknown property 'turbo'");
    const channel = await call(server, 'POST', '/v1/sim/jobs', {
      json: { build: { channel: 'daily' }, profile: { text: PROFILE } },
    });
    expectEnvelope(channel, 400, 'invalid_request');
    expect(channel.body.error).toContain('build.channel must be one of nightly, weekly, latest');
    const top = await submit(server, { bogus: 1 });
    expect(top.body.error).toContain("unknown property 'bogus'");
    const zero = await submit(server, { runtime: { maxQueueSeconds: 0 } });
    expect(zero.body.error).toContain('runtime.maxQueueSeconds');
    const meta = await submit(server, {}, { metadata: { note: 'x'.repeat(501) } });
    expect(meta.body.error).toContain('metadata.note');
    expectEnvelope(
      await call(server, 'POST', '/v1/sim/jobs', {
        text: '{not json',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_request',
    );
    expectEnvelope(
      await call(server, 'POST', '/v1/sim/jobs', { text: PROFILE, headers: { 'content-type': 'application/xml' } }),
      400,
      'invalid_request',
    );
    const halfCreds = await submit(server, { credentials: { providerClientId: 'id' } });
    expectEnvelope(halfCreds, 400, 'invalid_request');
    expect(server.jobs.size).toBe(0);
  });

  it('limits metadata to 20 entries and 1 KB', async () => {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    expectEnvelope(await submit(server, {}, { metadata: many }), 400, 'invalid_request');
    expectEnvelope(
      await submit(server, {}, { metadata: { a: 'x'.repeat(500), b: 'y'.repeat(500), c: 'z'.repeat(30) } }),
      400,
      'invalid_request',
    );
    expect((await submit(server, {}, { metadata: { a: 'x'.repeat(500) } })).status).toBe(200);
  });

  it('accepts text/plain with query parameters and provider headers', async () => {
    const r = await call(server, 'POST', '/v1/sim/jobs', {
      text: PROFILE,
      query: {
        channel: 'weekly',
        priority: 'high',
        multiStage: 'false',
        maxRuntimeSeconds: '120',
        maxQueueSeconds: '600',
        artifactsHtml: 'true',
        artifactsCsv: 'true',
        artifactsJsonVersion: '3',
      },
      headers: { 'x-provider-client-id': 'cid', 'x-provider-client-secret': 'csecret' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.runtime.ceiling).toEqual({ maxCredits: 3840, runtimeSeconds: 120, queueSeconds: 600 });
    const job = server.jobs.get(r.body.id);
    expect(job?.submission).toMatchObject({
      channel: 'weekly',
      priority: 'high',
      html: true,
      csv: true,
      jsonVersion: '3',
      credentials: true,
      metadata: null,
    });
    expect(JSON.stringify(job)).not.toContain('csecret');
    expect(server.requests.at(-1)?.validation).toEqual({ valid: true, errors: [] });
  });

  it('rejects malformed text/plain submissions', async () => {
    const plain = (query: Record<string, string>, headers: Record<string, string> = {}) =>
      call(server, 'POST', '/v1/sim/jobs', { text: PROFILE, query, headers });
    const noChannel = await plain({});
    expectEnvelope(noChannel, 400, 'invalid_request');
    expect(noChannel.body.error).toContain('channel');
    expect((await plain({ channel: 'nightly', multiStage: 'yes' })).body.error).toContain('literal true or false');
    expect((await plain({ channel: 'nightly', multiStage: 'TRUE' })).status).toBe(400);
    expect((await plain({ channel: 'nightly', colour: 'red' })).body.error).toContain("'colour'");
    expect((await plain({ channel: 'nightly', priority: 'urgent' })).status).toBe(400);
    expect((await plain({ channel: 'nightly' }, { 'x-provider-client-id': 'only-id' })).body.error).toContain(
      'together',
    );
    expect(server.requests.filter((r) => r.method === 'POST').every((r) => r.validation.valid === false)).toBe(true);
    expect(server.jobs.size).toBe(0);
  });

  it('answers 413 for a profile over 2 MB and a body over 3 MB', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024 + 1);
    const json = await submit(server, { profile: { text: big } });
    expectEnvelope(json, 413, 'profile_too_large');
    const plain = await call(server, 'POST', '/v1/sim/jobs', { text: big, query: { channel: 'nightly' } });
    expectEnvelope(plain, 413, 'profile_too_large');
    // multi-byte characters: 2 MB of UTF-8 is fewer characters
    expectEnvelope(await submit(server, { profile: { text: 'é'.repeat(1024 * 1024 + 1) } }), 413, 'profile_too_large');
    expect((await submit(server, { profile: { text: `mage=A\n#${'x'.repeat(2 * 1024 * 1024 - 16)}` } })).status).toBe(
      200,
    );
    expectEnvelope(
      await submit(server, { profile: { text: 'y'.repeat(3 * 1024 * 1024 + 10) } }),
      413,
      'payload_too_large',
    );
  });

  it('answers 400 webhook_not_configured unless the key has a webhook config', async () => {
    await fresh({ apiKeys: [KEY, { key: 'sk_hook', webhook: { secret: 'whsec_1' } }] });
    expectEnvelope(await submit(server, { webhook: { events: ['job.terminal'] } }), 400, 'webhook_not_configured');
    expect((await submit(server, { webhook: { events: ['job.terminal'] } }, { key: 'sk_hook' })).status).toBe(200);
    expectEnvelope(await submit(server, { webhook: { events: [] } }, { key: 'sk_hook' }), 400, 'invalid_request');
  });

  it('answers 422 input_sanitized_rejected with the blocked lines', async () => {
    const text = [
      'mage="A"',
      'threads=8',
      '# output=comment.txt is fine',
      'html=report.html',
      'profileset.x+=json2=/tmp/a.json',
      'save_scaling=1',
      'dps_plot_stat=haste',
      'iterations=1000 output=/tmp/x',
    ].join('\n');
    const r = await submit(server, { profile: { text } });
    expectEnvelope(r, 422, 'input_sanitized_rejected');
    expect(r.body.meta).toMatchObject({
      reason: 'input_sanitized_rejected',
      message: expect.any(String),
      docsUrl: expect.stringMatching(/^https:/),
      blockedCount: 6,
      blockedTruncated: false,
    });
    expect(r.body.meta.blocked.map((b: Json) => b.line)).toEqual([2, 4, 5, 6, 7, 8]);
    expect(r.body.meta.blocked[0]).toEqual({ line: 2, text: 'threads=8' });
  });

  it('samples at most 10 blocked lines and says so', async () => {
    const text = ['mage=A', ...Array.from({ length: 14 }, (_, i) => `threads=${i}`)].join('\n');
    const r = await submit(server, { profile: { text } });
    expect(r.body.meta).toMatchObject({ blockedCount: 14, blockedTruncated: true });
    expect(r.body.meta.blocked).toHaveLength(10);
  });

  it('rejects armory= without provider credentials and bundled profiles outside the manifest', async () => {
    const armory = await submit(server, { profile: { text: 'armory=us,illidan,niike\n' } });
    expectEnvelope(armory, 422, 'input_sanitized_rejected');
    expect(armory.body.meta.blocked).toEqual([{ line: 1, text: 'armory=us,illidan,niike' }]);
    expect(armory.body.error).toContain('credentials');
    const withCreds = await submit(server, {
      profile: { text: 'armory=us,illidan,niike\n' },
      credentials: { providerClientId: 'a', providerClientSecret: 'b' },
    });
    expect(withCreds.status).toBe(200);
    expect((await submit(server, { profile: { text: 'MID1_Mage_Arcane.simc\n' } })).status).toBe(200);
    expect((await submit(server, { profile: { text: 'input=MID1_Mage_Fire.simc\n' } })).status).toBe(200);
    expectEnvelope(await submit(server, { profile: { text: 'input=/etc/passwd\n' } }), 422, 'input_sanitized_rejected');
    expectEnvelope(await submit(server, { profile: { text: 'MID9_Nope.simc\n' } }), 422, 'input_sanitized_rejected');
  });

  it('checks runtime and queue maxima against the account limits', async () => {
    await fresh({ limits: { maxRuntimeSeconds: 600, maxQueueSeconds: 900 } });
    const runtime = await submit(server, { runtime: { maxRuntimeSeconds: 601 } });
    expectEnvelope(runtime, 400, 'invalid_request');
    expect(runtime.body.meta).toMatchObject({ field: 'runtime.maxRuntimeSeconds', max: 600 });
    expectEnvelope(await submit(server, { runtime: { maxQueueSeconds: 901 } }), 400, 'invalid_request');
    expect((await submit(server, { runtime: { maxRuntimeSeconds: 600, maxQueueSeconds: 900 } })).status).toBe(200);
  });

  it('answers 402 for the high fee and for the reservation, and settles credits after the run', async () => {
    await fresh({ limits: { credits: 10_000, priorityFeeCredits: 500 }, runMs: 2500 });
    const account = server.account();
    account.available = 400;
    const fee = await submit(server, { priority: 'high' });
    expectEnvelope(fee, 402, 'insufficient_credits_liability');
    expect(fee.body.meta).toMatchObject({ reason: 'insufficient_credits_liability', priorityFeeCredits: 500 });
    account.available = 10_000;
    const reserve = await submit(server, { runtime: { maxRuntimeSeconds: 400 } });
    expectEnvelope(reserve, 402, 'insufficient_credits');
    expect(reserve.body.meta).toEqual({
      reason: 'insufficient_credits',
      ceilingMaxCredits: 12_800,
      maxAffordableCredits: 10_000,
      ceilingRuntimeSeconds: 400,
      maxAffordableRuntimeSeconds: 312,
      docsUrl: expect.any(String),
    });
    const overBudget = await submit(server, { runtime: { maxCredits: 12_800 } });
    expect(overBudget.body.meta).toMatchObject({ ceilingMaxCredits: 12_800, maxAffordableCredits: 10_000 });
    const highTooLong = await submit(server, { priority: 'high', runtime: { maxRuntimeSeconds: 300 } });
    expect(highTooLong.body.meta.maxAffordableRuntimeSeconds).toBe(296);
    const id = await newJob(server, { priority: 'high', runtime: { maxRuntimeSeconds: 100 } });
    expect(account.available).toBe(10_000 - 3200 - 500);
    expect(account.reserved).toBe(3700);
    server.clock.advance(10_000);
    const job = (await get(server, `/v1/sim/jobs/${id}`)).body;
    expect(job.runtime).toMatchObject({
      simDurationMs: 2500,
      creditsConsumed: 3 * 32 + 500,
      priorityFeeCredits: 500,
      vcpus: 32,
    });
    expect(account.available).toBe(10_000 - 96 - 500);
    expect(account.reserved).toBe(0);
  });

  it('answers 429 max_active_jobs_exceeded with Retry-After and the job counts', async () => {
    await fresh({ limits: { maxActiveJobs: 2 } });
    await newJob(server);
    await newJob(server);
    const r = await submit(server);
    expectEnvelope(r, 429, 'max_active_jobs_exceeded');
    expect(r.body.meta).toEqual({ reason: 'max_active_jobs_exceeded', maxActiveJobs: 2, activeJobs: 2 });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get('x-active-jobs')).toBe('2');
    expect(r.headers.get('x-max-active-jobs')).toBe('2');
    expect(r.headers.get('x-ratelimit-remaining')).not.toBeNull();
    server.clock.advance(5000);
    expect((await submit(server)).status).toBe(200);
  });

  it('gives Retry-After in real seconds under a time scale', async () => {
    await fresh({ manualClock: false, timeScale: 60, limits: { maxActiveJobs: 1 }, runMs: 120_000 });
    await newJob(server);
    const r = await submit(server);
    expectEnvelope(r, 429, 'max_active_jobs_exceeded');
    expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(3);
  });

  it('answers 429 rate_limit_exceeded per clock minute; replays count', async () => {
    await fresh({ limits: { rateLimitPerMinute: 3 } });
    const first = await submit(server, {}, { headers: { 'idempotency-key': 'k1' } });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    const replay = await submit(server, {}, { headers: { 'idempotency-key': 'k1' } });
    expect(replay.headers.get('x-idempotent-replay')).toBe('true');
    expect(replay.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await submit(server)).headers.get('x-ratelimit-remaining')).toBe('0');
    const limited = await submit(server, {}, { headers: { 'idempotency-key': 'k1' } });
    expectEnvelope(limited, 429, 'rate_limit_exceeded');
    expect(limited.body.meta).toEqual({ scope: 'developer' });
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-active-jobs')).toBe('2');
    const reset = Number(limited.headers.get('x-ratelimit-reset')) * 1000;
    expect(reset % 60_000).toBe(0);
    expect(reset).toBeGreaterThan(server.clock.now());
    expect(reset).toBeLessThanOrEqual(server.clock.now() + wait * 1000);
    expect(server.jobs.size).toBe(2);
    server.clock.advance(wait * 1000);
    const after = await submit(server, {}, { headers: { 'idempotency-key': 'k1' } });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});

describe('idempotency', () => {
  it('replays the original body for the same payload, even with other metadata and after the job ended', async () => {
    const headers = { 'idempotency-key': 'retry-me-1' };
    const first = await submit(server, {}, { headers, metadata: { attempt: '1' } });
    expect(first.headers.get('x-idempotent-replay')).toBeNull();
    const again = await submit(server, {}, { headers, metadata: { attempt: '2' } });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    server.clock.advance(60_000);
    expect((await get(server, `/v1/sim/jobs/${first.body.id}`)).body.status).toBe('completed');
    const late = await submit(server, {}, { headers });
    expect(late.body).toEqual(first.body);
    expect(late.body.links.manifest).toBeUndefined();
    expect(server.jobs.size).toBe(1);
  });

  it('answers 409 idempotency_key_reuse for another payload, credentials included', async () => {
    const headers = { 'idempotency-key': 'k-409' };
    const creds = { credentials: { providerClientId: 'a', providerClientSecret: 'b' } };
    const first = await submit(server, creds, { headers });
    const other = await submit(server, { priority: 'high' }, { headers });
    expectEnvelope(other, 409, 'idempotency_key_reuse');
    expect(other.body.meta).toMatchObject({ reason: 'idempotency_key_reuse', originalJobId: first.body.id });
    const rotated = await submit(
      server,
      { credentials: { providerClientId: 'a', providerClientSecret: 'c' } },
      { headers },
    );
    expectEnvelope(rotated, 409, 'idempotency_key_reuse');
    expect((await submit(server, creds, { headers })).status).toBe(200);
  });

  it('compares the JSON and text/plain forms by content, key order aside', async () => {
    const headers = { 'idempotency-key': 'k-order' };
    const a = await call(server, 'POST', '/v1/sim/jobs', {
      json: { profile: { text: PROFILE }, build: { channel: 'nightly' } },
      headers,
    });
    const b = await call(server, 'POST', '/v1/sim/jobs', { text: PROFILE, query: { channel: 'nightly' }, headers });
    expect(b.headers.get('x-idempotent-replay')).toBe('true');
    expect(b.body.id).toBe(a.body.id);
  });

  it('scopes keys per API key and validates them', async () => {
    await fresh({ apiKeys: ['sk_a', 'sk_b'] });
    const headers = { 'idempotency-key': 'shared' };
    const a = await submit(server, {}, { key: 'sk_a', headers });
    const b = await submit(server, {}, { key: 'sk_b', headers });
    expect(b.status).toBe(200);
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.headers.get('x-idempotent-replay')).toBeNull();
    expectEnvelope(
      await submit(server, {}, { key: 'sk_a', headers: { 'idempotency-key': 'tab\tinside' } }),
      400,
      'invalid_request',
    );
    expectEnvelope(
      await submit(server, {}, { key: 'sk_a', headers: { 'idempotency-key': 'clé' } }),
      400,
      'invalid_request',
    );
    expectEnvelope(
      await submit(server, {}, { key: 'sk_a', headers: { 'idempotency-key': 'k'.repeat(256) } }),
      400,
      'invalid_request',
    );
    expect((await submit(server, {}, { key: 'sk_a', headers: { 'idempotency-key': 'k'.repeat(255) } })).status).toBe(
      200,
    );
    expect(server.requests.find((r) => r.headers['idempotency-key'] === 'tab\tinside')?.validation.valid).toBe(false);
  });
});

describe('routing', () => {
  it('answers 404 with the envelope for unknown paths and jobs, 405 for a known path with another method', async () => {
    expectEnvelope(await get(server, '/v1/sim/nothing'), 404, 'not_found');
    expectEnvelope(await get(server, '/v1/sim/jobs/519253542012420096'), 404, 'not_found');
    expectEnvelope(await get(server, '/v1/sim/jobs/519253542012420096/status'), 404, 'not_found');
    expectEnvelope(await call(server, 'POST', '/v1/sim/jobs/519253542012420096/cancel'), 404, 'not_found');
    const wrong = await call(server, 'DELETE', '/v1/sim/jobs');
    expectEnvelope(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('POST, GET');
  });

  it('serves usage with the account limits and builds by channel and id', async () => {
    await fresh({
      limits: { maxActiveJobs: 7, maxRuntimeSeconds: 1200, maxQueueSeconds: 600, priorityFeeCredits: 99 },
    });
    await newJob(server);
    const usage = await get(server, '/v1/sim/usage');
    expect(usage.body.limits).toMatchObject({
      maxActiveJobs: 7,
      maxRuntimeSeconds: 1200,
      maxQueueSeconds: 600,
      defaultRuntimeSeconds: 300,
      defaultQueueSeconds: 600,
      vcpuPerJob: 32,
      priorityFeeCredits: { high: 99 },
    });
    expect(usage.body.snapshot).toEqual({ activeJobs: 1, queuedJobs: 1, runningJobs: 0 });
    expect(usage.headers.get('x-active-jobs')).toBe('1');
    const builds = await get(server, '/v1/sim/builds');
    expect(builds.body.builds.map((b: Json) => b.channel).sort()).toEqual(['latest', 'nightly', 'weekly']);
    const id = builds.body.builds[0].id as string;
    const one = await get(server, `/v1/sim/builds/${id}`);
    expect(one.body.id).toBe(id);
    expect(one.body).not.toHaveProperty('channel');
    expect((await get(server, '/v1/sim/builds/e5f6a7b8-2c4d-4e6f-8a0b-1c2d3e4f5a04')).status).toBe(200);
    expectEnvelope(await get(server, '/v1/sim/builds/not-a-uuid'), 400, 'invalid_request');
    expectEnvelope(await get(server, '/v1/sim/builds/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    const credits = await get(server, '/v1/sim/credits');
    expect(credits.body).toEqual({ purchased: 10_000_000 - 9600, reserved: 9600, grants: [] });
  });
});

describe('fault injection', () => {
  it('answers two 503s with Retry-After, then normally', async () => {
    const fault = server.inject({ method: 'GET', path: '/v1/sim/usage', status: 503, retryAfter: 1, times: 2 });
    const a = await get(server, '/v1/sim/usage');
    expectEnvelope(a, 503, 'queue_unavailable');
    expect(a.headers.get('retry-after')).toBe('1');
    expect((await get(server, '/v1/sim/usage')).status).toBe(503);
    expect((await get(server, '/v1/sim/usage')).status).toBe(200);
    expect(fault).toMatchObject({ hits: 2, remaining: 0 });
    expect(server.requests.filter((r) => r.injected)).toHaveLength(2);
  });

  it('matches by RegExp and method, takes a code and a raw body, and can drop the connection', async () => {
    const id = await newJob(server);
    server.inject({ path: /\/status$/, status: 429, code: 'rate_limit_exceeded', retryAfter: 2 });
    server.inject({ method: 'POST', path: '/v1/sim/jobs', status: 502, body: '<html>bad gateway</html>' });
    const limited = await get(server, `/v1/sim/jobs/${id}/status`);
    expectEnvelope(limited, 429, 'rate_limit_exceeded');
    expect(limited.headers.get('retry-after')).toBe('2');
    const gateway = await submit(server);
    expect(gateway.status).toBe(502);
    expect(gateway.text).toBe('<html>bad gateway</html>');
    expect((await get(server, `/v1/sim/jobs/${id}/status`)).status).toBe(200);
    server.inject({ path: '/v1/sim/usage', status: 0, drop: true });
    await expect(get(server, '/v1/sim/usage')).rejects.toThrow();
    expect((await get(server, '/v1/sim/usage')).status).toBe(200);
    server.inject({ path: '/v1/sim/usage', status: 500, times: Infinity });
    server.clearFaults();
    expect((await get(server, '/v1/sim/usage')).status).toBe(200);
  });
});

describe('request recording', () => {
  it('records every request with its parsed body and openapi 1.19.1 verdict', async () => {
    const id = await newJob(server, {}, { trace: 't1' });
    await get(server, `/v1/sim/jobs/${id}/status`, { query: { include: 'logEntries' } });
    await get(server, '/v1/sim/jobs', { query: { limit: '5' } });
    const good = server.requests.slice();
    expect(good.map((r) => r.operation)).toEqual(['createJob', 'getJobStatus', 'listJobs']);
    expect(good.every((r) => r.validation.valid)).toBe(true);
    expect(good[0]?.body).toEqual(submitBody({}, { trace: 't1' }));
    expect(good[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(good[0]?.status).toBe(200);
    expect(good.every((r) => r.responseValidation?.valid === true)).toBe(true);

    await get(server, '/v1/sim/jobs', { query: { limit: '0' } });
    await get(server, '/v1/sim/jobs', { query: { page: '2' } });
    await get(server, '/v1/sim/usage', { key: null });
    await call(server, 'POST', `/v1/sim/jobs/${id}/cancel`, { json: { unexpected: true } });
    await get(server, '/v1/sim/unknown');
    const bad = server.requests.slice(good.length);
    expect(bad.map((r) => r.validation.valid)).toEqual([false, false, false, false, false]);
    expect(bad[0]?.validation.errors.join()).toContain('limit');
    expect(bad[1]?.validation.errors.join()).toContain('unknown query parameter page');
    expect(bad[2]?.validation.errors.join()).toContain('Authorization');
    expect(bad[3]?.validation.errors.join()).toContain('cancelJob takes no request body');
    expect(bad[4]?.operation).toBeNull();
  });
});

describe('extra fields', () => {
  it('adds unknown fields to every object and an unknown artifact kind, leaving metadata alone', async () => {
    await fresh({ manualClock: true });
    const id = await newJob(server, { artifacts: { html: true } }, { trace: 'x' });
    server.clock.advance(10_000);
    server.setExtraFields(true);
    const result = await get(server, `/v1/sim/jobs/${id}/result`);
    expect(result.status).toBe(200);
    const objects: Json[] = [];
    const walk = (v: Json, key: string) => {
      if (Array.isArray(v)) v.forEach((x) => walk(x, ''));
      else if (v && typeof v === 'object') {
        if (key !== 'metadata') objects.push(v);
        for (const [k, x] of Object.entries(v)) if (k !== 'xFutureObject') walk(x, k);
      }
    };
    walk(result.body, '');
    expect(objects.length).toBeGreaterThan(10);
    for (const o of objects) expect(o).toHaveProperty(EXTRA_FIELD);
    expect(result.body.metadata).toEqual({ trace: 'x' });
    const flame = result.body.result.artifacts.find((a: Json) => a.kind === 'flamegraph');
    expect(flame).toBeDefined();
    expect((await fetch(flame.url)).status).toBe(200);
    expectEnvelope(await get(server, '/v1/sim/jobs/1/status'), 404, 'not_found');
    expect((await get(server, '/v1/sim/jobs/1')).body).toHaveProperty(EXTRA_FIELD);
    server.setExtraFields(false);
    expect((await get(server, `/v1/sim/jobs/${id}`)).body).not.toHaveProperty(EXTRA_FIELD);
  });
});

describe('CLI entry', () => {
  it('prints one JSON line with both URLs and serves until killed', async () => {
    const child = spawn(
      process.execPath,
      ['scripts/tsrun.mjs', 'test/server/main.ts', '--queue-ms', '10', '--run-ms', '20'],
      {
        cwd: new URL('../..', import.meta.url).pathname,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const info = JSON.parse(line) as { url: string; artifactUrl: string };
      expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.artifactUrl).not.toBe(info.url);
      const usage = await fetch(`${info.url}/v1/sim/usage`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(usage.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('openapi 1.19.1 credit budget', () => {
  it('takes runtime.maxCredits, refuses it with maxRuntimeSeconds or above plan.maxCreditsPerJob, and serves plan and limits alike', async () => {
    await fresh({ limits: { maxRuntimeSeconds: 600 } });
    const ok = await submit(server, { runtime: { maxCredits: 6400 } });
    expect(ok.status).toBe(200);
    expect(ok.body.runtime.ceiling).toEqual({ maxCredits: 6400, runtimeSeconds: 200, queueSeconds: 1800 });
    expectEnvelope(
      await submit(server, { runtime: { maxCredits: 6400, maxRuntimeSeconds: 200 } }),
      400,
      'invalid_request',
    );
    const over = await submit(server, { runtime: { maxCredits: 600 * 32 + 1 } });
    expectEnvelope(over, 400, 'invalid_request');
    expect(over.body.meta).toMatchObject({ field: 'runtime.maxCredits', max: 19_200 });
    const usage = await get(server, '/v1/sim/usage');
    expect(usage.body.plan).toMatchObject({
      maxCreditsPerJob: 19_200,
      defaultCreditsPerJob: 9600,
      creditsPerSecond: 32,
      pool: 'standard',
    });
    expect(usage.body.limits).toEqual(usage.body.plan);
  });
});
