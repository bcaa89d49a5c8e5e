import { execa } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/shared.js';
import { tempDir } from '../helpers/temp.js';
import { startServer } from '../server/index.js';
import { cleanUp, FAKE_SIMC, localEnv } from './local-helpers.js';

/**
 * The package as users get it: `npm pack` of the built tree, installed into an empty folder with no registry and
 * no dev dependencies, then run. (`npm pack` here skips the prepare build because `npm test` has just built dist/,
 * and rebuilding would pull dist/ out from under tests running beside this one.)
 */

const pkg = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  files: string[];
};
let root: string;
let tarball: string;
let files: string[];
let app: string;

const npm = (args: string[], cwd: string) =>
  execa('npm', [...args, '--no-audit', '--no-fund', '--offline', '--cache', join(root, 'npm-cache')], {
    cwd,
    reject: false,
    env: { npm_config_update_notifier: 'false' },
  });

beforeAll(async () => {
  expect(
    existsSync(resolve(REPO_ROOT, 'dist', 'cli.js')),
    'dist/ is not built: run `npm run build` (npm test does)',
  ).toBe(true);
  root = tempDir('simjob-pack-');
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', root], REPO_ROOT);
  expect(packed.exitCode, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(root, info!.filename);
  files = info!.files.map((f) => f.path).sort();

  app = join(root, 'app');
  mkdirSync(app);
  const installed = await npm(['install', tarball, '--ignore-scripts'], app);
  expect(installed.exitCode, installed.stderr).toBe(0);
}, 120_000);

describe('the npm package', () => {
  it('holds the built CLI and library, the shim, the completions, README and LICENSE, and nothing else', () => {
    const dist = readdirSync(resolve(REPO_ROOT, 'dist'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(REPO_ROOT.length + 1));
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'bin/simjob.js',
        'completions/simjob.bash',
        'completions/_simjob',
        'completions/simjob.fish',
        'data/catalog/midnight-s1.json',
        'data/catalog/NOTICE',
        'data/catalog/LICENSE-pybots-Apache-2.0',
        ...dist,
      ]),
    );
    const allowed = /^(?:bin\/|dist\/|completions\/|data\/catalog\/|README\.md$|LICENSE$|package\.json$)/;
    expect(
      files.filter((f) => !allowed.test(f)),
      "files outside the package's `files` list",
    ).toEqual([]);
    // TypeScript sources stay out; the library's declaration file (dist/simjob.d.ts) is shipped.
    expect(files.filter((f) => /(?:^|\/)(?:src|test|bench|scripts)\/|\.test\.|(?<!\.d)\.ts$/.test(f))).toEqual([]);
    expect(readFileSync(join(app, 'node_modules', pkg.name, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} simjob contributors\n/,
    );
  });

  it('ships source maps for --debug stack traces, without the sources inside them', async () => {
    const maps = files.filter((f) => f.endsWith('.map'));
    expect(maps).toContain('dist/cli.js.map');
    for (const map of maps) {
      const parsed = JSON.parse(readFileSync(join(app, 'node_modules', pkg.name, map), 'utf8')) as {
        sourcesContent?: unknown;
      };
      expect(parsed.sourcesContent, map).toBeUndefined();
    }
    // The maps work: a --debug stack trace names source files and lines.
    const failed = await execa(join(app, 'node_modules', '.bin', 'simjob'), ['status', '1', '--debug'], {
      env: { PATH: process.env.PATH, SIMJOB_CONFIG_DIR: join(root, 'no-config') },
      extendEnv: false,
      reject: false,
    });
    expect(failed.exitCode).toBe(2);
    expect(failed.stderr).toMatch(/\/src\/core\/config\/resolve\.ts:\d+:\d+\)/);
  });

  it('installs with no dependencies at all: everything is bundled', () => {
    const modules = readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(modules).toEqual([pkg.name]);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', pkg.name, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  it('runs from the install: --version, --help, completion, doctor (which loads bundled chunks)', async () => {
    const bin = join(app, 'node_modules', '.bin', 'simjob');
    const env = {
      PATH: process.env.PATH,
      HOME: root,
      SIMJOB_CONFIG_DIR: join(root, 'config'),
      SIMJOB_DATA_DIR: join(root, 'data'),
    };
    const run = (args: string[]) => execa(bin, args, { cwd: app, env, extendEnv: false, reject: false });

    const version = await run(['--version']);
    expect(version).toMatchObject({ exitCode: 0, stdout: pkg.version, stderr: '' });
    expect((await run(['-v'])).stdout).toBe(pkg.version);

    const help = await run(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Examples:\n {2}\$ simjob /);
    expect(help.stdout).toContain('Usage: simjob [options] [command]');

    const bash = await run(['completion', 'bash']);
    expect(bash.stdout + '\n').toBe(
      readFileSync(join(app, 'node_modules', pkg.name, 'completions', 'simjob.bash'), 'utf8'),
    );

    const doctor = await execa(bin, ['doctor', '--json'], {
      cwd: app,
      env: { ...env, SIMJOB_SIMC: resolve(REPO_ROOT, 'test', 'fake-simc', 'simc') },
      extendEnv: false,
      reject: false,
    });
    expect(doctor.exitCode).toBe(0); // a local-only setup: the remote checks are "not set up", not failed
    const simc = (JSON.parse(doctor.stdout) as Array<{ check: string; ok: boolean; detail: string }>).find(
      (c) => c.check === 'simc',
    );
    expect(simc).toMatchObject({ ok: true, detail: expect.stringContaining('SimulationCraft 1201-01') });
  });

  it('runs through npx', async () => {
    const result = await execa('npx', ['--offline', '--no-install', 'simjob', '--help'], {
      cwd: app,
      reject: false,
      env: { npm_config_update_notifier: 'false' },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Examples:/);
  });

  it("installs without --ignore-scripts too, without a warning: nothing needs to build on the user's machine", async () => {
    const plain = join(root, 'plain');
    mkdirSync(plain);
    const installed = await npm(['install', tarball], plain);
    expect(installed.exitCode, installed.stderr).toBe(0);
    // No install or prepare script for npm to ask the user about (the build runs on `npm pack`: prepack).
    expect(installed.stderr.split('\n').filter((line) => /\bwarn\b/i.test(line))).toEqual([]);
    const version = await execa(join(plain, 'node_modules', '.bin', 'simjob'), ['--version'], { reject: false });
    expect(version.stdout).toBe(pkg.version);
  });

  it("is a library: `import { createClient } from 'simjob'` type-checks with the shipped types and runs jobs, silently", async () => {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', pkg.name, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      bin: Record<string, string>;
    };
    expect(manifest.bin).toEqual({ simjob: 'bin/simjob.js' });
    expect(manifest.exports['.']).toEqual({ types: './dist/simjob.d.ts', import: './dist/lib/simjob.mjs' });

    // A user's TypeScript against the installed package: the types are real (a misuse is an error), not `any`.
    writeFileSync(
      join(app, 'check.mts'),
      [
        "import { createClient, UsageError, type Client, type ResultRecord } from 'simjob';",
        "const client: Client = createClient({ baseUrl: 'https://sim.example.com', apiKey: 'k' });",
        "const local: Client = createClient({ local: true, dataDir: './sims', simc: '/usr/bin/simc' });",
        'export async function best(id: string): Promise<string | undefined> {',
        '  const result: ResultRecord = await client.result(id);',
        '  await local.wait(id, { onProgress: (s) => s.progress?.percent, signal: AbortSignal.timeout(1000) });',
        '  return result.result.summary?.mainActor?.profilesets?.results[0]?.name;',
        '}',
        'export const isUsage = (e: unknown): boolean => e instanceof UsageError && e.exitCode === 2;',
        '// @ts-expect-error: a base URL is a string',
        "createClient({ baseUrl: 1, apiKey: 'k' });",
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [resolve(REPO_ROOT, 'node_modules', '@types')],
        },
        files: ['check.mts'],
      }),
    );
    const tsc = await execa(
      process.execPath,
      [resolve(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app],
      {
        cwd: app,
        reject: false,
      },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.exitCode).toBe(0);

    // Run from the install: a job on the test server and a local one through the stand-in; it prints nothing.
    writeFileSync(
      join(app, 'main.mjs'),
      [
        "import { writeFileSync } from 'node:fs';",
        "import { createClient } from 'simjob';",
        'const profile = \'warrior="Pack"\\nspec=fury\\nlevel=90\\nprofileset."a"=talents=A\\n\';',
        'const remote = createClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });',
        'const fromService = await remote.run(profile);',
        'await remote.close();',
        'const local = createClient({ local: true, simc: process.env.SIMC, dataDir: process.env.DATA_DIR });',
        'const fromSimc = await local.run(profile);',
        'writeFileSync(process.env.OUT, JSON.stringify({ remote: fromService, local: fromSimc }));',
        '',
      ].join('\n'),
    );
    const server = await startServer({ queueMs: 20, runMs: 100 });
    const env = localEnv();
    try {
      const out = join(root, 'library-out.json');
      const ran = await execa(process.execPath, ['main.mjs'], {
        cwd: app,
        env: {
          PATH: process.env.PATH,
          HOME: root,
          BASE_URL: server.url,
          API_KEY: 'sk_test_good',
          SIMC: FAKE_SIMC,
          DATA_DIR: env.SIMJOB_DATA_DIR,
          OUT: out,
        },
        extendEnv: false,
        reject: false,
      });
      expect({ exitCode: ran.exitCode, stdout: ran.stdout, stderr: ran.stderr }).toEqual({
        exitCode: 0,
        stdout: '',
        stderr: '',
      });
      const results = JSON.parse(readFileSync(out, 'utf8')) as Record<string, { id: string; status: string }>;
      expect(results.remote).toMatchObject({ id: expect.stringMatching(/^\d+$/), status: 'completed' });
      expect(results.local).toMatchObject({ id: expect.stringMatching(/^local-/), status: 'completed' });
    } finally {
      await server.close();
      await cleanUp(env);
    }
  }, 120_000);
});
