/**
 * The network and file boundaries under attack, end to end: the built CLI against the spec test server answering
 * with scripted outages, huge and trickling bodies, connections that never answer, and artifact URLs that point
 * where they must not. Every command ends within its limits with a one-line error and writes nothing it should not.
 */
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, isolatedDirs, simjob, type CliResult } from '../helpers/cli.js';
import { forwardProxy } from '../helpers/proxy.js';
import { startServer, type TestServer } from '../server/index.js';
import { cleanUp, localEnv, profileFile, quickProfile, type LocalEnv } from './local-helpers.js';
import { closedPort } from '../helpers/ports.js';

let server: TestServer;
let env: Record<string, string>;
const work = mkdtempSync(join(tmpdir(), 'simjob-boundaries-'));
const profile = join(work, 'fury.simc');
writeFileSync(profile, 'warrior="Fury"\nspec=fury\nlevel=90\n');
/** Short limits, so the attacks end in seconds: 1 s without a byte, 2 s per answer, 3 s of retries. */
const SHORT = { SIMJOB_HTTP_TIMEOUT: '1s', SIMJOB_HTTP_DEADLINE: '2s', SIMJOB_RETRY_BUDGET: '3s' };

beforeAll(async () => {
  server = await startServer({ queueMs: 20, runMs: 50 });
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});
beforeEach(() => {
  env = { ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' };
  server.clearFaults();
});
afterEach(() => {
  rmSync(dirname(env.SIMJOB_CONFIG_DIR!), { recursive: true, force: true });
});

async function finishedJob(extra: string[] = []): Promise<string> {
  const result = await simjob(['submit', profile, '--channel', 'nightly', '--json', ...extra], { env });
  expect(result.exitCode, result.stderr).toBe(0);
  const id = JSON.parse(result.stdout).id as string;
  await server.waitForJob(id);
  return id;
}

/** The error of a failed command: exactly one `Error:` line, nothing that looks like a stack trace. */
function errorLine(result: CliResult): string {
  const lines = result.stderr.trimEnd().split('\n');
  const errors = lines.filter((l) => l.startsWith('Error: '));
  expect(errors, result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return errors[0]!;
}

const submits = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/sim/jobs');

describe('retries by a budget of time', () => {
  it('submit against 503, 503, 429, 200 (Retry-After 1) succeeds with one job, one key, one notice per wait', async () => {
    server.script({ method: 'POST', path: '/v1/sim/jobs' }, [
      { status: 503, code: 'api_maintenance', retryAfter: 1 },
      { status: 503, retryAfter: 1 },
      { status: 429, retryAfter: 1 },
    ]);
    const before = submits().length;
    const jobsBefore = server.jobs.size;
    const result = await simjob(['submit', profile, '--channel', 'nightly', '--json'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    const sent = submits().slice(before);
    expect(sent.map((r) => r.status)).toEqual([503, 503, 429, 200]);
    expect(new Set(sent.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(server.jobs.size).toBe(jobsBefore + 1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'The service is unavailable (api_maintenance); retrying in 1 s…',
      'The service is unavailable (queue_unavailable); retrying in 1 s…',
      'Rate limited by the service (rate_limit_exceeded); retrying in 1 s…',
    ]);
  });

  it('stops at once on 401: exit 4, one request', async () => {
    const before = submits().length;
    const result = await simjob(['submit', profile, '--channel', 'nightly'], {
      env: { ...env, SIMJOB_API_KEY: 'sk_wrong' },
    });
    expect(result.exitCode).toBe(4);
    errorLine(result);
    expect(submits().length).toBe(before + 1);
  });

  it('stops at once on an answer that will not change (404)', async () => {
    const before = server.requests.length;
    const result = await simjob(['status', '519253542012420096'], { env });
    expect(result.exitCode).toBe(1);
    errorLine(result);
    expect(server.requests.length).toBe(before + 1);
  });

  it('retries a network failure until the budget is spent, then one error line', async () => {
    const dropped = server.inject({ method: 'GET', path: '/v1/sim/usage', status: 0, drop: true, times: Infinity });
    const result = await simjob(['usage'], { env: { ...env, SIMJOB_RETRY_BUDGET: '1s' } });
    dropped.remaining = 0;
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(
      /^Error: Cannot reach http:\/\/127\.0\.0\.1:\d+: .* \(\d+ attempts over [\d.]+ s\)\./,
    );
    expect(dropped.hits).toBeGreaterThan(1);
  });
});

describe('bounded reads', () => {
  it('refuses a 200 MB answer with a declared length, without reading it', async () => {
    server.inject({ method: 'GET', path: '/v1/sim/usage', status: 200, bodyBytes: 200 * 1024 * 1024 });
    const result = await simjob(['usage'], { env });
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(
      /^Error: The service's answer to GET \/v1\/sim\/usage is larger than 16 MB; simjob stopped reading it\./,
    );
  });

  it('stops reading a 200 MB answer sent without a length at the cap', async () => {
    server.inject({ method: 'GET', path: '/v1/sim/usage', status: 200, bodyBytes: 200 * 1024 * 1024, chunked: true });
    const result = await simjob(['usage'], { env });
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(/larger than 16 MB/);
  });

  it('cuts a huge error body and still explains the status', async () => {
    server.inject({ method: 'GET', path: '/v1/sim/usage', status: 400, bodyBytes: 200 * 1024 * 1024, chunked: true });
    const result = await simjob(['usage'], { env });
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(/HTTP 400/);
  });

  it('reads a result listing 10,000 profilesets in full (the cap has headroom)', async () => {
    const id = await finishedJob();
    server.inject({
      method: 'GET',
      path: `/v1/sim/jobs/${id}/result`,
      status: 200,
      mutate: (body) => {
        const record = body as { result: { summary: { mainActor: Record<string, unknown> } } };
        const results = Array.from({ length: 10_000 }, (_, i) => ({
          name: `profileset_${i}_with_a_longish_name`,
          mean: 100_000 - i,
          mean_error: 12.5,
          mean_stddev: 6.4,
          stage: 1,
        }));
        record.result.summary.mainActor.profilesets = { count: 10_000, results };
        return record;
      },
    });
    const result = await simjob(['result', id, '--json'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).result.summary.mainActor.profilesets.results).toHaveLength(10_000);
  });

  it('ends a body that trickles one byte inside every inactivity window at the deadline', async () => {
    const trickle = server.inject({
      method: 'GET',
      path: '/v1/sim/usage',
      status: 200,
      trickleMs: 200,
      times: Infinity,
    });
    const result = await simjob(['usage'], { env: { ...env, ...SHORT }, timeoutMs: 20_000 });
    trickle.remaining = 0;
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(
      /^Error: Cannot reach http:\/\/127\.0\.0\.1:\d+: no complete answer within [12] s \(\d attempts over [\d.]+ s\)\./,
    );
  });

  it('ends a connection that never answers', async () => {
    const hang = server.inject({ method: 'GET', path: '/v1/sim/usage', status: 0, hang: true, times: Infinity });
    const result = await simjob(['usage'], { env: { ...env, ...SHORT }, timeoutMs: 20_000 });
    hang.remaining = 0;
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(
      /^Error: Cannot reach .*: (the request timed out|no complete answer within 1 s) \(\d attempts over [\d.]+ s\)\./,
    );
  });
});

describe('--timeout', () => {
  it('bounds the request a wait makes: a trickling status answer is cut at the timeout, exit 8', async () => {
    const id = await finishedJob();
    // One byte every 200 ms: never idle long enough for the inactivity limit, and far from the 120 s deadline.
    const trickle = server.inject({ method: 'GET', path: /\/status$/, status: 200, trickleMs: 200, times: Infinity });
    // The command's own limit (60 s) is under the per-request deadline: only --timeout can end it with exit 8.
    const result = await simjob(['status', id, '--wait', '--timeout', '2s'], { env, timeoutMs: 60_000 });
    trickle.remaining = 0;
    expect(trickle.hits).toBeGreaterThan(0);
    expect(result.exitCode, result.stderr).toBe(8);
    expect(errorLine(result)).toMatch(new RegExp(`^Error: Job ${id} is still not finished after 2 s\\.`));
  });
});

describe('artifact URL rules', () => {
  /** The finished job's result with its artifacts rewritten by `edit`. */
  function rewriteArtifacts(
    id: string,
    edit: (artifacts: Array<Record<string, unknown>>) => Array<Record<string, unknown>>,
  ) {
    server.inject({
      method: 'GET',
      path: `/v1/sim/jobs/${id}/result`,
      status: 200,
      times: Infinity,
      mutate: (body) => {
        const record = body as { result: { artifacts: Array<Record<string, unknown>> } };
        record.result.artifacts = edit(record.result.artifacts);
        return record;
      },
    });
  }

  for (const url of [
    'file:///etc/passwd',
    'ftp://127.0.0.1/report.json',
    'data:application/json,{}',
    'http://example.invalid/report.json',
  ]) {
    it(`refuses a remote artifact at ${url.split(':')[0]}:${url.startsWith('http') ? ' to a non-loopback host' : ''} and writes nothing`, async () => {
      const id = await finishedJob();
      rewriteArtifacts(id, (list) => list.map((a) => (a.kind === 'json_report' ? { ...a, url } : a)));
      const out = join(work, `refused-${Date.now()}`);
      const result = await simjob(['artifacts', id, '--download', '-o', out], { env });
      expect(result.exitCode).toBe(1);
      expect(errorLine(result)).toMatch(/^Error: Refusing to download json_report \(.+\): its URL is /);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('result --all refuses a JSON report at a file: URL', async () => {
    const result1 = await simjob(
      ['submit', profile, '--channel', 'nightly', '--json', '--meta', 'test.profilesets=300'],
      { env },
    );
    const id = JSON.parse(result1.stdout).id as string;
    await server.waitForJob(id);
    rewriteArtifacts(id, (list) =>
      list.map((a) => (a.kind === 'json_report' ? { ...a, url: 'file:///etc/passwd' } : a)),
    );
    const result = await simjob(['result', id, '--all'], { env });
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(/^Error: Refusing to download the JSON report \(.+\): its URL is a file: URL/);
  });

  it('gives two artifacts of the same kind and stage distinct file names', async () => {
    const id = await finishedJob();
    rewriteArtifacts(id, (list) => {
      const report = list.find((a) => a.kind === 'json_report')!;
      return [report, { ...report, id: 'art_second_copy' }];
    });
    const out = mkdtempSync(join(work, 'dupes-'));
    const result = await simjob(['artifacts', id, '--download', '-o', out, '--json'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['json_report-art_second_copy.json', 'json_report.json']);
  });
});

/**
 * Redirects of the artifact host, without a proxy and through HTTP_PROXY: the same rules per hop, the same limit and
 * the same error lines on both.
 */
describe('artifact redirects', () => {
  let proxy: Awaited<ReturnType<typeof forwardProxy>>;
  beforeAll(async () => {
    proxy = await forwardProxy();
  });
  afterAll(() => proxy.close());

  const label = (id: string) =>
    `json_report (${server.jobs.get(id)!.result!.artifacts.find((a) => a.kind === 'json_report')!.id})`;

  for (const via of ['without a proxy', 'through a proxy'] as const) {
    const withProxy = () => (via === 'through a proxy' ? { ...env, HTTP_PROXY: proxy.url } : env);

    it(`follows a redirect to an allowed URL, ${via}, never sending the API key`, async () => {
      const id = await finishedJob(['--meta', 'test.redirect=true']);
      const before = server.artifactRequests.length;
      const relayed = proxy.seen.length;
      const out = mkdtempSync(join(work, 'redirected-'));
      const result = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '-o', out], {
        env: withProxy(),
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(readFileSync(join(out, 'json_report.json'), 'utf8')).sim).toBeDefined();
      const hops = server.artifactRequests.slice(before);
      expect(hops.map((r) => [r.path.split('/')[1], r.status])).toEqual([
        ['a', 302],
        ['blob', 200],
      ]);
      for (const hop of hops) expect(hop.headers.authorization).toBeUndefined();
      expect(proxy.seen.length > relayed).toBe(via === 'through a proxy');
    });

    it(`refuses a redirect to a file: URL, ${via}, and leaves no partial file`, async () => {
      const id = await finishedJob();
      server.inject({
        method: 'GET',
        path: /^\/a\//,
        status: 302,
        target: 'artifacts',
        headers: { location: 'file:///etc/passwd' },
        body: '',
      });
      const out = mkdtempSync(join(work, 'redirect-'));
      const result = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '-o', out], {
        env: withProxy(),
      });
      expect(result.exitCode).toBe(1);
      expect(errorLine(result)).toBe(
        `Error: Refusing to download ${label(id)}: it redirects to a URL that is refused (a file: URL, and a remote job's artifacts are fetched over https: only). ` +
          'Nothing was written. The job record lists an artifact URL simjob will not follow; report it to the service operator.',
      );
      expect(readdirSync(out)).toEqual([]);
    });

    it(`names the host and the failure when a hop cannot be reached, ${via}`, async () => {
      const id = await finishedJob();
      const closed = await closedPort();
      server.inject({
        method: 'GET',
        path: /^\/a\//,
        status: 302,
        target: 'artifacts',
        headers: { location: `http://127.0.0.1:${closed}/report.json` },
        body: '',
      });
      const out = mkdtempSync(join(work, 'unreachable-'));
      const result = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '-o', out], {
        env: withProxy(),
      });
      expect(result.exitCode).toBe(1);
      // The same line; only the failure differs, as seen from here: the proxy, not the host, answers through a proxy.
      const failure =
        via === 'through a proxy'
          ? `the proxy refused to connect to 127.0.0.1:${closed} (HTTP 502)`
          : 'connection refused';
      expect(errorLine(result)).toBe(
        `Error: Cannot download ${label(id)} from http://127.0.0.1:${closed}: ${failure}. Check your connection and try again.`,
      );
      expect(readdirSync(out)).toEqual([]);
    });

    it(`stops after 5 redirects, ${via}, and leaves no partial file`, async () => {
      const id = await finishedJob();
      // A relative Location, resolved against the URL that answered it: back to the artifact host, every time.
      const loop = server.inject({
        method: 'GET',
        path: /^\/a\//,
        status: 302,
        target: 'artifacts',
        headers: { location: '/a/again/report.json' },
        body: 'moved',
        times: Infinity,
      });
      const out = mkdtempSync(join(work, 'loop-'));
      const result = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '-o', out], {
        env: withProxy(),
      });
      loop.remaining = 0;
      expect(result.exitCode).toBe(1);
      expect(errorLine(result)).toBe(`Error: Too many redirects downloading ${label(id)}.`);
      expect(loop.hits).toBe(6);
      expect(readdirSync(out)).toEqual([]);
    });
  }
});

/** A self-signed certificate for localhost and 127.0.0.1, made once: its key and the path of its PEM (to trust it). */
let selfSigned: { key: Buffer; cert: Buffer; certFile: string } | undefined;
function certificate(): NonNullable<typeof selfSigned> {
  if (selfSigned) return selfSigned;
  const keyFile = join(work, 'key.pem');
  const certFile = join(work, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return (selfSigned = { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile });
}

describe('an https API', () => {
  let front: HttpsServer;
  let port = 0;
  beforeAll(async () => {
    // TLS in front of the test server: each request passed on as it came, each answer passed back.
    front = createHttpsServer(certificate(), (req, res) => {
      const upstream = httpRequest(
        new URL(req.url ?? '/', server.url),
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    port = (front.address() as { port: number }).port;
  });
  afterAll(async () => {
    front.closeAllConnections();
    await new Promise((resolve) => front.close(resolve));
  });

  it('submits, polls and reads a job over TLS from a host it trusts, by name and by address', async () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const tls = { ...env, SIMJOB_BASE_URL: `https://${host}:${port}`, NODE_EXTRA_CA_CERTS: certificate().certFile };
      const submitted = await simjob(['submit', profile, '--channel', 'nightly', '--json'], { env: tls });
      expect(submitted.exitCode, submitted.stderr).toBe(0);
      const id = JSON.parse(submitted.stdout).id as string;
      const status = await simjob(['status', id, '--json', '--wait'], { env: tls });
      expect(status.exitCode, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout).status).toBe('completed');
    }
  });

  it('refuses a certificate it does not trust, sending nothing', async () => {
    const before = server.requests.length;
    const result = await simjob(['usage'], {
      env: { ...env, SIMJOB_BASE_URL: `https://localhost:${port}`, SIMJOB_RETRY_BUDGET: '0s' },
    });
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(/^Error: Cannot reach https:\/\/localhost:\d+: self[- ]signed certificate/);
    expect(server.requests.length).toBe(before);
  });
});

describe('an https artifact host', () => {
  let host: HttpsServer;
  let cert: string;
  beforeAll(async () => {
    cert = certificate().certFile;
    host = createHttpsServer(certificate(), (_req, res) => {
      const body = Buffer.alloc(3 * 1024 * 1024 + 7, 'y');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(body);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    host.closeAllConnections();
    await new Promise((resolve) => host.close(resolve));
  });

  async function jobServedOverHttps(): Promise<string> {
    const id = await finishedJob();
    const url = `https://localhost:${(host.address() as { port: number }).port}/report.json`;
    server.inject({
      method: 'GET',
      path: `/v1/sim/jobs/${id}/result`,
      status: 200,
      times: Infinity,
      mutate: (body) => {
        const record = body as { result: { artifacts: Array<Record<string, unknown>> } };
        record.result.artifacts = record.result.artifacts
          .filter((a) => a.kind === 'json_report')
          .map((a) => ({ ...a, url }));
        return record;
      },
    });
    return id;
  }

  it('downloads over TLS from a host it trusts', async () => {
    const id = await jobServedOverHttps();
    const out = mkdtempSync(join(work, 'tls-'));
    const result = await simjob(['artifacts', id, '--download', '-o', out], {
      env: { ...env, NODE_EXTRA_CA_CERTS: cert },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(join(out, 'json_report.json')).length).toBe(3 * 1024 * 1024 + 7);
    expect(result.stderr).toContain('json_report.json (3,145,735 bytes)');
  });

  it('refuses a certificate it does not trust, and writes nothing', async () => {
    const id = await jobServedOverHttps();
    const out = mkdtempSync(join(work, 'untrusted-'));
    const result = await simjob(['artifacts', id, '--download', '-o', out], { env });
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(
      /^Error: Cannot download json_report .* from https:\/\/localhost:\d+: self[- ]signed certificate/,
    );
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('existing files and partial files', () => {
  it('keeps an existing file unless --clobber, skips it with --skip-existing', async () => {
    const id = await finishedJob();
    const out = mkdtempSync(join(work, 'exists-'));
    const target = join(out, 'json_report.json');
    writeFileSync(target, 'mine');
    const args = ['artifacts', id, '--download', '--kind', 'json_report', '-o', out];

    const refused = await simjob(args, { env });
    expect(refused.exitCode).toBe(2);
    expect(errorLine(refused)).toBe(
      `Error: ${target} already exists. Use --clobber to overwrite it, --skip-existing to keep it, or -o to choose another folder.`,
    );
    expect(readFileSync(target, 'utf8')).toBe('mine');

    const skipped = await simjob([...args, '--skip-existing'], { env });
    expect(skipped.exitCode).toBe(0);
    expect(skipped.stderr).toMatch(/Skipped json_report .*already exists/);
    expect(readFileSync(target, 'utf8')).toBe('mine');

    const both = await simjob([...args, '--skip-existing', '--clobber'], { env });
    expect(both.exitCode).toBe(2);

    const clobbered = await simjob([...args, '--clobber'], { env });
    expect(clobbered.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(target, 'utf8')).sim).toBeDefined();
    expect(readdirSync(out)).toEqual(['json_report.json']);
  });

  it("a --dir that is a file is the user's to fix: one line, exit 2, the file untouched", async () => {
    const id = await finishedJob();
    const file = join(mkdtempSync(join(work, 'dir-is-file-')), 'notes.txt');
    writeFileSync(file, 'mine');
    const result = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '--dir', file], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `Error: --dir ${file} is a file, not a folder. Give a folder to download into (made if missing).\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });

  it('leaves no partial file when the download stalls past its deadline', async () => {
    const id = await finishedJob();
    server.inject({ method: 'GET', path: /^\/a\//, status: 200, target: 'artifacts', trickleMs: 100 });
    const out = mkdtempSync(join(work, 'stall-'));
    const result = await simjob(['artifacts', id, '--download', '--kind', 'json_report', '-o', out], {
      env: { ...env, SIMJOB_DOWNLOAD_DEADLINE: '1s' },
    });
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(/^Error: Download of json_report .* failed: no complete answer within 1 s\./);
    expect(readdirSync(out)).toEqual([]);
  });

  it('leaves no partial file after Ctrl-C', async () => {
    const id = await finishedJob();
    server.inject({ method: 'GET', path: /^\/a\//, status: 200, target: 'artifacts', trickleMs: 50 });
    const out = mkdtempSync(join(work, 'interrupted-'));
    const child = execa(process.execPath, [BIN, 'artifacts', id, '--download', '--kind', 'json_report', '-o', out], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
    });
    // Interrupt once the partial file exists.
    for (let i = 0; i < 200 && readdirSync(out).length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(readdirSync(out)[0]).toMatch(/^\.json_report\.json\.[0-9a-f]+\.partial$/);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('local artifacts', () => {
  let local: LocalEnv | undefined;
  afterEach(async () => {
    if (local) await cleanUp(local);
    local = undefined;
  });

  it('refuses a local artifact whose file is a symlink out of the job folder', async () => {
    local = localEnv();
    const submitted = await simjob(
      ['submit', profileFile(local, 'q.simc', quickProfile('Q')), '--local', '--wait', '--json'],
      { env: local, timeoutMs: 60_000 },
    );
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const id = JSON.parse(submitted.stdout).id as string;
    const root = dirname(local.SIMJOB_DATA_DIR);
    const secret = join(root, 'secret.txt');
    writeFileSync(secret, 'not yours');
    const input = join(local.SIMJOB_DATA_DIR, 'jobs', id, 'input.simc');
    rmSync(input);
    symlinkSync(secret, input);
    const out = join(root, 'out');
    mkdirSync(out);
    const result = await simjob(['artifacts', id, '--download', '--kind', 'input', '-o', out], { env: local });
    expect(result.exitCode).toBe(1);
    expect(errorLine(result)).toMatch(
      /^Error: Refusing to download input \(.+\): its file lies outside the job folder\./,
    );
    expect(readdirSync(out)).toEqual([]);
  }, 60_000);
});
