/**
 * `simjob login` on a terminal, as a person types it: a hidden prompt on stderr (the key is never echoed), the key
 * stored 0600; Ctrl-C at the prompt stores nothing and exits 130.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs } from '../helpers/cli.js';
import { ptySkips } from '../helpers/pty.js';
import { spawnPty } from './wait-helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('login on a terminal', () => {
  it('prompts without echoing the key, checks it and stores it 0600', async () => {
    if (ptySkips('the pseudo-terminal check of simjob login')) return;
    const dirs = isolatedDirs();
    const term = await spawnPty(['login', '--base-url', server.url], dirs);
    await term.waitFor(/Paste your API key \(input hidden\): $/);
    term.write('sk_test_good\r');
    const { exitCode, output } = await term.exit;
    expect(exitCode, output).toBe(0);
    expect(stripVTControlCharacters(output)).toMatch(/Stored the API key for profile "default"/);
    expect(output).not.toContain('sk_test_good');
    const credentials = join(dirs.SIMJOB_CONFIG_DIR, 'credentials.json');
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(credentials, 'utf8'))).toEqual({
      profiles: { default: { api_key: 'sk_test_good' } },
    });
  }, 60_000);

  it('Ctrl-C at the prompt stores nothing and exits 130', async () => {
    if (ptySkips('the pseudo-terminal check of simjob login')) return;
    const dirs = isolatedDirs();
    const term = await spawnPty(['login', '--base-url', server.url], dirs);
    await term.waitFor(/input hidden\): $/);
    term.write('sk_test_go\u0003');
    const { exitCode, output } = await term.exit;
    expect(exitCode, output).toBe(130);
    expect(stripVTControlCharacters(output)).toMatch(/Login cancelled\./);
    expect(existsSync(join(dirs.SIMJOB_CONFIG_DIR, 'credentials.json'))).toBe(false);
  }, 60_000);
});
