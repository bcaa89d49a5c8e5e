#!/usr/bin/env node
// Bundle src/ into dist/: one entry (dist/cli.js) plus chunks loaded when a command needs them, so start-up loads
// only what the command that runs needs. Libraries are bundled in: the published package has no runtime dependencies
// to resolve. esbuild compiles and bundles; rollup then regroups esbuild's chunks into fewer files (see `chunk`) and
// writes them as CommonJS, which Node loads faster than ES modules. Without the regrouping `status` loads ~25 files
// instead of 4, which Node 20 (no compile cache) pays for at every start (docs/performance.md, "Build").
import { build } from 'esbuild';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { rollup } from 'rollup';

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
// The build is written beside dist/ and moved in when complete, so a simjob run from this checkout meanwhile (tests
// rebuild while a shell uses it) never finds a file of dist/ missing.
const dist = resolve(root, 'dist');
const out = resolve(root, `.dist-next-${process.pid}`);
rmSync(out, { recursive: true, force: true });
const bundled = mkdtempSync(join(tmpdir(), 'simjob-build-'));

/** Node's built-in modules stay outside the bundle (rollup leaves them as `require` calls). */
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * rollup keeps a bare `require("node:x")` for each built-in that a module it regrouped imported without using. Loading
 * one can cost (node:fs/promises also loads readline) and Node's built-ins have no side effect simjob relies on, so
 * each is blanked with spaces of its length: lines and columns, and so the source maps, stay right.
 */
const withoutBareBuiltins = (code) =>
  code.replace(/^require\('((?:node:)?[\w/]+)'\);$/gm, (statement, id) =>
    builtins.has(id) ? ' '.repeat(statement.length) : statement,
  );

// commander loads node:child_process on every start for the executable subcommands simjob never has; give it a stand-in that loads it only if spawn is ever called.
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) && args.kind === 'require-call'
        ? { path: 'child_process', namespace: 'lazy' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents:
        'module.exports = { spawn: (...args) => process.getBuiltinModule("node:child_process").spawn(...args) };',
      loader: 'js',
    }));
  },
};

/**
 * Three groups of esbuild's chunks become one file each (rollup's manualChunks), as what always loads together still
 * came in several files:
 * - `core`: every chunk the CLI entry imports, directly or not: all of it loads before any command runs (it is not
 *   merged into cli.js itself because the worker entries share some of it);
 * - `api`: the modules every API request runs through (a request loaded four files). An esbuild chunk joins it only
 *   when all its modules are among these, so nothing else rides along;
 * - `schemas`: zod and the resource schemas (SCHEMAS below).
 * rollup moves a grouped module's static imports into its group unless they have one: the api group's are core's.
 */
const API_CLIENT = new Set(
  ['remote', 'http', 'explain', 'redact', 'retry', 'transport', 'proxy-env'].map((name) => `src/core/api/${name}.ts`),
);
/**
 * zod and the schemas of src/core/resources/schemas.ts: the API client checks every answer with them, and local mode
 * checks a submission, so they are a group of their own; otherwise rollup would draw them into the api group (it takes
 * a grouped module's imports along) and a local submit would load the whole API client.
 */
const SCHEMAS = /^(src\/core\/resources\/schemas\.ts|node_modules\/zod\/)/;
/**
 * Small modules the API client shares with the CLI and local code (the CLI closes pooled connections on the way out;
 * a local wait sleeps): in core, which everything has loaded anyway. Left to rollup, they would be drawn into the api
 * group (it takes a grouped module's imports along), and every command would load the whole API client.
 */
const SHARED_WITH_API = new Set(['src/util/sleep.ts', 'src/core/api/connections.ts']);
function groups(cliEntry) {
  let core;
  return (id, { getModuleInfo }) => {
    const { sources } = JSON.parse(readFileSync(`${id}.map`, 'utf8'));
    const modules = sources.map((source) => relative(root, resolve(dirname(id), source)).replaceAll(sep, '/'));
    if (modules.length > 0 && modules.every((module) => API_CLIENT.has(module))) return 'api';
    if (modules.length > 0 && modules.every((module) => SCHEMAS.test(module))) return 'schemas';
    if (modules.length > 0 && modules.every((module) => SHARED_WITH_API.has(module))) return 'core';
    core ??= staticImports(cliEntry, getModuleInfo);
    return core.has(id) ? 'core' : undefined;
  };
}

