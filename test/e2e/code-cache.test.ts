import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedDirs, simjob } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { tempDir } from '../helpers/temp.js';

// The code caches bin/simjob.js loads the bundle with (src/code-cache.ts), as a user's runs meet them: each run a
// process of its own, as V8 takes or refuses cached data only in a new process.
const build = readFileSync(join(REPO_ROOT, 'dist', 'build-id'), 'utf8').trim();
const folderOf = (cacheDir: string, command: string) => join(cacheDir, 'code-cache', `${build}-${process.version}-${process.arch}`, command);

describe('code caches of the bundle', () => {
  it('are written after a command first runs, then used as they are, and made again when unusable', async () => {
    const env = { ...isolatedDirs(), SIMJOB_CACHE_DIR: tempDir('simjob-cache-') };
    const first = await simjob(['jobs', '--local', '--json'], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    const folder = folderOf(env.SIMJOB_CACHE_DIR, 'jobs');
    const cliCache = join(folder, 'cli.js');
    expect(readdirSync(folder)).toContain('chunks_' + readdirSync(join(REPO_ROOT, 'dist', 'chunks')).find((name) => name.startsWith('core-') && name.endsWith('.js')));
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const made = readFileSync(cliCache);

    const second = await simjob(['jobs', '--local', '--json'], { env });
    expect(second.stdout).toBe(first.stdout);
    expect(readFileSync(cliCache).equals(made)).toBe(true); // V8 took it: not written again

    writeFileSync(cliCache, 'not a code cache');
    const third = await simjob(['jobs', '--local', '--json'], { env });
    expect(third.exitCode, third.stderr).toBe(0);
    expect(third.stdout).toBe(first.stdout);
    expect(readFileSync(cliCache, 'utf8')).not.toBe('not a code cache'); // V8 refused it: made again
  });

  it('are neither read nor written with NODE_DISABLE_COMPILE_CACHE=1, nor with --debug (Node loads the bundle itself)', async () => {
    const env = { ...isolatedDirs(), SIMJOB_CACHE_DIR: tempDir('simjob-cache-') };
    expect((await simjob(['jobs', '--local', '--json'], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } })).exitCode).toBe(0);
    const debugged = await simjob(['jobs', '--local', '--json', '--debug'], { env });
    expect(debugged.exitCode, debugged.stderr).toBe(0);
    expect(existsSync(join(env.SIMJOB_CACHE_DIR, 'code-cache'))).toBe(false);
  });
});
