#!/usr/bin/env node
// The bin shim: answer --version without loading the CLI, turn on the compile cache where Node has one
// (22.1+), start simc or the worker early for a local submit, then load the bundled CLI with code caches made after
// earlier runs (dist/code-cache.cjs). Kept tiny on purpose: every line here runs on every invocation. CommonJS
// (bin/package.json), as dist/ is: on Node 20 the first ES module a process loads starts Node's ES loader, ~3.5 ms.
'use strict';
const { readFileSync, writeSync } = require('node:fs');

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // Straight to fd 1: creating process.stdout (a stream; a socket for a pipe) would cost more than the answer.
  const { version } = JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8'));
  try {
    writeSync(1, `${version}\n`);
  } catch (error) {
    if (error.code !== 'EPIPE') throw error; // `simjob --version | true`: the reader left, not an error
  }
} else {
  require('node:module').enableCompileCache?.();
  const dist = require('node:path').join(__dirname, '..', 'dist');
  // `submit … --local --wait`: start simc itself first (dist/head-start.cjs, one small file), so that all the CLI does
  // before it waits runs alongside simc; `submit … --local`: start the background worker first.
  const waitingLocalSubmit = args[0] === 'submit' && args.includes('--local') && (args.includes('--wait') || args.includes('-w'));
  let headStart;
  if (waitingLocalSubmit) {
    try {
      headStart = require(`${dist}/head-start.cjs`).startHeadStart(args, process.env);
    } catch {
      // the submit reports whatever is wrong
    }
  }
  let codeCache;
  try {
    codeCache = require(`${dist}/code-cache.cjs`);
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') throw error;
    // A checkout that was never built (the package ships dist/ built).
    process.stderr.write(`simjob is not built: run \`npm run build\` in ${require('node:path').dirname(__dirname)}\n`);
    process.exit(1);
  }
  const debug = codeCache.debugLevelOf(process.env, args.includes('--debug') || args.includes('-d')) > 0;
  // --debug: Node's own loader, whose stack traces the source maps turn into src/ positions (vm.Script gets none).
  if (debug) process.setSourceMapsEnabled(true);
  const load = debug ? require : codeCache.bundleLoader(dist, args, process.env, require);
  // The worker is started before the CLI loads, so that its Node start-up runs alongside the CLI's.
  const workerStarted =
    !waitingLocalSubmit && args.includes('submit') && args.includes('--local')
      ? (async () => load(`${dist}/worker-start.js`).startWorkerEarly(args, process.env))().catch(() => undefined) // else the submit starts it
      : undefined;
  // `simjob … | head` closes the pipe early: that is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  Promise.resolve(workerStarted)
    .then(() => load(`${dist}/cli.js`).main(args, { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: () => process.stdin, headStart }))
    .then((code) => {
      process.exitCode = code;
      // Once nothing is left to run (every write flushed, no hand-over of a local job pending: inline.ts listens
      // here too), end at once: Node's own teardown frees V8's heap page by page, ~0.6 ms the kernel then does in one go.
      process.on('beforeExit', () => {
        if (process.listenerCount('beforeExit') === 1) process.exit();
      });
    });
}
