#!/usr/bin/env node
// `npm run try-server [-- --port N]`: the bundled test Simulation Job Service (test/server/), to try the remote
// commands without an account. It runs in memory, accepts the key sk_test_good and makes its numbers up. It prints
// the two lines to paste into another shell, then serves until Ctrl-C.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const at = process.argv.indexOf('--port');
const port = at > 0 ? process.argv[at + 1] : '8787';
if (!/^\d+$/.test(port ?? '')) {
  process.stderr.write(`--port must be a port number (got "${port ?? ''}").\n`);
  process.exit(2);
}

const main = join(root, 'test', 'server', 'main.ts');
const server = spawn(process.execPath, [join(root, 'scripts', 'tsrun.mjs'), main, '--port', port], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

// The server's first stdout line says where it listens (test/server/main.ts).
const lines = createInterface({ input: server.stdout });
lines.once('line', (line) => {
  const { url, apiKeys } = JSON.parse(line);
  process.stdout.write(
    [
      `The test Simulation Job Service listens on ${url} (in memory, made-up numbers; Ctrl-C stops it).`,
      'Paste these two lines into another shell, then try',
      '`simjob submit examples/fury-profilesets.simc --channel nightly --wait`:',
      '',
      `export SIMJOB_BASE_URL=${url}`,
      `export SIMJOB_API_KEY=${apiKeys[0]}`,
      '',
    ].join('\n'),
  );
  lines.on('line', (more) => process.stdout.write(`${more}\n`));
});
