import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { isolatedDirs, simjob } from '../helpers/cli-in-process.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('login, logout and config', () => {
  it('login reads the key from stdin, checks it, and stores it 0600 apart from settings', async () => {
    const dirs = isolatedDirs();
    const login = await simjob(['login', '--base-url', server.url], { env: dirs, input: 'sk_test_good\n' });
    expect(login.exitCode).toBe(0);
    expect(login.stderr).toMatch(/Stored the API key for profile "default" .* \(mode 0600\), checked against/);
    expect(login.stdout + login.stderr).not.toContain('sk_test_good');
    const credentials = join(dirs.SIMJOB_CONFIG_DIR, 'credentials.json');
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(credentials, 'utf8'))).toEqual({
      profiles: { default: { api_key: 'sk_test_good' } },
    });
    expect(readFileSync(join(dirs.SIMJOB_CONFIG_DIR, 'config.json'), 'utf8')).not.toContain('sk_test_good');

    const usage = await simjob(['usage', '--json'], { env: dirs });
    expect(usage.exitCode).toBe(0);
    expect(JSON.parse(usage.stdout).limits.maxRuntimeSeconds).toBeGreaterThan(0);

    const logout = await simjob(['logout'], { env: dirs });
    expect(logout.exitCode).toBe(0);
    const after = await simjob(['usage'], { env: dirs });
    expect(after.exitCode).toBe(4);
    expect(after.stderr).toMatch(/No API key for profile "default". Run `simjob login` or set SIMJOB_API_KEY/);
  });

  it('a rejected key is never stored and exits 4', async () => {
    const dirs = isolatedDirs();
    const login = await simjob(['login', '--base-url', server.url], { env: dirs, input: 'sk_wrong\n' });
    expect(login.exitCode).toBe(4);
    expect(login.stderr).toMatch(/rejected this key \(invalid_token\); nothing was stored/);
    expect(() => statSync(join(dirs.SIMJOB_CONFIG_DIR, 'credentials.json'))).toThrow();
  });

  it('login --no-verify --base-url says why the key was not checked, and that the URL was stored', async () => {
    const dirs = isolatedDirs();
    const login = await simjob(['login', '--profile', 'ws', '--base-url', 'http://127.0.0.1:9', '--no-verify'], {
      env: dirs,
      input: 'sk_test_good\n',
    });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stderr).toMatch(
      /Stored the API key for profile "ws" .* \(mode 0600\), not checked \(--no-verify\)\.\n/,
    );
    expect(login.stderr).toContain('Stored base_url http://127.0.0.1:9 for profile "ws" (from --base-url).');
    expect((await simjob(['config', 'get', 'base_url', '--profile', 'ws'], { env: dirs })).stdout).toBe(
      'http://127.0.0.1:9\n',
    );
  });

  it('keys never come from a flag', async () => {
    const result = await simjob(['login', '--key', 'sk_test_good'], { env: isolatedDirs() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^Error: unknown option '--key'/);
  });

  it('config set/get/unset/list per profile, with validation and sources', async () => {
    const env = isolatedDirs();
    expect((await simjob(['config', 'set', 'channel', 'weekly', '--profile', 'ci'], { env })).exitCode).toBe(0);
    const get = await simjob(['config', 'get', 'channel', '--profile', 'ci'], { env });
    expect(get.stdout).toBe('weekly\n');
    const other = await simjob(['config', 'get', 'channel'], { env });
    expect(other.exitCode).toBe(1);
    expect((await simjob(['config', 'get', 'channel'], { env: { ...env, SIMJOB_PROFILE: 'ci' } })).stdout).toBe(
      'weekly\n',
    );

    const bad = await simjob(['config', 'set', 'channel', 'daily'], { env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe('Error: channel must be one of nightly, weekly, latest (got "daily").\n');
    const unknown = await simjob(['config', 'set', 'colour', 'red'], { env });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown setting "colour". Known settings: base_url, channel/);

    await simjob(['config', 'set', 'base_url', 'https://profile.example/'], { env });
    const list = await simjob(['config', 'list', '--json'], { env: { ...env, SIMJOB_API_KEY: 'sk_env' } });
    const rows = JSON.parse(list.stdout).settings as Array<{ key: string; value: unknown; source: string }>;
    expect(rows.find((r) => r.key === 'base_url')).toEqual({
      key: 'base_url',
      value: 'https://profile.example',
      source: 'profile',
    });
    expect(rows.find((r) => r.key === 'api_key')).toEqual({
      key: 'api_key',
      value: '(set)',
      source: 'env SIMJOB_API_KEY',
    });
    expect(list.stdout).not.toContain('sk_env');

    const envWins = await simjob(['config', 'list', '--json'], {
      env: { ...env, SIMJOB_BASE_URL: 'http://env.example' },
    });
    expect(JSON.parse(envWins.stdout).settings.find((r: { key: string }) => r.key === 'base_url').source).toBe('env');

    expect((await simjob(['config', 'unset', 'channel', '--profile', 'ci'], { env })).exitCode).toBe(0);
    expect((await simjob(['config', 'get', 'channel', '--profile', 'ci'], { env })).exitCode).toBe(1);
  });

  it('a hand-edited setting that config set would refuse names the file, the setting and the fix', async () => {
    const env = isolatedDirs();
    mkdirSync(env.SIMJOB_CONFIG_DIR, { recursive: true });
    const file = join(env.SIMJOB_CONFIG_DIR, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { channel: 'bogus', local: { concurrency: 'abc' } } } }));
    const submit = await simjob(['submit', '-', '--dry-run', '--base-url', 'http://127.0.0.1:9'], {
      env,
      input: 'warrior="W"\nspec=fury\n',
    });
    expect(submit.exitCode).toBe(2);
    expect(submit.stderr).toBe(
      `Error: In ${file} (profile "default"): channel must be one of nightly, weekly, latest (got "bogus"). ` +
        'Run `simjob config set channel <value>` or `simjob config unset channel`.\n',
    );
    const local = await simjob(['jobs', '--local'], { env });
    expect(local.exitCode).toBe(0); // a command that does not use the broken settings is not stopped by them
    // config get and list still show the broken values, so they can be seen and fixed
    expect((await simjob(['config', 'get', 'local.concurrency'], { env })).stdout).toBe('abc\n');
    expect((await simjob(['config', 'unset', 'channel'], { env })).exitCode).toBe(0);
  });

  it('a config dir that cannot be written is one line and exit 2', async () => {
    const env = isolatedDirs();
    mkdirSync(dirname(env.SIMJOB_CONFIG_DIR), { recursive: true });
    writeFileSync(env.SIMJOB_CONFIG_DIR, 'a file where the folder should be');
    const result = await simjob(['config', 'set', 'channel', 'nightly'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `Error: Cannot write the config at ${env.SIMJOB_CONFIG_DIR} (EEXIST). Point SIMJOB_CONFIG_DIR at a folder you can write to, or unset it.\n`,
    );
  });

  it('a command that needs a base URL or key says exactly how to set it', async () => {
    const env = isolatedDirs();
    const noUrl = await simjob(['status', '123456789012345678'], { env });
    expect(noUrl.exitCode).toBe(2);
    expect(noUrl.stderr).toBe(
      'Error: No API base URL is set. Run `simjob config set base_url https://…`, set SIMJOB_BASE_URL, or pass --base-url.\n',
    );
    const noKey = await simjob(['status', '123456789012345678', '--profile', 'work'], {
      env: { ...env, SIMJOB_BASE_URL: server.url },
    });
    expect(noKey.exitCode).toBe(4);
    expect(noKey.stderr).toBe(
      'Error: No API key for profile "work". Run `simjob login --profile work` or set SIMJOB_API_KEY.\n',
    );
  });

  it('revoked and expired keys exit 4 with the fix', async () => {
    for (const [key, code] of [
      ['sk_test_revoked', 'revoked_token'],
      ['sk_test_expired', 'expired_token'],
      ['sk_nope', 'invalid_token'],
    ] as const) {
      const result = await simjob(['usage'], {
        env: { ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: key },
      });
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain(
        `The service rejected the API key (${code}). Issue a new key under Clients & Keys`,
      );
      expect(result.stderr).not.toContain(key);
    }
  });
});

describe('pipes', () => {
  it('a reader that closes the pipe early (| head) is not an error', async () => {
    const { execa } = await import('execa');
    const { BIN } = await import('../helpers/cli.js');
    // `true` exits at once, so simjob always writes into a closed pipe (it takes ~80 ms just to start).
    const result = await execa('bash', ['-o', 'pipefail', '-c', `node ${BIN} submit --help | true`], { reject: false });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
  });
});
