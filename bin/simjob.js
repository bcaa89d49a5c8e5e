#!/usr/bin/env node
// The bin shim: answer --version without loading the CLI, turn on the compile cache where Node has one
// (22.1+), start simc or the worker early for a local submit, then load the bundled CLI. Kept tiny on purpose:
// every line here runs on every invocation.
// Built-ins through process.getBuiltinModule, not `import`: an ES import of node:fs reads its lazy `promises`
// export, which loads fs/promises and readline (scripts/build.mjs does the same for the bundle).
const { readFileSync, writeSync } = process.getBuiltinModule('node:fs');

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // Straight to fd 1: creating process.stdout (a stream; a socket for a pipe) would cost more than the answer.
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  try {
    writeSync(1, `${version}\n`);
  } catch (error) {
    if (error.code !== 'EPIPE') throw error; // `simjob --version | true`: the reader left, not an error
  }
} else {
  const nodeModule = process.getBuiltinModule('node:module');
  nodeModule.enableCompileCache?.();
  // `submit … --local --wait`: start simc itself first (dist/head-start.cjs, one CommonJS file), so that all the
  // CLI does before it waits runs alongside simc; `submit … --local`: start the background worker first.
  let headStart;
  if (args[0] === 'submit' && args.includes('--local') && (args.includes('--wait') || args.includes('-w'))) {
    try {
      headStart = nodeModule.createRequire(import.meta.url)('../dist/head-start.cjs').startHeadStart(args, process.env);
    } catch {
      // the submit reports whatever is wrong
    }
  } else if (args.includes('submit') && args.includes('--local')) {
    await import('../dist/worker-start.js').then((m) => m.startWorkerEarly(args, process.env), () => undefined);
  }
  // `simjob … | head` closes the pipe early: that is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  const debugEnv = process.env.SIMJOB_DEBUG; // as src/debug.ts reads it
  if (args.includes('--debug') || args.includes('-d') || (debugEnv && debugEnv !== '0' && debugEnv !== 'false')) process.setSourceMapsEnabled(true);
  const { main } = await import('../dist/cli.js');
  const code = await main(args, { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: () => process.stdin, headStart });
  process.exitCode = code;
}
