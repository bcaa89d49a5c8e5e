/**
 * A service (or proxy) that is not there: a refused connection before the service has ever answered fails fast,
 * with one line that names what could not be reached; a service that dies during a wait is ridden out quietly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs, simjob } from '../helpers/cli.js';
import { profileFile, spawnCli, userEnv } from './wait-helpers.js';
import { closedPort } from '../helpers/ports.js';

let server: TestServer;
let closed: number;
beforeAll(async () => {
  server = await startServer();
  closed = await closedPort();
});
afterAll(async () => {
  await server.close();
});

/** Without SIMJOB_RETRY_BUDGET: the default budget (2 min) is what a fast failure must not wait out. */
const unreachableEnv = () => ({
  ...isolatedDirs(),
  SIMJOB_BASE_URL: `http://127.0.0.1:${closed}`,
  SIMJOB_API_KEY: 'sk_test_good',
});

describe('a refused connection before the service ever answered', () => {
  it('one quick retry, then one error line saying what to check, exit 1', async () => {
    const r = await simjob(['usage'], { env: unreachableEnv() });
    expect(r.exitCode).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(`^Cannot reach http://127\\.0\\.0\\.1:${closed} \\(connection refused\\); retrying in \\d+ ms…$`),
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^Error: Cannot reach http://127\\.0\\.0\\.1:${closed}: connection refused \\(2 attempts over [\\d.]+ s\\)\\. ` +
          'Check the base URL \\(`simjob config get base_url`\\) and that the service is up, then try again\\.$',
      ),
    );
  });

  it('--quiet hides the retry notice, not the error', async () => {
    const r = await simjob(['usage', '--quiet'], { env: unreachableEnv() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^Error: Cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused \(2 attempts over [\d.]+ s\)\. [^\n]*\n$/,
    );
  });

  it('submit: nothing got through, so no idempotency key to recover with', async () => {
    const r = await simjob(['submit', profileFile(), '--channel', 'nightly', '-q'], { env: unreachableEnv() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      /^Error: Cannot reach .*: connection refused \(2 attempts over [\d.]+ s\)\. Check the base URL/,
    );
    expect(r.stderr).not.toContain('idempotency');
  });

  it('status --wait: a wrong address is not an outage to wait through', async () => {
    const r = await simjob(['status', '519253542012420096', '--wait'], { env: unreachableEnv() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('Polling failed');
    expect(r.stderr).toMatch(
      /\nError: Cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused\. Check the base URL/,
    );
  });
});

describe('a proxy that is not there', () => {
  it('is named (host and port, never its credentials), with the proxy variables to check; --debug shows it on each request', async () => {
    const env = { ...userEnv(server), HTTP_PROXY: `http://proxyuser:pr0xy-secret@127.0.0.1:${closed}` };
    const r = await simjob(['usage', '--debug'], { env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`→ GET ${server.url}/v1/sim/usage via the proxy 127.0.0.1:${closed} (HTTP_PROXY)\n`);
    expect(r.stderr).toContain(`Cannot reach the proxy 127.0.0.1:${closed} (connection refused); retrying in `);
    expect(r.stderr).toMatch(
      new RegExp(
        `\\nError: Cannot reach the proxy 127\\.0\\.0\\.1:${closed} \\(from HTTP_PROXY\\) on the way to ${server.url.replace(/\./g, '\\.')}: ` +
          'connection refused \\(2 attempts over [\\d.]+ s\\)\\. Check HTTPS_PROXY / HTTP_PROXY, or list the host in NO_PROXY to go direct\\.\\n',
      ),
    );
    expect(r.stderr).not.toMatch(/pr0xy-secret|proxyuser/);
  });
});

describe('the service dies during submit --wait', () => {
  it('one line when polling starts failing, no retry flood, and Ctrl-C says how to pick the job up', async () => {
    const dying = await startServer({ runMs: 600_000 });
    let open = true;
    const live = spawnCli(['submit', profileFile(), '--channel', 'nightly', '--wait'], {
      ...userEnv(dying),
      SIMJOB_DEBUG: '1',
    });
    try {
      await live.waitForStderr(/^\[0:0\d\] /m);
      await dying.close();
      open = false;
      // two failed polls (the second after the outage's first backoff): what a flood would already show
      await live.waitForStderr(/← connection refused[^]*← connection refused/);
      const id = /Submitted job (\d+)/.exec(live.stderr())?.[1];
      expect(live.stderr().match(/^Polling failed/gm)).toEqual(['Polling failed']);
      expect(live.stderr()).toMatch(
        /^Polling failed \(Cannot reach http:\/\/127\.0\.0\.1:\d+: connection refused\); retrying in 2 s\. The job is unaffected\.$/m,
      );
      expect(live.stderr()).not.toMatch(/^Cannot reach .*retrying in/m);
      live.process.kill('SIGINT');
      const run = await live.done;
      expect(run.exitCode).toBe(130);
      expect(run.stderr).toContain(`Pick it up again with: simjob status ${id} --wait`);
    } finally {
      live.process.kill('SIGKILL');
      await live.done;
      if (open) await dying.close();
    }
  });
});
