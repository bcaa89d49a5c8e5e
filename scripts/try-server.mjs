#!/usr/bin/env node
// `npm run try-server [-- --port N] [-- --webhook-url URL]`: the bundled test Simulation Job Service (test/server/),
// to try the remote commands without an account. It runs in memory, accepts the key sk_test_good and makes its
// numbers up. It prints the lines to paste into another shell, then serves until Ctrl-C.
//
// --webhook-url does what the service's dashboard does under Clients & Keys → the client → Webhook: jobs submitted
// with --webhook get a signed job.terminal event at that URL (here, unlike the service, a 127.0.0.1 URL is fine).
// The signing secret is SIMJOB_WEBHOOK_SECRET if set, else a new one, printed once as the dashboard shows it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const flag = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? (process.argv[at + 1] ?? '') : undefined;
};
const port = flag('--port') ?? '8787';
if (!/^\d+$/.test(port)) {
  process.stderr.write(`--port must be a port number (got "${port}").\n`);
  process.exit(2);
}
const webhookUrl = flag('--webhook-url');
if (webhookUrl !== undefined && !/^https?:\/\/[^/]+\/[^\s/]\S*$/.test(webhookUrl)) {
  process.stderr.write(
    `--webhook-url must be an http(s) URL with its path, e.g. http://127.0.0.1:8790/webhooks (got "${webhookUrl}").\n`,
  );
  process.exit(2);
}
const secret = webhookUrl && (process.env.SIMJOB_WEBHOOK_SECRET || `whsec_${randomBytes(24).toString('hex')}`);

const main = join(root, 'test', 'server', 'main.ts');
const args = [join(root, 'scripts', 'tsrun.mjs'), main, '--port', port];
if (webhookUrl) args.push('--webhook-key', `sk_test_good:${secret}:${webhookUrl}`);
const server = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

// The server's first stdout line says where it listens (test/server/main.ts).
const lines = createInterface({ input: server.stdout });
lines.once('line', (line) => {
  const { url, apiKeys } = JSON.parse(line);
  const webhook = webhookUrl
    ? [
        `Jobs submitted with --webhook send a signed job.terminal event to ${webhookUrl}. In the shell of the`,
        'listener (e.g. `simjob webhook listen`, which prints the URL it receives on), paste:',
        '',
        `export SIMJOB_WEBHOOK_SECRET=${secret}`,
        '',
      ]
    : [];
  process.stdout.write(
    [
      `The test Simulation Job Service listens on ${url} (in memory, made-up numbers; Ctrl-C stops it).`,
      'Paste these two lines into another shell, then try',
      '`simjob submit examples/fury-profilesets.simc --channel nightly --wait`:',
      '',
      `export SIMJOB_BASE_URL=${url}`,
      `export SIMJOB_API_KEY=${apiKeys[0]}`,
      '',
      ...webhook,
    ].join('\n'),
  );
  lines.on('line', (more) => process.stdout.write(`${more}\n`));
});
