#!/usr/bin/env node
// The bin shim: answers --version without loading the CLI, turns on Node's compile cache (22.1+), then loads the
// bundled CLI. CommonJS, as dist/ is (bin/package.json).
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const fs = require('node:fs'); // read, not require('../package.json'): the JSON module loader costs more here
  try {
    fs.writeSync(1, `${JSON.parse(fs.readFileSync(`${__dirname}/../package.json`, 'utf8')).version}\n`);
  } catch (error) {
    if (error.code !== 'EPIPE') throw error; // `simjob --version | true`: the reader left, not an error
  }
} else {
  require('node:module').enableCompileCache?.();
  // --debug: stack traces point into src/ through the bundle's source maps.
  const debugEnv = process.env.SIMJOB_DEBUG;
  if (args.includes('--debug') || args.includes('-d') || (debugEnv && !['0', 'false'].includes(debugEnv))) {
    process.setSourceMapsEnabled(true);
  }
  // `simjob … | head` closes the pipe early: that is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  let cli;
  try {
    cli = require('../dist/cli.js');
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli.js')) throw error;
    process.stderr.write(
      `simjob is not built: run \`npm run build\` in ${require('node:path').resolve(__dirname, '..')}\n`,
    );
    process.exit(1);
  }
  cli
    .main(args, { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: () => process.stdin })
    .then((code) => (process.exitCode = code));
}