/** Every module `entry` imports statically, directly or not. */
function staticImports(entry, getModuleInfo) {
  const found = new Set();
  const visit = (id) => {
    for (const imported of getModuleInfo(id)?.importedIds ?? []) {
      if (found.has(imported) || !getModuleInfo(imported) || getModuleInfo(imported).isExternal) continue;
      found.add(imported);
      visit(imported);
    }
  };
  visit(entry);
  return found;
}

const entryPoints = { cli: 'src/cli/cli.ts', worker: 'src/core/local/worker-main.ts' };
try {
  await build({
    plugins: [lazyChildProcessForCommander],
    absWorkingDir: root,
    // dist/worker.js: the background worker of local jobs, an entry of its own so it starts without the CLI.
    entryPoints,
    outdir: bundled,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Maps give --debug stack traces src/ file:line positions (bin/simjob.js turns them on). Without the sources
    // embedded: that would triple the package (~4.7 MB of maps against ~1.4 MB of code) for text nobody reads there.
    sourcemap: 'linked',
    sourcesContent: false,
    minify: true,
    chunkNames: 'chunks/[name]-[hash]',
    define: { __SIMJOB_VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  await chunk(Object.keys(entryPoints));
  await buildLibrary();
} catch (error) {
  rmSync(out, { recursive: true, force: true });
  throw error;
} finally {
  rmSync(bundled, { recursive: true, force: true });
}
/**
 * esbuild makes one chunk for each set of entries (and lazily imported modules) that share code, so `status` loaded
 * 24 files: a module that the CLI and a command both import gets a chunk of its own, although the CLI has always
 * loaded it before the command's import runs, and every file costs (more through the ES module loader than through
 * `require`). rollup's chunking knows what an importer has already loaded, so
 * rollup regroups esbuild's output (built-ins stay external) into fewer files, with the source maps carried through
 * to src/, joins the two groups above (`status --json`: 4 files, from 24), and writes CommonJS.
 */
async function chunk(entries) {
  const bundle = await rollup({
    input: Object.fromEntries(entries.map((name) => [name, join(bundled, `${name}.js`)])),
    // An entry file may export more than its module does, so the code it shares lives in it, not behind a facade.
    preserveEntrySignatures: 'allow-extension',
    // kerberos: https-proxy-agent's optional Negotiate support, loaded only for a proxy that asks for it.
    external: (id) => builtins.has(id) || id === 'kerberos',
    // esbuild's maps (into src/) read in, so rollup's maps point to src/ too.
    plugins: [
      {
        name: 'esbuild-maps',
        load: (id) => ({ code: readFileSync(id, 'utf8'), map: readFileSync(`${id}.map`, 'utf8') }),
      },
    ],
    // A built-in one of esbuild's chunks imports but does not use: rollup keeps a bare `require` of it (blanked below).
    onwarn: (warning, warn) => (warning.code === 'UNUSED_EXTERNAL_IMPORT' ? undefined : warn(warning)),
  });
  const { output } = await bundle.write({
    dir: out,
    format: 'cjs',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    sourcemapExcludeSources: true,
    // import() becomes require() too: the chunks are CommonJS, and a require skips Node's ES module loader.
    dynamicImportInCjs: false,
    manualChunks: groups(join(bundled, 'cli.js')),
  });
  await bundle.close();
  for (const { fileName } of output.filter((file) => file.fileName.endsWith('.js'))) {
    const path = resolve(out, fileName);
    writeFileSync(path, withoutBareBuiltins(readFileSync(path, 'utf8')));
  }
}

/**
 * The library (`import … from 'simjob'`, src/index.ts): an ES module of its own in dist/lib/ (`.mjs`, so the
 * CommonJS package.json files of dist/ do not apply), with its chunks, and its types as one declaration file,
 * dist/simjob.d.ts, that needs nothing else installed (rollup-plugin-dts bundles the declarations tsc writes). The
 * CLI's files are untouched by it: a command loads none of these.
 */
async function buildLibrary() {
  await build({
    absWorkingDir: root,
    entryPoints: { simjob: 'src/index.ts' },
    outdir: join(out, 'lib'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: 'linked',
    sourcesContent: false,
    minify: true,
    chunkNames: 'chunks/[name]-[hash]',
    define: { __SIMJOB_VERSION__: JSON.stringify(pkg.version) },
    // Bundled CommonJS libraries (https-proxy-agent, …) require Node's built-ins; an ES module has no `require`.
    banner: {
      js: "import { createRequire as __simjobRequire } from 'node:module'; const require = __simjobRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const declarations = mkdtempSync(join(tmpdir(), 'simjob-dts-'));
  try {
    const { default: ts } = await import('typescript');
    const config = ts.getParsedCommandLineOfConfigFile(
      resolve(root, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    const options = {
      ...config.options,
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      outDir: declarations,
      rootDir: resolve(root, 'src'),
    };
    // Type errors are `npm run typecheck`'s to report: here only what stops the declarations being written. Only
    // the files the entry's declarations reach are emitted (the entry, then whatever each emitted file imports):
    // about 20 of src/'s 200, a third of the time of emitting them all.
    const rootNames = ['src/index.ts', 'src/types/globals.d.ts'].map((file) => resolve(root, file));
    const program = ts.createProgram({ rootNames, options });
    const todo = [rootNames[0]];
    const emitted = new Set();
    const problems = [];
    while (todo.length) {
      const file = todo.pop();
      if (emitted.has(file)) continue;
      emitted.add(file);
      const result = program.emit(program.getSourceFile(file), (name, text) => {
        mkdirSync(dirname(name), { recursive: true });
        writeFileSync(name, text);
        for (const [, spec] of text.matchAll(/(?:from |import\()['"](\.{1,2}\/[^'"]+)\.js['"]/g)) {
          const source = resolve(dirname(file), `${spec}.ts`);
          if (existsSync(source)) todo.push(source);
        }
      });
      problems.push(...result.diagnostics);
    }
    if (problems.length) {
      const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
      throw new Error(ts.formatDiagnostics(problems, host));
    }
    const { dts } = await import('rollup-plugin-dts');
    const bundle = await rollup({
      input: join(declarations, 'index.d.ts'),
      plugins: [dts()],
      // Internal modules' declarations name zod; what the entry's types reach is checked below instead.
      onwarn: (warning, warn) => (warning.code === 'UNRESOLVED_IMPORT' ? undefined : warn(warning)),
    });
    const { output } = await bundle.generate({ format: 'es' });
    await bundle.close();
    const text = output[0].code;
    // The package has no dependencies: its types must not name a module the user lacks (zod, say).
    const imported = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    if (imported.length)
      throw new Error(`dist/simjob.d.ts imports ${imported.join(', ')}: the library's types must stand alone.`);
    writeFileSync(join(out, 'simjob.d.ts'), text);
  } finally {
    rmSync(declarations, { recursive: true, force: true });
  }
}

// Node looks for the package.json that says how to read each .js file it loads, walking up from the file's folder; one
// in each dist folder ends the walk there (and says CommonJS, where simjob's own package.json says module).
for (const dir of [out, join(out, 'chunks')]) writeFileSync(resolve(dir, 'package.json'), '{ "type": "commonjs" }\n');

// Into dist/ file by file, each a rename over the old one (one step, on one file system): the chunks first, then what
// loads them. No path of dist/ is ever missing; files only the old build had go at the end.
if (existsSync(dist)) {
  const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  const fresh = new Set(files.map((entry) => relative(out, join(entry.parentPath, entry.name))));
  // Chunks (the CLI's, the library's) before the entries that load them.
  const order = (file) => (file.split(sep).includes('chunks') ? 0 : 1);
  for (const file of [...fresh].sort((a, b) => order(a) - order(b))) {
    mkdirSync(dirname(join(dist, file)), { recursive: true });
    renameSync(join(out, file), join(dist, file));
  }
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    const file = relative(dist, join(entry.parentPath, entry.name));
    if (entry.isFile() && !fresh.has(file)) rmSync(join(dist, file));
  }
  rmSync(out, { recursive: true, force: true });
} else {
  renameSync(out, dist);
}
