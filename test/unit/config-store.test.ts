/** Writing config.json and credentials.json: one key at a time, atomically, in the file's mode, nothing else touched. */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCredentials, openSettings, readProfileSettings } from '../../src/core/config/store.js';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/temp.js';

describe('the config store', () => {
  it('sets and deletes one dotted key, keeping the rest, with no temp file left', async () => {
    const dir = join(tempDir('simjob-conf-'), 'config');
    const settings = await openSettings(dir);
    settings.set('profiles.default.base_url', 'https://a.example');
    settings.set('profiles.default.simc.path', '/opt/simc');
    settings.set('profiles.work.channel', 'weekly');
    settings.delete('profiles.default.base_url');
    settings.delete('profiles.nobody.channel');
    expect(JSON.parse(readFileSync(settings.path, 'utf8'))).toEqual({
      profiles: { default: { simc: { path: '/opt/simc' } }, work: { channel: 'weekly' } },
    });
    expect(readFileSync(settings.path, 'utf8')).toContain('\n\t"profiles"');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('keeps credentials private (0600), also when the file was made wider', async () => {
    const dir = join(tempDir('simjob-conf-'), 'config');
    const credentials = await openCredentials(dir);
    credentials.set('profiles.default.api_key', 'sk_1');
    expect(statSync(credentials.path).mode & 0o777).toBe(0o600);
    writeFileSync(credentials.path, '{}', { mode: 0o644 });
    credentials.set('profiles.default.api_key', 'sk_2');
    expect(statSync(credentials.path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('writes a profile named __proto__ as a profile, never into the prototype', async () => {
    const dir = join(tempDir('simjob-conf-'), 'config');
    (await openSettings(dir)).set('profiles.__proto__.channel', 'nightly');
    expect(({} as Record<string, unknown>).channel).toBeUndefined();
    expect(readProfileSettings(dir, '__proto__')).toEqual({ channel: 'nightly' });
  });

  it('refuses a file that is not JSON, naming it, and leaves it as it was', async () => {
    const dir = tempDir('simjob-conf-');
    writeFileSync(join(dir, 'config.json'), '{ nope');
    const settings = await openSettings(dir);
    expect(() => settings.set('profiles.default.channel', 'weekly')).toThrow(UsageError);
    expect(() => settings.set('profiles.default.channel', 'weekly')).toThrow(
      `${join(dir, 'config.json')} is not valid JSON.`,
    );
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{ nope');
  });

  it('refuses a file of another shape, naming the file and what is wrong', () => {
    const dir = tempDir('simjob-conf-');
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"default": "weekly"}}');
    expect(() => readProfileSettings(dir, 'default')).toThrow(
      `${join(dir, 'config.json')} is not a simjob config file: profile "default" is not an object.`,
    );
    writeFileSync(join(dir, 'config.json'), '{"profiles": []}');
    expect(() => readProfileSettings(dir, 'work')).toThrow('"profiles" is not an object.');
  });
});
