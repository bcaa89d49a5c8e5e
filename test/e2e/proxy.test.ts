import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs, simjob } from '../helpers/cli.js';
import { droppingProxy, forwardProxy } from '../helpers/proxy.js';

let server: TestServer;
let proxy: Awaited<ReturnType<typeof forwardProxy>>;
beforeAll(async () => {
  server = await startServer();
  proxy = await forwardProxy();
});
afterAll(async () => {
  proxy.close();
  await server.close();
});

describe('HTTP(S)_PROXY', () => {
  it('sends API requests through the proxy when one is configured', async () => {
    const env = {
      ...isolatedDirs(),
      SIMJOB_BASE_URL: server.url,
      SIMJOB_API_KEY: 'sk_test_good',
      HTTP_PROXY: proxy.url,
    };
    const result = await simjob(['usage', '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).limits).toBeDefined();
    expect(proxy.seen).toContain(`CONNECT ${new URL(server.url).host}`);
  });

  it('refuses a proxy variable that is not an http:// or https:// URL, in one line naming the variable', async () => {
    const env = {
      ...isolatedDirs(),
      SIMJOB_BASE_URL: server.url,
      SIMJOB_API_KEY: 'sk_test_good',
      HTTP_PROXY: 'proxy:3128',
    };
    const result = await simjob(['usage'], { env: { ...env, SIMJOB_RETRY_BUDGET: '0s' } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^Error: Cannot reach the proxy .*: HTTP_PROXY is not an http:\/\/ or https:\/\/ URL\./m,
    );
  });

  it('goes direct without one', async () => {
    const before = proxy.seen.length;
    const env = { ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' };
    expect((await simjob(['usage'], { env })).exitCode).toBe(0);
    expect(proxy.seen.length).toBe(before);
  });

  it('gives up within the retry budget, naming the proxy, when the proxy drops every CONNECT unanswered', async () => {
    const dropping = await droppingProxy();
    try {
      const env = {
        ...isolatedDirs(),
        SIMJOB_BASE_URL: server.url,
        SIMJOB_API_KEY: 'sk_test_good',
        HTTP_PROXY: dropping.url,
        SIMJOB_HTTP_TIMEOUT: '1s',
        SIMJOB_RETRY_BUDGET: '1s',
        SIMJOB_HTTP_DEADLINE: '10m',
      };
      const result = await simjob(['usage'], { env, timeoutMs: 30_000 });
      expect(result.exitCode, result.stderr).toBe(1);
      expect(result.stderr).toMatch(
        /^Error: Cannot reach the proxy 127\.0\.0\.1:\d+ \(from HTTP_PROXY\) on the way to http:\/\/127\.0\.0\.1:\d+: the proxy closed the connection instead of tunnelling to 127\.0\.0\.1:\d+/m,
      );
      const [error, ...notices] = result.stderr.trimEnd().split('\n').reverse();
      expect(error).toMatch(/^Error: /);
      for (const notice of notices) expect(notice).toMatch(/^Cannot reach the proxy .*; retrying in /);
      expect(dropping.connects()).toBeGreaterThan(0);
    } finally {
      dropping.close();
    }
  });
});
