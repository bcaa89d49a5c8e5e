#!/usr/bin/env node
// The bin shim: answers --version without loading the CLI (the one answer scripts ask for in a loop), turns on
// Node's compile cache where Node has one (22.1+), then loads the bundled CLI. CommonJS, as dist/ is
// (bin/package.json).
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const { version } = require('../package.json');
  try {
    require('node:fs').writeSync(1, `${version}\n`);
  } catch (error) {
    if (error.code !== 'EPIPE') throw error; // `simjob --version | true`: the reader left, not an error
  }
} else {
  require('node:module').enableCompileCache?.();
  // --debug: stack traces point into src/ through the bundle's source maps.
  if (args.includes('--debug') || args.includes('-d') || process.env.SIMJOB_DEBUG) process.setSourceMapsEnabled(true);
  // `simjob … | head` closes the pipe early: that is the reader's choice, not an error.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  const env = process.env;
  require('../dist/cli.js')
    .main(args, { env, stdout: process.stdout, stderr: process.stderr, stdin: () => process.stdin })
    .then((code) => {
      process.exitCode = code;
    });
}
