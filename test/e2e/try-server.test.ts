/** `npm run try-server`: the bundled test service, and the two lines it prints are all a remote command needs. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isolatedDirs, simjob } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/shared.js';

const server = spawn(process.execPath, [resolve(REPO_ROOT, 'scripts', 'try-server.mjs'), '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const exited = once(server, 'exit');
afterAll(async () => {
  server.kill('SIGTERM');
  await exited;
});

/** The `export NAME=value` lines it prints, once both are there. */
async function pasteLines(): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const line of createInterface({ input: server.stdout! })) {
    const m = /^export (SIMJOB_\w+)=(\S+)$/.exec(line);
    if (m) found[m[1]!] = m[2]!;
    if (Object.keys(found).length === 2) break;
  }
  return found;
}

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
