/**
 * Loads the bundle (dist/*.js, CommonJS) with V8 code caches made after a command ran, so that the next run of the
 * same command neither parses nor compiles the functions it calls. Node's own compile cache (Node ≥ 22.1; none on 20)
 * is written right after a file is compiled, when V8 has compiled only what a file runs at load: every function a
 * command then calls was compiled again in every process (README, Design: Start-up).
 *
 * bin/simjob.js loads dist/code-cache.cjs (this file, bundled alone) and asks it for dist/cli.js. Each bundle file is
 * compiled as Node compiles a CommonJS module (the same wrapper function), through vm.Script with the cached data of
 * this command, if there is one; relative requires come back here, built-ins go to Node. At exit, a file that had no
 * usable cache gets one, written atomically: `<cache dir>/code-cache/<Node version>-<arch>/<command>/<file>`, where
 * the name also holds the file's size and mtime, so a new build or install never meets an old cache. V8 refuses cached
 * data made by another V8 or with other flags itself (`cachedDataRejected`), and then it is made again.
 *
 * Not used with --debug (vm.Script gets no source maps; Node's loader maps stack traces to src/), nor with
 * NODE_DISABLE_COMPILE_CACHE=1, which turns off Node's compile cache too. The cache is a per-user folder (0700).
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { cacheDir } from './config/paths.js';

interface LoadedModule {
  exports: unknown;
}

/** Node's CommonJS wrapper: a module's own code runs with the same five names bound. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

export class BundleLoader {
  private readonly modules = new Map<string, LoadedModule>();
  /** Files compiled without usable cached data: their caches are written at exit, after the command ran. */
  private readonly uncached: { script: Script; cacheFile: string }[] = [];

  constructor(
    private readonly cacheFolder: string,
    private readonly nodeRequire: NodeJS.Require,
  ) {}

  /** module.exports of a bundle file, loaded once. */
  load(path: string): unknown {
    const file = resolve(path);
    const known = this.modules.get(file);
    if (known) return known.exports;
    const module: LoadedModule = { exports: {} };
    this.modules.set(file, module); // before it runs, as Node does: a cycle gets the exports made so far
    const source = readFileSync(file, 'utf8');
    const { size, mtimeMs } = statSync(file);
    const cacheFile = join(this.cacheFolder, `${basename(file)}.${size}-${Math.trunc(mtimeMs)}`);
    const cachedData = readIfThere(cacheFile);
    const script = new Script(wrap(source), { filename: file, cachedData });
    if (!cachedData || script.cachedDataRejected) this.uncached.push({ script, cacheFile });
    const dir = dirname(file);
    const require = (id: string) => (id.startsWith('./') || id.startsWith('../') ? this.load(join(dir, id)) : this.nodeRequire(id));
    (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, file, dir);
    return module.exports;
  }

  /** Write the caches of the files that had none, with every function compiled so far (synchronous: run at exit). */
  saveCaches(): void {
    if (this.uncached.length === 0) return;
    try {
      mkdirSync(this.cacheFolder, { recursive: true, mode: 0o700 });
      for (const { script, cacheFile } of this.uncached.splice(0)) {
        const temporary = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, cacheFile);
      }
    } catch {
      // a cache is only ever an optimisation: a read-only or full disk leaves the command as it was
    }
  }
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** The caches of one command line: its command's name (the first argument), so each command's caches hold its code. */
export function cacheFolderFor(args: readonly string[], env: NodeJS.ProcessEnv): string {
  const command = args[0] && /^[a-z][a-z-]{0,30}$/.test(args[0]) ? args[0] : 'other';
  return join(cacheDir(env), 'code-cache', `${process.version}-${process.arch}`, command);
}

/**
 * How the bin shim loads bundle files for this command line: with code caches (one loader, so a file the shim and
 * the CLI both load runs once), whose missing ones are written as the process exits; or Node's own require when
 * they are turned off.
 */
export function bundleLoader(args: readonly string[], env: NodeJS.ProcessEnv, nodeRequire: NodeJS.Require): (file: string) => unknown {
  if (env.NODE_DISABLE_COMPILE_CACHE) return nodeRequire;
  const loader = new BundleLoader(cacheFolderFor(args, env), nodeRequire);
  process.once('exit', () => loader.saveCaches());
  return (file) => loader.load(file);
}
