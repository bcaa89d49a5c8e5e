/**
 * The library in-process (src/core), as a bot or guild tool calls it: a client of the test server and a local client
 * of the stand-in simc, with the same calls; typed errors; and not one byte written to stdout or stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  AuthError,
  createClient,
  createLocalClient,
  FileExists,
  JobUnsuccessfulError,
  planStatWeights,
  statWeights,
  UsageError,
  WaitTimeoutError,
  type Client,
  type StatusRecord,
} from '../../src/index.js';
import { startServer, type TestServer } from '../server/index.js';
import { cleanUp, FAKE_SIMC, localEnv, quickProfile, type LocalEnv } from '../e2e/local-helpers.js';
import { tempDir } from '../helpers/temp.js';

const PROFILE = 'warrior="Fury"\nspec=fury\nlevel=90\nprofileset."a"=talents=A\nprofileset."b"=talents=B\n';

let server: TestServer;
let remote: Client;
const written: string[] = [];

beforeAll(async () => {
  server = await startServer({ queueMs: 50, runMs: 300 });
  remote = createClient({ baseUrl: server.url, apiKey: 'sk_test_good' });
});
afterAll(async () => {
  await remote.close();
  await server.close();
});

// Whatever the library does, it prints nothing: every write to the process's streams is caught and must not happen.
const spies = [process.stdout, process.stderr].map((stream) =>
  vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }),
);
afterEach(() => {
  expect(written.join('')).toBe('');
  written.length = 0;
});
afterAll(() => spies.forEach((spy) => spy.mockRestore()));

describe('a client of the service', () => {
  it('submits, waits with progress, and reads the result, the job and its artifacts', async () => {
    const { id, replay, response } = await remote.submit(PROFILE, { channel: 'nightly', metadata: { guild: 'x' } });
    expect(id).toMatch(/^\d+$/);
    expect(replay).toBe(false);
    expect(response.success).toBe(true);
    const seen: StatusRecord[] = [];
    const last = await remote.wait(id, { onProgress: (status) => seen.push(status) });
    expect(last.status).toBe('completed');
    expect(seen.at(-1)).toEqual(last);
    expect((await remote.status(id)).status).toBe('completed');
    const result = await remote.result(id);
    expect(result.metadata).toEqual({ guild: 'x' });
    expect(result.result.summary?.mainActor?.profilesets?.results.map((p) => p.name).sort()).toEqual(['a', 'b']);
    expect((await remote.job(id)).id).toBe(id);

    const artifacts = await remote.artifacts(id);
    const report = artifacts.find((a) => a.kind === 'json_report')!;
    const target = join(tempDir('simjob-lib-'), 'report.json');
    expect(await remote.download(id, report, target)).toBe(target);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toHaveProperty('sim');
    await expect(remote.download(id, report, target)).rejects.toBeInstanceOf(FileExists);
    await remote.download(id, report, target, { overwrite: true });
  });

  it('gives the same job for the same idempotency key, lists, cancels, and reads builds and usage', async () => {
    const first = await remote.submit(PROFILE, { idempotencyKey: 'lib-key-1', metadata: { 'test.queueMs': '60000' } });
    const again = await remote.submit(PROFILE, { idempotencyKey: 'lib-key-1', metadata: { 'test.queueMs': '60000' } });
    expect(again).toMatchObject({ id: first.id, replay: true });
    expect((await remote.list({ limit: 50 })).jobs.map((j) => j.id)).toContain(first.id);
    expect((await remote.cancel(first.id)).status).toBe('cancelled');
    const ended = await remote.result(first.id);
    expect(ended).toMatchObject({ id: first.id, status: 'cancelled', result: { summary: null, artifacts: [] } });
    expect((await remote.builds()).builds.length).toBeGreaterThan(0);
    expect((await remote.usage()).snapshot).toBeTruthy();
  });

  it('throws typed errors: a bad key, an unknown job, a wait that times out or is aborted, a failed run', async () => {
    const stranger = createClient({ baseUrl: server.url, apiKey: 'sk_test_revoked' });
    const refused = await stranger.status('1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 401, exitCode: 4 });
    await expect(remote.status('999999999')).rejects.toMatchObject({ status: 404, code: 'not_found' });

    const slow = await remote.submit(PROFILE, { metadata: { 'test.queueMs': '60000' } });
    await expect(remote.wait(slow.id, { timeoutMs: 50 })).rejects.toBeInstanceOf(WaitTimeoutError);
    const stop = new AbortController();
    const waiting = remote.wait(slow.id, { signal: stop.signal });
    stop.abort(new Error('stopped by the bot'));
    await expect(waiting).rejects.toThrow('stopped by the bot');
    await remote.cancel(slow.id);

    await expect(remote.run(PROFILE, { metadata: { 'test.outcome': 'failed' } })).rejects.toBeInstanceOf(
      JobUnsuccessfulError,
    );
    expect(() => createClient({ baseUrl: server.url } as never)).toThrow(UsageError);
    await expect(createClient({ baseUrl: `${server.url}/v1`, apiKey: 'k' }).usage()).rejects.toBeInstanceOf(UsageError);
    await expect(remote.submit('')).rejects.toBeInstanceOf(UsageError);
    await expect(createClient({ baseUrl: server.url, apiKey: ' ' }).usage()).rejects.toBeInstanceOf(AuthError);
  });
});

describe('a client from the environment', () => {
  it('reads the base URL and key as the CLI does, and only when asked', async () => {
    const config = tempDir('simjob-lib-');
    const client = createClient.fromEnvironment({
      env: { SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good', SIMJOB_CONFIG_DIR: config },
    });
    expect((await client.usage()).snapshot).toBeTruthy();
    await client.close();
    const none = (() => {
      try {
        return createClient.fromEnvironment({ env: { SIMJOB_CONFIG_DIR: config } });
      } catch (error) {
        return error;
      }
    })();
    expect(none).toBeInstanceOf(UsageError);
    expect((none as Error).message).toBe('No API base URL is set.');
  });
});

describe('a local client', () => {
  let env: LocalEnv;
  afterEach(async () => {
    if (env) await cleanUp(env);
  });

  it('runs a job through the stand-in simc with the same calls, and its files download', async () => {
    env = localEnv();
    const local = createClient({
      local: true,
      simc: FAKE_SIMC,
      dataDir: env.SIMJOB_DATA_DIR,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    expect(local.kind).toBe('local');
    const seen: string[] = [];
    const result = await local.run(quickProfile('Lib', ['profileset."x"=talents=X']), {
      artifacts: { html: true },
      onProgress: (status) => seen.push(status.status),
    });
    expect(result.id).toMatch(/^local-/);
    expect(result.status).toBe('completed');
    expect(seen.at(-1)).toBe('completed');
    expect(result.result.summary?.mainActor?.name).toBe('Lib');
    const kinds = (await local.artifacts(result.id)).map((a) => a.kind);
    expect(kinds).toEqual(expect.arrayContaining(['json_report', 'html_report']));
    const html = (await local.artifacts(result.id)).find((a) => a.kind === 'html_report')!;
    const target = join(tempDir('simjob-lib-'), 'report.html');
    await local.download(result.id, html, target);
    expect(existsSync(target)).toBe(true);

    expect((await local.list()).jobs.map((j) => j.id)).toEqual([result.id]);
    expect((await local.builds()).builds[0]).toMatchObject({ path: FAKE_SIMC, simcVersion: expect.any(String) });
    expect((await local.usage()).snapshot).toMatchObject({ queuedJobs: 0 });
    await expect(local.status('local-000000000000000000')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reads stat weights by either method, the scale factors from the downloaded report', async () => {
    env = localEnv();
    const local = createLocalClient({ simc: FAKE_SIMC, dataDir: env.SIMJOB_DATA_DIR });
    const character = quickProfile('Weighed');
    const byProfilesets = planStatWeights(character);
    const first = await local.run(byProfilesets.text, { metadata: byProfilesets.metadata });
    expect(statWeights(first)?.weights.map((w) => w.stat)).toEqual(
      expect.arrayContaining(['strength', 'crit', 'haste', 'mastery', 'vers']),
    );
    const byScale = planStatWeights(character, { method: 'scale', stats: 'crit,haste' });
    const second = await local.run(byScale.text, { metadata: byScale.metadata });
    expect(statWeights(second)).toBeUndefined(); // not in the summary: in the report
    const weights = await local.statWeights(second);
    expect(weights).toMatchObject({ method: 'scale', character: { name: 'Weighed' } });
    expect(weights?.weights.map((w) => w.stat).sort()).toEqual(['crit', 'haste']);
    expect(weights?.pawn).toMatch(/^\( Pawn: v1: "Weighed/);
  });

  it('refuses a missing simc and a missing data dir with one-line usage errors', async () => {
    env = localEnv();
    const missing = createLocalClient({ dataDir: env.SIMJOB_DATA_DIR, simc: join(env.SIMJOB_DATA_DIR, 'nope') });
    const error = await missing.submit(quickProfile('Nope')).catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 2, message: expect.stringContaining('does not exist') });
    expect(() => createLocalClient({ dataDir: '' })).toThrow(UsageError);
  });
});
