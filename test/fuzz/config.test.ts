/**
 * Property tests of the config file reader: whatever config.json and credentials.json hold (not JSON, wrong
 * shapes, wrong types, odd profile names), reading settings and credentials gives a value or a one-line
 * UsageError/AuthError, never a crash.
 */
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_KEYS } from '../../src/core/config/keys.js';
import { Config } from '../../src/core/config/resolve.js';
import { tempDir } from '../helpers/temp.js';
import { expectOwnErrors, mutate, mutations, nastyText, params } from './fuzz.js';

const GOOD = {
  profiles: {
    default: {
      base_url: 'https://api.example',
      channel: 'nightly',
      output: 'human',
      simc: { path: '/usr/bin/simc', nightly: '/opt/simc' },
      local: { concurrency: 2 },
      webhook: { url: 'http://localhost:3000/x' },
    },
    work: { base_url: 'http://127.0.0.1:8080/prefix', priority: 'high' },
  },
};
const CREDENTIALS = {
  profiles: { default: { api_key: 'sk_live_abc', webhook_secret: 'whsec_x' }, work: { api_key: 'sk_work' } },
};

const fileText = fc.oneof(
  { weight: 4, arbitrary: mutations(GOOD, 4, false).map((list) => JSON.stringify(mutate(GOOD, list))) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: nastyText(200) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '{',
      '{"profiles":',
      '{"profiles":null}',
      '{"profiles":{"default":"x"}}',
      '{"profiles":{"__proto__":{"base_url":1}}}',
      '\ufeff{}',
    ),
  },
);
const credentialsText = fc.oneof(
  mutations(CREDENTIALS, 3, false).map((list) => JSON.stringify(mutate(CREDENTIALS, list))),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  nastyText(80),
);
const profile = fc.oneof(
  fc.constantFrom(undefined, 'default', 'work', '__proto__', 'constructor', 'toString'),
  nastyText(20),
);

describe('config file reader', () => {
  it('any config.json, credentials.json and profile: values or one-line errors (exit 2 or 4)', () => {
    const dir = tempDir('simjob-fuzz-config-');
    mkdirSync(dir, { recursive: true });
    fc.assert(
      fc.property(fileText, credentialsText, profile, (settings, credentials, name) => {
        writeFileSync(join(dir, 'config.json'), settings);
        writeFileSync(join(dir, 'credentials.json'), credentials);
        const config = expectOwnErrors(() => new Config({ SIMJOB_CONFIG_DIR: dir }, { profile: name }), [2]);
        if (!config) return;
        const data = expectOwnErrors(() => config.settings, [2]);
        // A profile named constructor or __proto__ reads its own entry or nothing, never Object's members.
        if (data !== undefined)
          expect(data !== Object.prototype && typeof data === 'object' && !Array.isArray(data)).toBe(true);
        for (const key of SETTING_KEYS) expectOwnErrors(() => config.setting(key.name), [2]);
        const base = expectOwnErrors(() => config.baseUrl(), [2]);
        if (base !== undefined) expect(base.value).toMatch(/^https?:\/\//);
        const key = expectOwnErrors(() => config.apiKey(), [2, 4]);
        if (key !== undefined) expect(typeof key.value).toBe('string');
        const secret = expectOwnErrors(() => config.webhookSecret(), [2]);
        if (secret !== undefined) expect(typeof secret).toBe('string');
        expectOwnErrors(() => config.stringSetting('channel'), [2]);
        expectOwnErrors(() => config.hasStoredKey(), [2]);
      }),
      params(),
    );
  });
});
