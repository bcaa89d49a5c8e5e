/**
 * Loads the bundle (dist/*.js, CommonJS) with V8 code caches made after a command ran, so that the next run of the
 * same command neither parses nor compiles the functions it calls. Node's own compile cache (Node ≥ 22.1; none on 20)
 * is written right after a file is compiled, when V8 has compiled only what a file runs at load: every function a
 * command then calls was compiled again in every process (docs/design.md: Start-up).
 *
 * bin/simjob.js loads dist/code-cache.cjs (this file, bundled alone) and asks it for dist/cli.js. Each bundle file is
 * compiled as Node compiles a CommonJS module (the same wrapper function), through vm.Script with the cached data of
 * this command, if there is one; relative requires come back here, built-ins go to Node. At exit, a file that had no
 * usable cache gets one, written atomically, in `<cache dir>/code-cache/<build>-<Node version>-<arch>/<command>/`.
 * `<build>` is dist/build-id, a hash of every bundle file that the build writes: V8 checks that cached data comes
 * from the same V8 with the same flags (else it refuses it, and it is made again), but of the source only its length,
 * so a cache must never meet another build's file. Only the newest few such folders are kept.
 *
 * Not used with --debug (vm.Script gets no source maps; Node's loader maps stack traces to src/), nor with
 * NODE_DISABLE_COMPILE_CACHE=1, which turns off Node's compile cache too. The cache is a per-user folder (0700).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Script } from 'node:vm';
import { cacheDir } from './config/paths.js';

/** The bin shim decides on --debug before any bundle file loads: it reads the one rule from this small file. */
export { debugLevelOf } from './debug.js';

interface LoadedModule {
  exports: unknown;
}

/** Node's CommonJS wrapper: a module's own code runs with the same five names bound. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/** Folders of other builds (and Nodes) kept besides this one's: a second install in use, or the one just replaced. */
const OTHER_BUILDS_KEPT = 2;

export class BundleLoader {
  private readonly modules = new Map<string, LoadedModule>();
  /** Files compiled without usable cached data: their caches are written at exit, after the command ran. */
  private readonly uncached: { script: Script; cacheFile: string }[] = [];

  /** `dist`: the bundle's folder; `cacheFolder`: this build's and command's caches (see cacheFolderFor). */
  constructor(
    private readonly dist: string,
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
    const cacheFile = join(this.cacheFolder, relative(this.dist, file).replaceAll(/[\\/]/g, '_'));
    const cachedData = readIfThere(cacheFile);
    const script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
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
      const fresh = mkdirSync(this.cacheFolder, { recursive: true, mode: 0o700 }) !== undefined; // it made a folder
      for (const { script, cacheFile } of this.uncached.splice(0)) {
        const temporary = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        renameSync(temporary, cacheFile);
      }
      if (fresh) pruneOtherBuilds(dirname(dirname(this.cacheFolder)), dirname(this.cacheFolder));
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

/** dist/build-id: hex digits (scripts/build.mjs). */
const BUILD_ID = '[0-9a-f]{8,64}';
/** A build's folder: `<build id>-<Node version>-<arch>` (cacheFolderFor). */
const buildFolderName = (build: string) => `${build}-${process.version}-${process.arch}`;
const BUILD_FOLDER = new RegExp(`^${BUILD_ID}-v\\d+\\.\\d+\\.\\d+-[a-z0-9]+$`);

/**
 * Remove the folders of builds other than `current` but the most recently changed few. Only folders named as a
 * build's are touched: whatever else shares the folder is not the cache's to remove.
 */
function pruneOtherBuilds(root: string, current: string): void {
  const others = readdirSync(root)
    .filter((name) => BUILD_FOLDER.test(name))
    .map((name) => join(root, name))
    .filter((path) => path !== current)
    .map((path) => ({ path, changed: statSync(path).mtimeMs }))
    .sort((a, b) => b.changed - a.changed);
  for (const { path } of others.slice(OTHER_BUILDS_KEPT)) rmSync(path, { recursive: true, force: true });
}

/**
 * The caches of one command line of one build: the command's name (the first argument) names the folder, so each
 * command's caches hold its code; undefined when the bundle has no build id (then nothing is cached).
 */
export function cacheFolderFor(dist: string, args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  let build: string;
  try {
    build = readFileSync(join(dist, 'build-id'), 'utf8').trim();
  } catch {
    return undefined;
  }
  if (!new RegExp(`^${BUILD_ID}$`).test(build)) return undefined;
  const command = args[0] && /^[a-z][a-z-]{0,30}$/.test(args[0]) ? args[0] : 'other';
  return join(cacheDir(env), 'code-cache', buildFolderName(build), command);
}

/**
 * How the bin shim loads the files of the bundle in `dist` for this command line: with code caches (one loader, so a
 * file the shim and the CLI both load runs once), whose missing ones are written as the process exits; or Node's own
 * require when they are turned off.
 */
export function bundleLoader(dist: string, args: readonly string[], env: NodeJS.ProcessEnv, nodeRequire: NodeJS.Require): (file: string) => unknown {
  const folder = env.NODE_DISABLE_COMPILE_CACHE ? undefined : cacheFolderFor(dist, args, env);
  if (!folder) return nodeRequire;
  const loader = new BundleLoader(dist, folder, nodeRequire);
  process.once('exit', () => loader.saveCaches());
  return (file) => loader.load(file);
}
