/** Jobs moving with the clock: states, status fields, outcomes, capacity, cancel, results, paging. */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type ServerOptions, type TestServer } from './index.js';
import { call, expectEnvelope, expectResponsesValid, get, newJob, type Json } from './test-client.js';

let server: TestServer;

/** pending 50 ms → queued until 200 → starting until 250 → running until 1250 (manual clock). */
async function start(options: ServerOptions = {}): Promise<TestServer> {
  server = await startServer({
    manualClock: true,
    pendingMs: 50,
    queueMs: 200,
    startingMs: 50,
    runMs: 1000,
    ...options,
  });
  return server;
}

afterEach(async () => {
  expectResponsesValid(server);
  await server.close();
});

const status = async (id: string, query: Record<string, string> = {}) =>
  (await get(server, `/v1/sim/jobs/${id}/status`, { query })).body;
const record = async (id: string) => (await get(server, `/v1/sim/jobs/${id}`)).body;
const result = (id: string) => get(server, `/v1/sim/jobs/${id}/result`);
const cancel = (id: string) => call(server, 'POST', `/v1/sim/jobs/${id}/cancel`);

describe('lifecycle', () => {
  it('moves pending → queued → starting → running → completed with the clock', async () => {
    await start();
    const id = await newJob(server, {}, { source: 'test' });
    const s0 = await status(id);
    expect(s0).toMatchObject({
      status: 'pending',
      errorCode: null,
      startedAt: null,
      retried: false,
      progress: { percent: null, stage: null },
      logEntries: null,
    });
    expect(s0.queue).toMatchObject({
      queuedAt: expect.any(String),
      estimatedStartSeconds: 1,
      estimatedStartUpdatedAt: expect.any(String),
    });
    const r0 = await result(id);
    expectEnvelope(r0, 409, 'result_not_ready');
    expect(r0.body.meta).toEqual({ status: 'pending' });

    server.clock.advance(100);
    expect((await status(id)).status).toBe('queued');
    server.clock.advance(120);
    const s2 = await status(id);
    expect(s2).toMatchObject({
      status: 'starting',
      queue: null,
      startedAt: expect.any(String),
      progress: { percent: null, stage: null },
    });
    expect((await record(id)).build).toMatchObject({
      channel: 'nightly',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    server.clock.advance(530);
    const s3 = await status(id, { include: 'logEntries' });
    expect(s3.status).toBe('running');
    expect(s3.progress).toEqual({ percent: 50, stage: { current: 1, total: 1, label: 'initial', percent: 50 } });
    expect(s3.logEntries.length).toBeGreaterThan(0);
    expect(s3.logEntries[0]).toEqual({
      source: expect.stringMatching(/^std(out|err)$/),
      message: expect.any(String),
      ts: expect.any(Number),
    });
    expect((await status(id)).logEntries).toBeNull();
    expectEnvelope(await result(id), 409, 'result_not_ready');
    expect((await record(id)).runtime).toMatchObject({ simDurationMs: null, creditsConsumed: null, vcpus: 32 });

    server.clock.advance(500);
    const done = await record(id);
    expect(done).toMatchObject({
      status: 'completed',
      errorCode: null,
      statusReason: null,
      simcExitCode: '0',
      retried: false,
      metadata: { source: 'test' },
      retentionDays: 7,
    });
    expect(Date.parse(done.completedAt) - Date.parse(done.startedAt)).toBe(1050);
    expect(Date.parse(done.startedAt) - Date.parse(done.createdAt)).toBe(200);
    expect(done.runtime).toMatchObject({
      simDurationMs: 1000,
      totalDurationMs: 1050,
      creditsConsumed: 32,
      priorityFeeCredits: 0,
    });
    expect(done.links.manifest).toBe(`${server.artifactUrl}/manifest/${id}/attempt-1.json`);
    const s4 = await status(id, { include: 'logEntries' });
    expect(s4).toMatchObject({
      status: 'completed',
      queue: null,
      progress: { percent: 100, stage: null },
      logEntries: null,
      simcExitCode: '0',
    });
  });

  it('runs in a time-scaled real clock too', async () => {
    server = await startServer({ timeScale: 20, pendingMs: 20, queueMs: 100, startingMs: 20, runMs: 400 });
    const id = await newJob(server);
    const job = await server.waitForJob(id, undefined, 5000);
    expect(job.status).toBe('completed');
    expect(job.completedAt! - job.createdAt).toBeGreaterThanOrEqual(520);
  });

  it('fills capacity by priority, then submission order', async () => {
    await start({ concurrency: 1 });
    const a = await newJob(server, {});
    server.clock.advance(300);
    const b = await newJob(server, { priority: 'background' });
    const c = await newJob(server, { priority: 'standard' });
    const d = await newJob(server, { priority: 'high' });
    server.clock.advance(300);
    expect([(await status(a)).status, (await status(b)).status, (await status(d)).status]).toEqual([
      'running',
      'queued',
      'queued',
    ]);
    expect((await status(d)).queue.estimatedStartSeconds).toBeLessThan((await status(b)).queue.estimatedStartSeconds);
    const order: string[] = [];
    for (let i = 0; i < 50; i++) {
      server.clock.advance(100);
      for (const id of [b, c, d]) if (!order.includes(id) && server.jobs.get(id)?.startedAt !== null) order.push(id);
    }
    expect(order).toEqual([d, c, b]);
    const starts = [a, d, c, b].map((id) => server.jobs.get(id)?.startedAt ?? 0);
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
  });

  it('ends a job that waits past maxQueueSeconds as cancelled / queue_timeout, never started', async () => {
    await start({ concurrency: 1 });
    await newJob(server, {}, { 'test.runMs': '60000' });
    const id = await newJob(server, { runtime: { maxQueueSeconds: 2 } });
    server.clock.advance(1999);
    expect((await status(id)).status).toBe('queued');
    server.clock.advance(2);
    const s = await status(id);
    expect(s).toMatchObject({
      status: 'cancelled',
      errorCode: 'queue_timeout',
      startedAt: null,
      statusReason: expect.any(String),
      queue: null,
    });
    const rec = await record(id);
    expect(rec.runtime).toMatchObject({ creditsConsumed: 0, simDurationMs: null, totalDurationMs: null, vcpus: null });
    expect(rec.build).toBeNull();
    const r = await result(id);
    expectEnvelope(r, 422, 'result_unavailable');
    expect(r.body.meta).toEqual({ status: 'cancelled' });
    expectEnvelope(await cancel(id), 409, 'job_not_cancellable');
  });

  it('stops a job at its credit budget (runtime.maxCredits) with max_credits_reached and bills the budget', async () => {
    await start();
    const id = await newJob(server, { runtime: { maxCredits: 50 } }, { 'test.runMs': '5000' });
    server.clock.advance(250 + 999);
    expect((await status(id)).status).toBe('running');
    server.clock.advance(1);
    const rec = await record(id);
    expect(rec).toMatchObject({ status: 'timed_out', errorCode: 'max_credits_reached', simcExitCode: null });
    expect(rec.runtime).toMatchObject({
      simDurationMs: 1000,
      creditsConsumed: 50,
      creditsPerSecond: 32,
      ceiling: { maxCredits: 50, runtimeSeconds: 1 },
    });
  });

  it('times a job out at maxRuntimeSeconds and bills what ran', async () => {
    await start();
    const id = await newJob(server, { runtime: { maxRuntimeSeconds: 1 } }, { 'test.runMs': '5000' });
    server.clock.advance(250 + 999);
    expect((await status(id)).status).toBe('running');
    server.clock.advance(1);
    const rec = await record(id);
    expect(rec).toMatchObject({ status: 'timed_out', errorCode: 'execution_timeout', simcExitCode: null });
    expect(rec.runtime).toMatchObject({ simDurationMs: 1000, creditsConsumed: 32 });
    const r = await result(id);
    expect(r.status).toBe(200);
    expect(r.body.result.summary).toBeNull();
    expect(r.body.result.artifacts.map((a: Json) => a.kind)).toEqual(['input', 'stdout_log', 'stderr_log']);
  });

  it.each([
    ['simulation_error', 'failed', 'simulation_error', '1', 200],
    ['failed', 'failed', 'execution_failed', null, 200],
    ['execution_failed', 'failed', 'execution_failed', null, 422],
    ['timed_out', 'timed_out', 'execution_timeout', null, 200],
  ] as const)('outcome %s → %s / %s', async (outcome, want, errorCode, exit, resultStatus) => {
    await start();
    const id = await newJob(server, {}, { 'test.outcome': outcome });
    server.clock.advance(2000);
    expect(await record(id)).toMatchObject({
      status: want,
      errorCode,
      simcExitCode: exit,
      statusReason: expect.any(String),
    });
    const r = await result(id);
    expect(r.status).toBe(resultStatus);
    if (resultStatus === 422) expect(r.body).toMatchObject({ code: 'result_unavailable', meta: { status: 'failed' } });
    else expect(r.body.result.summary).toBeNull();
  });

  it('retries a platform failure once: retried=true, requeued, a new manifest link, then completes', async () => {
    await start();
    const id = await newJob(server, {}, { 'test.outcome': 'retried' });
    server.clock.advance(250 + 500);
    const s = await status(id);
    expect(s).toMatchObject({ status: 'queued', retried: true, startedAt: null });
    expect(Date.parse(s.queue.queuedAt)).toBe(server.jobs.get(id)!.createdAt + 750);
    server.clock.advance(2000);
    const rec = await record(id);
    expect(rec).toMatchObject({ status: 'completed', retried: true });
    expect(rec.links.manifest).toMatch(/attempt-2\.json$/);
    expect(rec.runtime.creditsConsumed).toBe(32);
    expect((await fetch(rec.links.manifest)).status).toBe(200);
    expect((await fetch(rec.links.manifest.replace('attempt-2', 'attempt-1'))).status).toBe(404);
  });

  it('rejects unknown include values and malformed test knobs', async () => {
    await start();
    const id = await newJob(server);
    expectEnvelope(
      await get(server, `/v1/sim/jobs/${id}/status`, { query: { include: 'everything' } }),
      400,
      'invalid_request',
    );
    const r = await call(server, 'POST', '/v1/sim/jobs', {
      json: { build: { channel: 'latest' }, profile: { text: 'mage=A' }, metadata: { 'test.outcome': 'exploded' } },
    });
    expectEnvelope(r, 400, 'invalid_request');
    expectEnvelope(
      await call(server, 'POST', '/v1/sim/jobs', {
        json: { build: { channel: 'latest' }, profile: { text: 'mage=A' }, metadata: { 'test.runMz': '1' } },
      }),
      400,
      'invalid_request',
    );
  });
});

describe('result', () => {
  it('summarizes the main actor and profilesets ranked, top 200, single pass', async () => {
    await start();
    const text = 'mage="Niike"\nprofileset."Crit Trinket"+=trinket1=x\nprofileset.haste+=trinket1=y\n';
    const id = await newJob(server, { profile: { text } });
    server.clock.advance(2000);
    const { summary } = (await result(id)).body.result;
    expect(summary.metric).toBe('dps');
    expect(summary.mainActor.name).toBe('Niike');
    expect(summary.mainActor.mean_error).toBeCloseTo(summary.mainActor.mean_stddev * 1.96, 1);
    expect(summary.mainActor.profilesets.count).toBe(2);
    expect(summary.mainActor.profilesets.results.map((p: Json) => p.name).sort()).toEqual(['Crit Trinket', 'haste']);
    expect(summary.mainActor.profilesets.results.every((p: Json) => p.stage === 1)).toBe(true);
    expect(summary.multiStage).toEqual({ enabled: false, reason: 'disabled_by_option', stages: [] });
  });

  it('omits profilesets when there are none', async () => {
    await start();
    const id = await newJob(server);
    server.clock.advance(2000);
    expect((await result(id)).body.result.summary.mainActor).not.toHaveProperty('profilesets');
  });

  it('runs multistage with a 3-stage funnel, per-stage JSON, HTML for the final stage, one CSV', async () => {
    await start();
    const id = await newJob(
      server,
      { runtime: { multiStage: true }, artifacts: { html: true, csv: true } },
      { 'test.profilesets': '300' },
    );
    server.clock.advance(250 + 650);
    expect((await status(id)).progress).toEqual({
      percent: 65,
      stage: { current: 2, total: 3, label: 'intermediate', percent: 95 },
    });
    server.clock.advance(300);
    expect((await status(id)).progress.stage).toEqual({ current: 3, total: 3, label: 'final', percent: 85 });
    server.clock.advance(1000);
    const { summary, artifacts } = (await result(id)).body.result;
    expect(summary.multiStage).toEqual({
      enabled: true,
      reason: 'eligible_profileset_only',
      stages: [
        { stage: 1, label: 'initial', profilesets: 300, culled: 180 },
        { stage: 2, label: 'intermediate', profilesets: 120, culled: 60 },
        { stage: 3, label: 'final', profilesets: 60, culled: 0 },
      ],
    });
    const ps = summary.mainActor.profilesets;
    expect(ps.count).toBe(300);
    expect(ps.results).toHaveLength(200);
    const means = ps.results.map((p: Json) => p.mean);
    expect(means).toEqual([...means].sort((a: number, b: number) => b - a));
    // The 60 that reached the final stage lead; near the cut a stage-2 mean (3× the error) may pass one of them, so
    // only the first 50 (ten ranks, about six errors, from the cut) are sure to be final-stage ones.
    expect(ps.results.slice(0, 50).every((p: Json) => p.stage === 3)).toBe(true);
    expect(ps.results[150].stage).toBe(1);
    expect(ps.results[150].mean_error).toBeGreaterThan(ps.results[0].mean_error);
    const kinds = artifacts.map((a: Json) => `${a.kind}:${a.stage}:${a.mimeType}`);
    expect(kinds).toEqual([
      'json_report:1:application/json',
      'json_report:2:application/json',
      'json_report:3:application/json',
      'html_report:3:text/html',
      'csv_report:null:text/csv',
      'input:null:text/plain',
      'stdout_log:null:text/plain',
      'stderr_log:null:text/plain',
    ]);
    expect(artifacts.every((a: Json) => /^\d{18}$/.test(a.id))).toBe(true);
  });

  it.each([
    ['mage=A\nprofileset.a+=x=1\nprofileset.b+=x=2\nprofileset.c+=x=3\n', 'below_min_candidates'],
    ['mage=A\n', 'no_variants_in_input'],
    ['mage=A\ncopy=B\n', 'unsupported_copy_set_only'],
    ['mage=A\ncopy=B\nprofileset.a+=x=1\n', 'unsupported_mixed_profileset_copy_set'],
    ['mage=A\npriest=B\nprofileset.a+=x=1\n', 'unsupported_multi_actor'],
  ])('falls back to a single pass: %j → %s', async (text, reason) => {
    await start();
    const id = await newJob(server, { runtime: { multiStage: true }, profile: { text } });
    server.clock.advance(2000);
    expect((await result(id)).body.result.summary.multiStage).toEqual({ enabled: false, reason, stages: [] });
  });
});

describe('cancel', () => {
  it('cancels a queued job at once and answers the same on repeat', async () => {
    await start();
    const id = await newJob(server);
    const first = await cancel(id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, id, status: 'cancelled' });
    expect((await cancel(id)).body).toEqual(first.body);
    expect(await record(id)).toMatchObject({
      status: 'cancelled',
      errorCode: 'user_cancelled',
      startedAt: null,
      cancelRequestedAt: expect.any(String),
    });
    expectEnvelope(await result(id), 422, 'result_unavailable');
  });

  it('signals a running job, which ends cancelled after the delay and is billed for what ran', async () => {
    await start({ cancelDelayMs: 100 });
    const id = await newJob(server);
    server.clock.advance(700);
    const first = await cancel(id);
    expect(first.body).toEqual({
      success: true,
      id,
      status: 'cancel_requested',
      cancelRequestedAt: expect.any(String),
    });
    server.clock.advance(50);
    expect((await cancel(id)).body).toEqual(first.body);
    expect((await status(id)).status).toBe('running');
    server.clock.advance(50);
    const rec = await record(id);
    expect(rec).toMatchObject({
      status: 'cancelled',
      errorCode: 'user_cancelled',
      cancelRequestedAt: first.body.cancelRequestedAt,
    });
    expect(rec.runtime).toMatchObject({ simDurationMs: 550, creditsConsumed: 32 });
    expect((await cancel(id)).body).toEqual({ success: true, id, status: 'cancelled' });
    expect((await result(id)).body.result.summary).toBeNull();
  });

  it('answers 409 job_not_cancellable for a completed job', async () => {
    await start();
    const id = await newJob(server);
    server.clock.advance(2000);
    const r = await cancel(id);
    expectEnvelope(r, 409, 'job_not_cancellable');
    expect(r.body.meta).toEqual({ id, status: 'completed' });
    expect((await cancel(id)).status).toBe(409);
  });
});

describe('GET /v1/sim/jobs', () => {
  it('pages newest first with an opaque cursor', async () => {
    await start();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await newJob(server));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await get(server, '/v1/sim/jobs', { query: cursor ? { limit: '2', cursor } : { limit: '2' } });
      expect(r.status).toBe(200);
      expect(r.body.page).toMatchObject({ limit: 2, since: expect.any(String) });
      seen.push(...r.body.jobs.map((j: Json) => j.id));
      cursor = r.body.page.nextCursor ?? undefined;
      expect(r.body.page.hasMore).toBe(cursor !== undefined);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
    const first = (await get(server, '/v1/sim/jobs')).body;
    expect(first.page.limit).toBe(25);
    expect(first.jobs[0]).toEqual({
      id: ids[4],
      status: 'pending',
      createdAt: expect.any(String),
      completedAt: null,
      errorCode: null,
      metadata: null,
      buildId: null,
      links: { share: expect.any(String) },
    });
  });

  it("rejects bad limits and cursors, including another client's cursor", async () => {
    await start({ apiKeys: ['sk_a', 'sk_b'] });
    for (let i = 0; i < 3; i++) await newJob(server, {}, undefined, 'sk_a');
    for (const limit of ['0', '101', 'abc', '1.5', '-1']) {
      expectEnvelope(await get(server, '/v1/sim/jobs', { key: 'sk_a', query: { limit } }), 400, 'invalid_request');
    }
    expect((await get(server, '/v1/sim/jobs', { key: 'sk_a', query: { limit: '100' } })).status).toBe(200);
    expectEnvelope(
      await get(server, '/v1/sim/jobs', { key: 'sk_a', query: { cursor: 'garbage' } }),
      400,
      'invalid_cursor',
    );
    const cursor = (await get(server, '/v1/sim/jobs', { key: 'sk_a', query: { limit: '1' } })).body.page
      .nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    expect((await get(server, '/v1/sim/jobs', { key: 'sk_a', query: { cursor } })).body.jobs).toHaveLength(2);
    expectEnvelope(await get(server, '/v1/sim/jobs', { key: 'sk_b', query: { cursor } }), 400, 'invalid_cursor');
  });

  it('leaves out jobs past retention', async () => {
    await start();
    const a = await newJob(server);
    const b = await newJob(server);
    server.clock.advance(5000);
    server.expireRetention(a);
    expect((await get(server, '/v1/sim/jobs')).body.jobs.map((j: Json) => j.id)).toEqual([b]);
    server.clock.advance(8 * 86_400_000);
    expect((await get(server, '/v1/sim/jobs')).body.jobs).toEqual([]);
    expect((await record(b)).status).toBe('completed');
  });
});
