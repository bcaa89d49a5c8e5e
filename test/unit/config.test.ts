import { statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSettingKey, parseBaseUrl } from '../../src/config/keys.js';
import { Config } from '../../src/config/resolve.js';
import { openCredentials, openSettings } from '../../src/config/store.js';
import { AuthError, UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/temp.js';

const fresh = () => tempDir('simjob-config-');

describe('config precedence: flag > env > profile > default', () => {
  it('base URL', async () => {
    const dir = fresh();
    (await openSettings(dir)).set('profiles.default.base_url', 'https://profile.example');
    expect(new Config({ SIMJOB_CONFIG_DIR: dir }, {}).baseUrl()).toEqual({ value: 'https://profile.example', source: 'profile' });
    expect(new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_BASE_URL: 'https://env.example/' }, {}).baseUrl()).toEqual({ value: 'https://env.example', source: 'env' });
    expect(new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_BASE_URL: 'https://env.example' }, { baseUrl: 'http://flag.example:8080' }).baseUrl())
      .toEqual({ value: 'http://flag.example:8080', source: 'flag' });
  });
  it('says how to set a missing base URL and key', () => {
    const cfg = new Config({ SIMJOB_CONFIG_DIR: fresh() }, { profile: 'ci' });
    expect(() => cfg.baseUrl()).toThrow(UsageError);
    expect(() => cfg.baseUrl()).toThrow(expect.objectContaining({ hint: expect.stringMatching(/simjob config set base_url https:\/\/… --profile ci/) }));
    expect(() => cfg.apiKey()).toThrow(AuthError);
    expect(() => cfg.apiKey()).toThrow(expect.objectContaining({ hint: expect.stringMatching(/simjob login --profile ci/) }));
  });
  it('profiles come from the flag, then SIMJOB_PROFILE', async () => {
    const dir = fresh();
    (await openSettings(dir)).set('profiles.work.channel', 'weekly');
    expect(new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_PROFILE: 'work' }, {}).setting('channel')).toBe('weekly');
    expect(new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_PROFILE: 'work' }, { profile: 'default' }).setting('channel')).toBeUndefined();
    expect(() => new Config({ SIMJOB_CONFIG_DIR: dir }, { profile: '../etc' })).toThrow(/not valid/);
  });
  it('the env key beats the stored key; keys are stored 0600 apart from settings', async () => {
    const dir = fresh();
    const creds = await openCredentials(dir);
    creds.set('profiles.default.api_key', 'sk_stored');
    expect(statSync(creds.path).mode & 0o777).toBe(0o600);
    expect(creds.path).toBe(join(dir, 'credentials.json'));
    expect(new Config({ SIMJOB_CONFIG_DIR: dir }, {}).apiKey()).toEqual({ value: 'sk_stored', source: 'profile' });
    expect(new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_API_KEY: 'sk_env' }, {}).apiKey()).toEqual({ value: 'sk_env', source: 'env' });
    expect(() => new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_API_KEY: 'sk with space' }, {}).apiKey()).toThrow(/spaces or non-printable/);
  });
  it('a broken config file is a one-line usage error', () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{oops');
    expect(() => new Config({ SIMJOB_CONFIG_DIR: dir }, {}).setting('channel')).toThrow(/is not valid JSON/);
  });
});

describe('setting keys validate their values', () => {
  it('rejects unknown keys and bad values with the allowed ones', () => {
    expect(() => findSettingKey('colour')).toThrow(/Unknown setting "colour"/);
    expect(() => findSettingKey('channel').parse('daily')).toThrow(/nightly, weekly, latest/);
    expect(() => findSettingKey('local.concurrency').parse('0')).toThrow(/positive whole number/);
    expect(findSettingKey('local.concurrency').parse('2')).toBe(2);
  });
  it('base URLs: http(s), no credentials, no query; trailing slash dropped; path prefix kept', () => {
    expect(parseBaseUrl('https://api.example.com/')).toBe('https://api.example.com');
    expect(parseBaseUrl('https://proxy.example.com/sim/')).toBe('https://proxy.example.com/sim');
    expect(() => parseBaseUrl('ftp://x')).toThrow(/http or https/);
    expect(() => parseBaseUrl('https://user:pw@x')).toThrow(/user name or password/);
    expect(() => parseBaseUrl('not a url')).toThrow(/not a URL/);
  });
});
