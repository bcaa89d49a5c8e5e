/**
 * `npm run try-server`: the bundled test service, and the two lines it prints are all a remote command needs; with
 * --webhook-url, `submit --webhook` sends its event to `simjob webhook listen`, signed with the secret it printed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { isolatedDirs, simjob } from '../helpers/cli.js';
import { startListen } from '../helpers/listen.js';
import { REPO_ROOT } from '../helpers/shared.js';

const server = spawn(process.execPath, [resolve(REPO_ROOT, 'scripts', 'try-server.mjs'), '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const exited = once(server, 'exit');
afterAll(async () => {
  server.kill('SIGTERM');
  await exited;
});

/** The `export NAME=value` lines a try-server prints, once all `count` are there. */
async function pasteLines(child = server, count = 2): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const line of createInterface({ input: child.stdout! })) {
    const m = /^export (SIMJOB_\w+)=(\S+)$/.exec(line);
    if (m) found[m[1]!] = m[2]!;
    if (Object.keys(found).length === count) break;
  }
  return found;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

it('prints the base URL and key to paste; with them, a submit of the example runs to its result', async () => {
  const lines = await pasteLines();
  expect(Object.keys(lines).sort()).toEqual(['SIMJOB_API_KEY', 'SIMJOB_BASE_URL']);
  expect(lines.SIMJOB_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const env = { ...isolatedDirs(), ...lines };
  const profile = resolve(REPO_ROOT, 'examples', 'fury-profilesets.simc');
  const r = await simjob(['submit', profile, '--channel', 'nightly', '--wait'], { env, timeoutMs: 60_000 });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^Status +completed$/m);
}, 90_000);

it('--webhook-url: `submit --webhook` reaches `simjob webhook listen`, signed with the secret it printed', async () => {
  // first the listener, for its URL; it learns the secret from the try-server's output below, as a user pastes it
  const secret = 'whsec_try_server_e2e';
  const listener = await startListen(
    { ...isolatedDirs(), SIMJOB_WEBHOOK_SECRET: secret },
    ['--max-events', '1'],
    cleanups,
  );
  const child = spawn(
    process.execPath,
    [resolve(REPO_ROOT, 'scripts', 'try-server.mjs'), '--port', '0', '--webhook-url', listener.url],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SIMJOB_WEBHOOK_SECRET: secret } },
  );
  const gone = once(child, 'exit');
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await gone;
  });
  const lines = await pasteLines(child, 3);
  expect(lines.SIMJOB_WEBHOOK_SECRET).toBe(secret);
  const env = { ...isolatedDirs(), SIMJOB_BASE_URL: lines.SIMJOB_BASE_URL!, SIMJOB_API_KEY: lines.SIMJOB_API_KEY! };
  const profile = resolve(REPO_ROOT, 'examples', 'fury-profilesets.simc');
  const r = await simjob(['submit', profile, '--channel', 'nightly', '--webhook', '--wait', '--json'], {
    env,
    timeoutMs: 60_000,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  const id = JSON.parse(r.stdout).id as string;
  const done = await listener.child;
  expect(done.exitCode).toBe(0);
  expect(listener.stdout()).toMatch(new RegExp(`job\\.terminal +${id} +completed`));
}, 90_000);

it('--webhook-url without a path is refused, saying what to give', async () => {
  const child = spawn(
    process.execPath,
    [resolve(REPO_ROOT, 'scripts', 'try-server.mjs'), '--webhook-url', 'http://127.0.0.1:8790'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  expect(code).toBe(2);
  expect(err).toContain('--webhook-url must be an http(s) URL with its path, e.g. http://127.0.0.1:8790/webhooks');
});
