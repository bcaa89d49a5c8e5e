import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Config } from '../../../src/core/config/resolve.js';
import { findErrorLine, findSimc, localBuildId, parseVersionLine } from '../../../src/core/local/simc.js';
import { tempDir } from '../../helpers/temp.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function setUp(settings: Record<string, string> = {}) {
  root = tempDir('simjob-simc-');
  const bin = (name: string) => {
    const path = join(root, 'bin', name, 'simc');
    mkdirSync(join(root, 'bin', name), { recursive: true });
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, 0o755);
    return path;
  };
  const configDir = join(root, 'config');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { default: settings } }));
  const env: NodeJS.ProcessEnv = { SIMJOB_CONFIG_DIR: configDir, PATH: join(root, 'bin', 'onpath') };
  return { bin, env, config: () => new Config(env, {}) };
}

describe('finding simc', () => {
  it('takes --simc, then SIMJOB_SIMC, then the channel setting, then simc.path, then PATH', async () => {
    const t = setUp();
    const onPath = t.bin('onpath');
    const flag = t.bin('flag');
    const fromEnv = t.bin('env');
    const nightly = t.bin('nightly');
    const any = t.bin('any');
    writeFileSync(
      join(root, 'config', 'config.json'),
      JSON.stringify({ profiles: { default: { simc: { nightly, path: any } } } }),
    );
    const find = (env: NodeJS.ProcessEnv, channel: 'nightly' | 'weekly', flagValue?: string) =>
      findSimc({ flag: flagValue, env, config: new Config(env, {}), channel });

    expect(await find({ ...t.env, SIMJOB_SIMC: fromEnv }, 'nightly', flag)).toEqual({ path: flag, source: '--simc' });
    expect(await find({ ...t.env, SIMJOB_SIMC: fromEnv }, 'nightly')).toEqual({ path: fromEnv, source: 'SIMJOB_SIMC' });
    expect(await find(t.env, 'nightly')).toEqual({ path: nightly, source: 'the setting simc.nightly' });
    expect(await find(t.env, 'weekly')).toEqual({ path: any, source: 'the setting simc.path' });
    writeFileSync(join(root, 'config', 'config.json'), JSON.stringify({ profiles: { default: {} } }));
    expect(await find(t.env, 'weekly')).toEqual({ path: onPath, source: 'PATH' });
  });

  it('fails with the fix when nothing is found, and names the source of a broken path', async () => {
    const t = setUp();
    await expect(findSimc({ env: t.env, config: t.config(), channel: 'latest' })).rejects.toMatchObject({
      message: 'No simc found for local mode.',
      hint: expect.stringMatching(/--simc .*SIMJOB_SIMC.*simjob config set simc\.path/),
    });
    const notExecutable = join(root, 'plain');
    writeFileSync(notExecutable, '');
    await expect(
      findSimc({ env: { ...t.env, SIMJOB_SIMC: notExecutable }, config: t.config(), channel: 'latest' }),
    ).rejects.toThrow(/SIMJOB_SIMC .* is not executable/);
    await expect(findSimc({ flag: root, env: t.env, config: t.config(), channel: 'latest' })).rejects.toThrow(
      /--simc .* is not a file/,
    );
  });
});

describe('simc output', () => {
  it('reads version, branch and revision from the version line', () => {
    expect(
      parseVersionLine(
        'SimulationCraft 1201-01 for World of Warcraft 12.0.1.66263 Live (wow build 66263, git build midnight 066febf)',
      ),
    ).toEqual({
      line: 'SimulationCraft 1201-01 for World of Warcraft 12.0.1.66263 Live (wow build 66263, git build midnight 066febf)',
      simcVersion: '1201-01',
      wowVersion: '12.0.1.66263',
      gitBranch: 'midnight',
      commit: '066febf',
    });
    expect(
      parseVersionLine('SimulationCraft 1201-01 for World of Warcraft 12.0.1.66263 Live (wow build 66263)'),
    ).toMatchObject({ commit: null, gitBranch: null });
    expect(parseVersionLine('Simulating...')).toBeUndefined();
  });

  it("finds simc's fatal line in either spelling", () => {
    expect(findErrorLine('Warning: Unknown option x\nError: Setup failure: Nothing to sim!\n')).toBe(
      'Setup failure: Nothing to sim!',
    );
    expect(findErrorLine("ERROR! Profileset 'a' Setup failure: bad\n")).toBe("Profileset 'a' Setup failure: bad");
    expect(findErrorLine('Warning: only a warning\n')).toBeUndefined();
  });

  it('gives one binary at one version a stable UUID-shaped build id', () => {
    const id = localBuildId('/usr/bin/simc', 'SimulationCraft 1201-01 for World of Warcraft 12.0.1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(localBuildId('/usr/bin/simc', 'SimulationCraft 1201-01 for World of Warcraft 12.0.1')).toBe(id);
    expect(localBuildId('/usr/bin/simc', 'SimulationCraft 1201-02 for World of Warcraft 12.0.1')).not.toBe(id);
  });
});
