import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs, simjob } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { closedPort } from '../helpers/ports.js';

/** `simjob doctor` against the spec server, the stand-in simc, and config dirs in good and bad states. */

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix: string | null;
}

const FAKE_SIMC = resolve(REPO_ROOT, 'test', 'fake-simc', 'simc');
// PATH with node only: no simc on it, whatever the machine has installed.
const NO_SIMC_PATH = dirname(process.execPath);

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function doctor(env: Record<string, string>, args: string[] = []) {
  const result = await simjob(['doctor', ...args], { env: { PATH: NO_SIMC_PATH, ...env } });
  return result;
}

async function doctorJson(env: Record<string, string>) {
  const result = await doctor(env, ['--json']);
  const checks = JSON.parse(result.stdout) as Check[];
  const byName = (name: string) => {
    const found = checks.find((c) => c.check === name);
    expect(found, `check ${name} in ${result.stdout}`).toBeDefined();
    return found!;
  };
  return { ...result, checks, byName };
}

describe('simjob doctor', () => {
  it('passes every check with a reachable service, an accepted key and a working simc (exit 0)', async () => {
    const env = {
      ...isolatedDirs(),
      SIMJOB_BASE_URL: server.url,
      SIMJOB_API_KEY: 'sk_test_good',
      SIMJOB_SIMC: FAKE_SIMC,
    };
    const human = await doctor(env);
    expect(human.exitCode, human.stdout + human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^✓ Base URL +http:\/\/127\.0\.0\.1:\d+ \(from SIMJOB_BASE_URL\)$/m);
    expect(human.stdout).toMatch(/^✓ Service +http:\/\/127\.0\.0\.1:\d+ answered in \d+ ms$/m);
    expect(human.stdout).toMatch(/^✓ API key +accepted \(SIMJOB_API_KEY\)$/m);
    expect(human.stdout).toContain(
      `✓ Local simc        ${FAKE_SIMC} (from SIMJOB_SIMC): SimulationCraft 1201-01 for World of Warcraft`,
    );
    expect(human.stdout).not.toContain('✗');
    expect(human.stdout).toMatch(/All 7 checks passed\.\n$/);
    expect(human.stdout + human.stderr).not.toContain('sk_test_good');
    expect(human.stdout).not.toMatch(/\x1b\[/); // piped: no colour
    const coloured = await doctor({ ...env, FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain('\x1b[32m✓\x1b[39m Config dir');

    const json = await doctorJson(env);
    expect(json.exitCode).toBe(0);
    expect(json.checks.map((c) => c.check)).toEqual([
      'config-dir',
      'config-file',
      'credentials-file',
      'base-url',
      'service',
      'api-key',
      'simc',
    ]);
    for (const c of json.checks) expect(c).toMatchObject({ ok: true, fix: null });
    expect(json.byName('simc').detail).toContain('SimulationCraft 1201-01');
  });

  it('a local-only setup passes: the remote checks say "not set up", not failed (exit 0)', async () => {
    const env = { ...isolatedDirs(), SIMJOB_SIMC: FAKE_SIMC };
    const { exitCode, byName, checks } = await doctorJson(env);
    expect(exitCode).toBe(0);
    expect(checks).toHaveLength(7);
    for (const name of ['base-url', 'service', 'api-key'])
      expect(byName(name)).toMatchObject({ ok: true, fix: null, notSetUp: true });
    expect(byName('base-url').detail).toContain('simjob login --base-url URL');
    expect(byName('api-key').detail).toContain("the service's Clients & Keys page");
    expect(byName('simc')).toMatchObject({ ok: true, detail: expect.stringContaining('(from SIMJOB_SIMC)') });

    const human = await doctor(env);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toMatch(/^– Base URL +Not set up; only remote jobs need one/m);
    expect(human.stdout).not.toContain('✗');
    expect(human.stdout).toMatch(/All 4 checks passed \(the 3 remote ones are not set up: local jobs only\)\.\n$/);
  });

  it('with nothing set up at all: no simc and no service is a failure, with the fix (exit 1)', async () => {
    const { exitCode, byName, stdout } = await doctorJson(isolatedDirs());
    expect(exitCode).toBe(1);
    expect(byName('config-dir')).toMatchObject({ ok: true, detail: expect.stringContaining('not created yet') });
    expect(byName('base-url')).toMatchObject({ ok: true, notSetUp: true });
    expect(byName('simc')).toMatchObject({
      ok: false,
      detail: 'None found, and no service is set up either: nothing can run a sim.',
      fix: expect.stringMatching(/^Pass --simc \/path\/to\/simc, set SIMJOB_SIMC/),
    });
    expect(JSON.parse(stdout)).toHaveLength(7);

    const human = await doctor(isolatedDirs());
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toMatch(/1 of 4 checks failed\.\n$/);
  });

  it('a key without a base URL: base URL, service and key fail, each with a fix; a missing simc is not a failure (exit 1)', async () => {
    const env = { ...isolatedDirs(), SIMJOB_API_KEY: 'sk_test_good' };
    const { exitCode, byName } = await doctorJson(env);
    expect(exitCode).toBe(1);
    expect(byName('base-url')).toEqual({
      check: 'base-url',
      ok: false,
      detail: 'No API base URL is set.',
      fix: 'Run `simjob config set base_url https://…`, set SIMJOB_BASE_URL, or pass --base-url.',
    });
    expect(byName('service')).toMatchObject({ ok: false, fix: 'Set the base URL first (see above).' });
    expect(byName('api-key')).toMatchObject({ ok: false, fix: 'Make the service reachable first (see above).' });
    expect(byName('simc')).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^None found; only --local needs one\./),
    });

    const human = await doctor(env);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toMatch(/3 of 7 checks failed\.\n$/);
    expect(human.stdout + human.stderr).not.toContain('sk_test_good');
    const coloured = await doctor({ ...env, FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain('\x1b[31m✗\x1b[39m Base URL');
  });

  it('a stored key: accepted, and the credentials file must be 0600 (the fix is the chmod)', async () => {
    const dirs = isolatedDirs();
    const env = { ...dirs, SIMJOB_SIMC: FAKE_SIMC };
    expect((await simjob(['login', '--base-url', server.url], { env, input: 'sk_test_good\n' })).exitCode).toBe(0);
    expect((await simjob(['config', 'set', 'base_url', server.url], { env })).exitCode).toBe(0);
    const credentials = join(dirs.SIMJOB_CONFIG_DIR, 'credentials.json');

    const good = await doctorJson(env);
    expect(good.exitCode).toBe(0);
    expect(good.byName('credentials-file')).toMatchObject({ ok: true, detail: `${credentials} (mode 0600)` });
    expect(good.byName('api-key').detail).toBe('accepted (credentials of profile "default")');
    expect(good.byName('base-url').detail).toBe(`${server.url} (from profile "default")`);

    chmodSync(credentials, 0o644);
    const open = await doctorJson(env);
    expect(open.exitCode).toBe(1);
    expect(open.byName('credentials-file')).toEqual({
      check: 'credentials-file',
      ok: false,
      detail: `${credentials} is open to other users (mode 0644); it holds API keys.`,
      fix: `chmod 600 ${credentials}`,
    });
    expect(open.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['credentials-file']);

    chmodSync(dirs.SIMJOB_CONFIG_DIR, 0o777);
    const dir = await doctorJson(env);
    expect(dir.byName('config-dir')).toMatchObject({ ok: false, fix: `chmod 700 ${dirs.SIMJOB_CONFIG_DIR}` });

    chmodSync(dirs.SIMJOB_CONFIG_DIR, 0o700);
    chmodSync(credentials, 0o600); // what the fix says
    expect((await doctor(env)).exitCode).toBe(0);
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
  });

  it("a rejected key fails with the service's code and says where the key came from", async () => {
    const env = { ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_revoked' };
    const { exitCode, byName, stdout } = await doctorJson(env);
    expect(exitCode).toBe(1);
    expect(byName('service').ok).toBe(true);
    expect(byName('api-key')).toEqual({
      check: 'api-key',
      ok: false,
      detail: 'Rejected by the service (revoked_token; from SIMJOB_API_KEY).',
      fix: 'Set SIMJOB_API_KEY to a valid key (issue one under Clients & Keys).',
    });
    expect(stdout).not.toContain('sk_test_revoked');
  });

  it('an unreachable service fails with the reason, and the key is not checked', async () => {
    const port = await closedPort();
    const env = { ...isolatedDirs(), SIMJOB_BASE_URL: `http://127.0.0.1:${port}`, SIMJOB_API_KEY: 'sk_test_good' };
    const { exitCode, byName } = await doctorJson(env);
    expect(exitCode).toBe(1);
    expect(byName('base-url').ok).toBe(true);
    expect(byName('service')).toMatchObject({
      ok: false,
      detail: `Cannot reach http://127.0.0.1:${port}: connection refused.`,
    });
    expect(byName('service').fix).toMatch(/HTTPS_PROXY/);
    expect(byName('api-key')).toMatchObject({
      ok: false,
      detail: 'Set (SIMJOB_API_KEY), not checked: the service is not reachable.',
    });
  });

  it('a base URL that is not the API root answers 404 and says so', async () => {
    const env = { ...isolatedDirs(), SIMJOB_BASE_URL: `${server.url}/api`, SIMJOB_API_KEY: 'sk_test_good' };
    const { byName } = await doctorJson(env);
    expect(byName('service')).toMatchObject({
      ok: false,
      detail: `${server.url} answered 404 for /api/v1/sim/usage.`,
      fix: 'The base URL must be the API root, the part before /v1/ (e.g. https://api.example.com).',
    });
  });

  it('a bad base URL fails at the base URL check', async () => {
    const { byName } = await doctorJson({ ...isolatedDirs(), SIMJOB_BASE_URL: 'ftp://example.com' });
    expect(byName('base-url')).toMatchObject({
      ok: false,
      detail: 'SIMJOB_BASE_URL must be an http or https URL (got "ftp://example.com").',
    });
    expect(byName('base-url').fix).toMatch(/simjob config set base_url/);
  });

  it('a simc that is named but missing, or does not run as simc, fails', async () => {
    const dirs = isolatedDirs();
    const missing = await doctorJson({ ...dirs, SIMJOB_SIMC: '/nonexistent/simc' });
    expect(missing.byName('simc')).toMatchObject({
      ok: false,
      detail: 'The simc named by SIMJOB_SIMC (/nonexistent/simc) does not exist.',
    });
    expect(missing.byName('simc').fix).toBe('Point SIMJOB_SIMC at the simc program, or unset it.');

    const notExecutable = join(dirs.SIMJOB_CONFIG_DIR, '..', 'simc-no-x');
    writeFileSync(notExecutable, '#!/bin/sh\n', { mode: 0o644 });
    const noX = await doctorJson({ ...dirs, SIMJOB_SIMC: notExecutable });
    expect(noX.byName('simc')).toMatchObject({
      ok: false,
      detail: `The simc named by SIMJOB_SIMC (${notExecutable}) is not executable.`,
    });
    expect(noX.byName('simc').fix).toBe(`Make it executable (chmod +x ${notExecutable}), or name another simc.`);

    const notSimc = join(dirs.SIMJOB_CONFIG_DIR, '..', 'not-simc');
    writeFileSync(notSimc, '#!/bin/sh\necho hello\n', { mode: 0o755 });
    const wrong = await doctorJson({ ...dirs, SIMJOB_SIMC: notSimc });
    expect(wrong.byName('simc')).toMatchObject({ ok: false });
    expect(wrong.byName('simc').detail).toMatch(/does not run as simc: it printed no "SimulationCraft <version>/);
  });

  it('per-channel binaries are checked one by one when they differ', async () => {
    const dirs = isolatedDirs();
    expect((await simjob(['config', 'set', 'simc.nightly', FAKE_SIMC], { env: dirs })).exitCode).toBe(0);
    const { byName, checks } = await doctorJson(dirs);
    expect(byName('simc.nightly')).toMatchObject({
      ok: true,
      detail: expect.stringContaining(`${FAKE_SIMC} (from the setting simc.nightly)`),
    });
    expect(byName('simc.weekly+latest')).toMatchObject({ ok: true, detail: expect.stringMatching(/^None found/) });
    expect(checks).toHaveLength(8);
  });

  it('a broken config.json fails its check with the fix', async () => {
    const dirs = isolatedDirs();
    mkdirSync(dirs.SIMJOB_CONFIG_DIR, { recursive: true, mode: 0o700 });
    const file = join(dirs.SIMJOB_CONFIG_DIR, 'config.json');
    writeFileSync(file, '{ not json');
    const { byName, exitCode } = await doctorJson(dirs);
    expect(exitCode).toBe(1);
    expect(byName('config-file')).toEqual({
      check: 'config-file',
      ok: false,
      detail: `${file} is not valid JSON.`,
      fix: `Fix or delete ${file}; \`simjob config set\` writes a new one.`,
    });
  });
});

/** A port nothing listens on: bind one, note it, close it. */
