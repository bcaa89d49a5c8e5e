import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { BIN } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { freshLocalEnvs, json, profileFile, quickProfile, run, waitForStatus } from './local-helpers.js';

// What `simjob status <id> --json` and `artifacts --download` make Node load, on whichever Node runs the suite (CI: 20
// and 24). The figures live in bench/startup.ts and bench/download.ts (peak RSS); this keeps out the modules found to
// cost the most (docs/design.md: Start-up).
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startServer({ queueMs: 0, runMs: 0, apiKeys: ['sk_test_good'] });
  dir = mkdtempSync(join(tmpdir(), 'simjob-startup-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Node's built-in modules a command loaded, from process.moduleLoadList at exit. */
async function builtinsLoadedBy(args: string[], env: Record<string, string>): Promise<string[]> {
  const preload = join(dir, 'module-list.cjs');
  const out = join(dir, 'modules.json');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.moduleLoadList)));\n`,
  );
  const run = await execa(process.execPath, ['--require', preload, BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    extendEnv: false,
    reject: false,
  });
  expect(run.exitCode, run.stderr).toBe(0);
  return (JSON.parse(readFileSync(out, 'utf8')) as string[])
    .filter((m) => m.startsWith('NativeModule '))
    .map((m) => m.slice('NativeModule '.length));
}

describe('start-up of simjob status --json', () => {
  it('loads neither undici, TLS, node:crypto, child processes nor fs/promises for a plain http service', async () => {
    const env = { SIMJOB_CONFIG_DIR: join(dir, 'config'), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good' };
    const submitted = await execa(process.execPath, [BIN, 'submit', '-', '--channel', 'nightly', '--json'], {
      env,
      input: 'warrior="Startup"\n',
    });
    const { id } = JSON.parse(submitted.stdout) as { id: string };
    const loaded = await builtinsLoadedBy(['status', id, '--json'], env);
    expect(loaded).toContain('http'); // it did make its request
    const costly = [
      'internal/deps/undici/undici',
      'tls',
      'https',
      'crypto',
      'child_process',
      'internal/fs/promises',
      'internal/readline/interface',
    ];
    expect(loaded.filter((m) => costly.includes(m))).toEqual([]);
  });

  it('--version answers without creating stdout (a socket on a pipe) or loading the CLI', async () => {
    const loaded = await builtinsLoadedBy(['--version'], {});
    expect(loaded.filter((m) => ['net', 'tty', 'http', 'internal/fs/sync_write_stream'].includes(m))).toEqual([]);
  });
});

/** The src/ modules of a built file and of every file it requires at load (not in a later import()), from their source maps. */
function staticSources(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const sources = new Set(
    (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources.map((s) =>
      s.replace(/^.*?src\//, 'src/'),
    ),
  );
  for (const [, imported] of text.matchAll(/^(?:var [\w$]+ = )?require\('(\.\.?\/[^']+\.js)'\);$/gm)) {
    for (const source of staticSources(join(dirname(file), imported!), seen)) sources.add(source);
  }
  return sources;
}

describe('a local submit', () => {
  const freshEnv = freshLocalEnvs();

  it('loads neither node:crypto for its ids, temp files and locks nor fs/promises and readline', async () => {
    const env = freshEnv();
    const loaded = await builtinsLoadedBy(
      ['submit', profileFile(env, 'p.simc', quickProfile('Modules')), '--local', '--json'],
      env,
    );
    expect(loaded.filter((m) => ['crypto', 'internal/fs/promises', 'internal/readline/interface'].includes(m))).toEqual(
      [],
    );
    const [job] = json(await run(env, ['jobs', '--local', '--json'])).jobs as Array<{ id: string }>;
    expect(job?.id).toMatch(/^local-[0-9a-z]{18}$/);
    await waitForStatus(env, job!.id, 'completed'); // a job like any other: the worker runs it
  });

  it('--wait runs the job without fs/promises and readline', async () => {
    const env = freshEnv();
    const loaded = await builtinsLoadedBy(
      ['submit', profileFile(env, 'w.simc', quickProfile('Waits')), '--local', '--wait', '--json'],
      env,
    );
    expect(loaded).toContain('child_process'); // it did run simc itself
    expect(loaded.filter((m) => ['internal/fs/promises', 'internal/readline/interface'].includes(m))).toEqual([]);
    const [job] = json(await run(env, ['jobs', '--local', '--json'])).jobs as Array<{ id: string; status: string }>;
    expect(job?.status).toBe('completed');
  });
});

/** The built chunk holding a src/ module. */
function chunkOf(source: string): string {
  const chunks = join(REPO_ROOT, 'dist', 'chunks');
  const chunk = readdirSync(chunks)
    .filter((name) => name.endsWith('.js'))
    .find((name) => readFileSync(join(chunks, `${name}.map`), 'utf8').includes(source));
  expect(chunk, source).toBeDefined();
  return join(chunks, chunk!);
}

describe('the local backend', () => {
  it('loads none of the API client with it (a local submit or status never pays for HTTP code)', () => {
    const loaded = staticSources(chunkOf('src/core/local/backend.ts'));
    expect(loaded).toContain('src/core/local/backend.ts');
    expect([...loaded].filter((source) => /^src\/core\/api\/(http|remote|transport)\.ts$/.test(source))).toEqual([]);
  });
});

describe('the CLI entry', () => {
  it('loads neither the API client nor zod before a command asks for them (help and local commands never do)', () => {
    const loaded = [...staticSources(join(REPO_ROOT, 'dist', 'cli.js'))];
    expect(loaded).toContain('src/cli/cli.ts');
    expect(
      loaded.filter((source) =>
        /^src\/core\/(api\/(http|remote|transport)|resources\/schemas)\.ts$|\/zod\//.test(source),
      ),
    ).toEqual([]);
  });
});
