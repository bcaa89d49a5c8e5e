/** The artifact host (another origin), artifact URLs, retention, large bodies, redirects, and webhook delivery. */
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type ServerOptions, type TestServer } from './index.js';
import { call, expectEnvelope, expectResponsesValid, get, KEY, newJob, type Json } from './test-client.js';

let server: TestServer;

async function start(options: ServerOptions = {}): Promise<TestServer> {
  server = await startServer({ manualClock: true, runMs: 1000, ...options });
  return server;
}

afterEach(async () => {
  expectResponsesValid(server);
  await server.close();
});

/** A finished job's artifacts by kind. */
async function finished(
  extra: Record<string, unknown> = {},
  metadata?: Record<string, string>,
): Promise<{ id: string; artifacts: Record<string, Json> }> {
  const id = await newJob(server, extra, metadata);
  server.clock.advance(5000);
  const r = await get(server, `/v1/sim/jobs/${id}/result`);
  expect(r.status).toBe(200);
  return { id, artifacts: Object.fromEntries(r.body.result.artifacts.map((a: Json) => [a.kind, a])) };
}

describe('artifact host', () => {
  it('serves every artifact kind on another origin with its mime type, and never sees the API key', async () => {
    await start();
    const { artifacts } = await finished({
      profile: { text: 'mage="Niike"\niterations=999999\nprofileset.a+=x=1\n' },
      artifacts: { html: true, csv: true },
    });
    expect(Object.keys(artifacts).sort()).toEqual([
      'csv_report',
      'html_report',
      'input',
      'json_report',
      'stderr_log',
      'stdout_log',
    ]);
    expect(new URL(artifacts.json_report.url).origin).toBe(server.artifactUrl);
    expect(server.artifactUrl).not.toBe(server.url);
    for (const a of Object.values(artifacts)) {
      const res = await fetch(a.url, { headers: { 'user-agent': 'simjob-test' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(a.mimeType);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const json = (await (await fetch(artifacts.json_report.url)).json()) as Json;
    expect(json.sim.players[0].name).toBe('Niike');
    const csv = await (await fetch(artifacts.csv_report.url)).text();
    expect(csv.split('\n')[0]).toBe('name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev');
    expect(csv.split('\n').filter(Boolean)).toHaveLength(3);
    expect(await (await fetch(artifacts.input.url)).text()).toContain('iterations=250000');
    expect(server.artifactRequests.length).toBe(9);
    expect(server.artifactRequests.every((r) => r.headers['user-agent'] !== undefined)).toBe(true);
    expect(server.artifactRequests.some((r) => r.headers.authorization !== undefined)).toBe(false);
  });

  it('records an Authorization header if a client leaks one', async () => {
    await start();
    const { artifacts } = await finished();
    await fetch(artifacts.json_report.url, { headers: { authorization: `Bearer ${KEY}` } });
    expect(server.artifactRequests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('re-issues the URL through the API, then answers 410 / 404 after retention', async () => {
    await start();
    const { id, artifacts } = await finished();
    const a = artifacts.json_report;
    const url = await get(server, `/v1/sim/artifacts/${a.id}/url`);
    expect(url.status).toBe(200);
    expect(url.body).toEqual({ url: a.url });
    expectEnvelope(await get(server, '/v1/sim/artifacts/519253542012420096/url'), 404, 'not_found');
    const share = (await get(server, `/v1/sim/jobs/${id}`)).body.links;
    expect((await fetch(share.share)).status).toBe(200);
    expect((await fetch(share.manifest)).status).toBe(200);

    server.expireRetention(id);
    expectEnvelope(await get(server, `/v1/sim/artifacts/${a.id}/url`), 410, 'artifact_expired');
    const result = await get(server, `/v1/sim/jobs/${id}/result`);
    expect(result.status).toBe(200);
    expect(result.body.result.artifacts).toEqual([]);
    expect(result.body.result.summary).not.toBeNull();
    expect((await fetch(a.url)).status).toBe(404);
    expect((await fetch(share.share)).status).toBe(404);
    expect((await fetch(share.manifest)).status).toBe(404);
  });

  it('expires by the clock after retentionDays', async () => {
    await start({ retentionDays: 1 });
    const { artifacts } = await finished();
    server.clock.advance(86_400_000 - 10_000);
    expect((await get(server, `/v1/sim/artifacts/${artifacts.json_report.id}/url`)).status).toBe(200);
    server.clock.advance(10_000);
    expectEnvelope(await get(server, `/v1/sim/artifacts/${artifacts.json_report.id}/url`), 410, 'artifact_expired');
  });

  it("hides another client's artifacts", async () => {
    await start({ apiKeys: [KEY, 'sk_other'] });
    const { artifacts } = await finished();
    expectEnvelope(
      await get(server, `/v1/sim/artifacts/${artifacts.json_report.id}/url`, { key: 'sk_other' }),
      404,
      'not_found',
    );
  });

  it('streams a large JSON report of exactly the requested size, still valid JSON', async () => {
    await start();
    const size = 8 * 1024 * 1024 + 3;
    const { artifacts } = await finished({}, { 'test.artifactBytes': String(size) });
    const res = await fetch(artifacts.json_report.url);
    expect(res.headers.get('content-length')).toBe(String(size));
    const text = await res.text();
    expect(text.length).toBe(size);
    expect(JSON.parse(text).report_version).toBe('2.0.0');
    const gen = await fetch(`${server.artifactUrl}/gen/1000`);
    expect((await gen.arrayBuffer()).byteLength).toBe(1000);
  });

  it('answers the artifact URL with a redirect when asked to', async () => {
    await start();
    const { artifacts } = await finished({}, { 'test.redirect': 'true' });
    const first = await fetch(artifacts.json_report.url, { redirect: 'manual' });
    expect(first.status).toBe(302);
    const location = first.headers.get('location') ?? '';
    expect(location).toMatch(/\/blob\//);
    const followed = await fetch(artifacts.json_report.url);
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(location);
    expect(server.artifactRequests.map((r) => r.path.split('/')[1])).toEqual(['a', 'a', 'blob']);
  });

  it('injects faults on the artifact host', async () => {
    await start();
    const { artifacts } = await finished();
    server.inject({ target: 'artifacts', path: /\/a\//, status: 503, retryAfter: 1 });
    const failed = await fetch(artifacts.stdout_log.url);
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('1');
    expect((await fetch(artifacts.stdout_log.url)).status).toBe(200);
    expect((await get(server, '/v1/sim/usage')).status).toBe(200);
  });

  it('shows a state-aware share page before the job ends', async () => {
    await start();
    const id = await newJob(server);
    const share = await fetch(`${server.artifactUrl}/share/${id}`);
    expect(share.status).toBe(200);
    expect(await share.text()).toContain('pending');
    expect((await fetch(`${server.artifactUrl}/manifest/${id}/attempt-1.json`)).status).toBe(404);
  });
});

describe('webhooks', () => {
  it('delivers one signed job.terminal event to the configured URL', async () => {
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    let failFirst = true;
    const receiver = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      received.push({ headers: req.headers, body });
      res.statusCode = failFirst ? 503 : 204;
      failFirst = false;
      res.end();
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await start({ apiKeys: [{ key: KEY, webhook: { secret: 'whsec_test', url } }] });
      const id = await newJob(server, { webhook: { events: ['job.terminal'] } });
      const other = await newJob(server);
      server.clock.advance(5000);
      const answered = () => server.webhookDeliveries.filter((d) => d.status !== null).length;
      for (let i = 0; i < 100 && answered() < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(received).toHaveLength(2);
      const [a, b] = received;
      expect(a?.headers['x-service-event-id']).toBe(b?.headers['x-service-event-id']);
      expect(a?.headers['x-service-delivery-id']).not.toBe(b?.headers['x-service-delivery-id']);
      const event = JSON.parse(b?.body ?? '{}');
      expect(event).toEqual({
        kind: 'job.terminal',
        version: 'v1',
        timestamp: expect.any(String),
        payload: { id, status: 'completed', statusReason: null },
      });
      const sig = String(b?.headers['x-service-signature']);
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig);
      expect(m).not.toBeNull();
      expect(m?.[2]).toBe(createHmac('sha256', 'whsec_test').update(`${m?.[1]}.${b?.body}`).digest('hex'));
      expect(received.some((r) => r.body.includes(other))).toBe(false);
      expect(server.webhookDeliveries.map((d) => d.status)).toEqual([503, 204]);
    } finally {
      receiver.close();
    }
  });

  it('cancels by request fire the webhook too', async () => {
    await start({ apiKeys: [{ key: KEY, webhook: { secret: 's', url: 'http://127.0.0.1:1/unreachable' } }] });
    const id = await newJob(server, { webhook: { events: ['job.terminal'] } });
    await call(server, 'POST', `/v1/sim/jobs/${id}/cancel`);
    for (let i = 0; i < 100 && server.webhookDeliveries.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(server.webhookDeliveries[0]).toMatchObject({ jobId: id, status: null, error: expect.any(String) });
  });
});
