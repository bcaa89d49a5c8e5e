/** The base URL is the API root: one ending in /v1 is refused up front, and a 404 from a fixed endpoint blames it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs, simjob } from '../helpers/cli.js';
import { profileFile } from './wait-helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('a base URL ending in /v1', () => {
  it('config set refuses it with the URL to use, exit 2, and stores nothing', async () => {
    const env = isolatedDirs();
    const set = await simjob(['config', 'set', 'base_url', `${server.url}/v1`, '--profile', 'v1p'], { env });
    expect(set.exitCode).toBe(2);
    expect(set.stderr).toBe(
      `Error: base_url must be the API root, without /v1 (got "${server.url}/v1"): simjob adds /v1/sim/… itself. Use ${server.url} instead.\n`,
    );
    const get = await simjob(['config', 'get', 'base_url', '--profile', 'v1p'], { env });
    expect(get.stdout).toBe('');
  });

  it('--base-url and SIMJOB_BASE_URL are refused the same way, before any request', async () => {
    const before = server.requests.length;
    const env = { ...isolatedDirs(), SIMJOB_API_KEY: 'sk_test_good' };
    const flag = await simjob(['usage', '--base-url', `${server.url}/v1/`], { env });
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toBe(
      `Error: --base-url must be the API root, without /v1 (got "${server.url}/v1/"): simjob adds /v1/sim/… itself. Use ${server.url} instead.\n`,
    );
    const login = await simjob(['login'], {
      env: { ...isolatedDirs(), SIMJOB_BASE_URL: `${server.url}/v1` },
      input: 'sk_test_good\n',
    });
    expect(login.exitCode).toBe(2);
    expect(login.stderr).toBe(
      `Error: SIMJOB_BASE_URL must be the API root, without /v1 (got "${server.url}/v1"): simjob adds /v1/sim/… itself. Use ${server.url} instead.\n`,
    );
    expect(server.requests.length).toBe(before);
  });
});

describe('a 404 from an endpoint that always exists', () => {
  const env = () => ({ ...isolatedDirs(), SIMJOB_BASE_URL: `${server.url}/api`, SIMJOB_API_KEY: 'sk_test_good' });

  it('says the base URL looks wrong and shows the URL requested (usage, builds, jobs, submit), never the key', async () => {
    for (const [args, method, path] of [
      [['usage'], 'GET', '/api/v1/sim/usage'],
      [['builds'], 'GET', '/api/v1/sim/builds'],
      [['jobs'], 'GET', '/api/v1/sim/jobs'],
      [['submit', profileFile(), '--channel', 'nightly'], 'POST', '/api/v1/sim/jobs'],
    ] as const) {
      const r = await simjob([...args], { env: env() });
      expect(r.exitCode, r.stderr).toBe(1);
      const error = r.stderr.split('\n').find((l) => l.startsWith('Error: '));
      expect(error).toBe(
        `Error: Not found: ${method} ${server.url}${path} (not_found, HTTP 404) (No route for ${method} ${path}). The base URL looks wrong. ` +
          'Set the API root, the part before /v1/ (e.g. https://api.example.com): `simjob config set base_url URL`, SIMJOB_BASE_URL or --base-url.',
      );
      expect(r.stderr + r.stdout).not.toContain('sk_test_good');
    }
  });

  it('a 404 for a job still says to check the id', async () => {
    const r = await simjob(['status', '519253542012420096'], { env: { ...env(), SIMJOB_BASE_URL: server.url } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/Check the id; jobs past their retention are no longer listed\./);
  });
});
