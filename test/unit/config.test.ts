import { statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSettingKey, parseBaseUrl, parseServiceUrl } from '../../src/core/config/keys.js';
import { Config } from '../../src/core/config/resolve.js';
import { openCredentials, openSettings } from '../../src/core/config/store.js';
import { AuthError, UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/temp.js';

const fresh = () => tempDir('simjob-config-');

describe('config precedence: flag > env > profile > default', () => {
  it('base URL', async () => {
    const dir = fresh();
    (await openSettings(dir)).set('profiles.default.base_url', 'https://profile.example');
    expect(new Config({ SIMJOB_CONFIG_DIR: dir }, {}).baseUrl()).toEqual({
      value: 'https://profile.example',
      source: 'profile',
    });
    expect(new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_BASE_URL: 'https://env.example/' }, {}).baseUrl()).toEqual({
      value: 'https://env.example',
      source: 'env',
    });
    expect(
      new Config(
        { SIMJOB_CONFIG_DIR: dir, SIMJOB_BASE_URL: 'https://env.example' },
        { baseUrl: 'http://flag.example:8080' },
      ).baseUrl(),
    ).toEqual({ value: 'http://flag.example:8080', source: 'flag' });
  });
  it('says how to set a missing base URL and key', () => {
    const cfg = new Config({ SIMJOB_CONFIG_DIR: fresh() }, { profile: 'ci' });
    expect(() => cfg.baseUrl()).toThrow(UsageError);
    expect(() => cfg.baseUrl()).toThrow(
      expect.objectContaining({ hint: expect.stringMatching(/simjob config set base_url https:\/\/… --profile ci/) }),
    );
    expect(() => cfg.apiKey()).toThrow(AuthError);
    expect(() => cfg.apiKey()).toThrow(
      expect.objectContaining({ hint: expect.stringMatching(/simjob login --profile ci/) }),
    );
  });
  it('profiles come from the flag, then SIMJOB_PROFILE', async () => {
    const dir = fresh();
    (await openSettings(dir)).set('profiles.work.channel', 'weekly');
    expect(new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_PROFILE: 'work' }, {}).setting('channel')).toBe('weekly');
    expect(
      new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_PROFILE: 'work' }, { profile: 'default' }).setting('channel'),
    ).toBeUndefined();
    expect(() => new Config({ SIMJOB_CONFIG_DIR: dir }, { profile: '../etc' })).toThrow(/not valid/);
  });
  it('the env key beats the stored key; keys are stored 0600 apart from settings', async () => {
    const dir = fresh();
    const creds = await openCredentials(dir);
    creds.set('profiles.default.api_key', 'sk_stored');
    expect(statSync(creds.path).mode & 0o777).toBe(0o600);
    expect(creds.path).toBe(join(dir, 'credentials.json'));
    expect(new Config({ SIMJOB_CONFIG_DIR: dir }, {}).apiKey()).toEqual({ value: 'sk_stored', source: 'profile' });
    expect(new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_API_KEY: 'sk_env' }, {}).apiKey()).toEqual({
      value: 'sk_env',
      source: 'env',
    });
    expect(() => new Config({ SIMJOB_CONFIG_DIR: dir, SIMJOB_API_KEY: 'sk with space' }, {}).apiKey()).toThrow(
      /spaces or non-printable/,
    );
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
  it('the service base URL must be the API root: one ending in /v1 is refused with the URL to use', () => {
    const refusal = (value: string, source?: string) => {
      try {
        parseServiceUrl(value, source);
      } catch (error) {
        return error as UsageError;
      }
      throw new Error(`${value} was accepted`);
    };
    for (const value of ['https://api.example.com/v1', 'https://api.example.com/v1/']) {
      const error = refusal(value);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.exitCode).toBe(2);
      expect(error.message).toBe(
        `base_url must be the API root, without /v1 (got "${value}"): simjob adds /v1/sim/… itself.`,
      );
      expect(error.hint).toBe('Use https://api.example.com instead.');
    }
    expect(refusal('http://127.0.0.1:8080/prefix/v1', '--base-url').hint).toBe(
      'Use http://127.0.0.1:8080/prefix instead.',
    );
    expect(() => findSettingKey('base_url').parse('https://api.example.com/v1')).toThrow(UsageError);
    expect(parseServiceUrl('https://api.example.com/v1beta')).toBe('https://api.example.com/v1beta');
    expect(parseServiceUrl('https://api.example.com/')).toBe('https://api.example.com');
    // a webhook receiver may well live under /v1
    expect(findSettingKey('webhook.url').parse('https://hooks.example.com/v1')).toBe('https://hooks.example.com/v1');
  });
  it('a stored base URL ending in /v1 is refused with the command that fixes the profile', () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { v1p: { base_url: 'https://api.example.com/v1' } } }),
    );
    const config = new Config({ SIMJOB_CONFIG_DIR: dir }, { profile: 'v1p' });
    expect(() => config.baseUrl()).toThrow(
      expect.objectContaining({
        message:
          'base_url of profile "v1p" must be the API root, without /v1 (got "https://api.example.com/v1"): simjob adds /v1/sim/… itself.',
        hint: 'Run `simjob config set base_url https://api.example.com --profile v1p`.',
      }),
    );
  });
});
