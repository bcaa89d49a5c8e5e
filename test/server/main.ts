/**
 * Run the test server standalone, for benches and manual runs:
 *
 *   node scripts/tsrun.mjs test/server/main.ts [--port N] [--artifact-port N] [--queue-ms N] [--run-ms N]
 *     [--pending-ms N] [--starting-ms N] [--concurrency N] [--time-scale X] [--max-active-jobs N]
 *     [--rate-limit N] [--api-key KEY]... [--webhook-key KEY:SECRET[:URL]]...
 *
 * Prints one JSON line `{"url":…,"artifactUrl":…,"apiKeys":[…]}` on stdout once listening; stops on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startServer } from './index.js';
import type { ApiKeyConfig, ServerOptions } from './types.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'artifact-port': { type: 'string' },
    'queue-ms': { type: 'string' },
    'run-ms': { type: 'string' },
    'pending-ms': { type: 'string' },
    'starting-ms': { type: 'string' },
    concurrency: { type: 'string' },
    'time-scale': { type: 'string' },
    'max-active-jobs': { type: 'string' },
    'rate-limit': { type: 'string' },
    'api-key': { type: 'string', multiple: true },
    'webhook-key': { type: 'string', multiple: true },
  },
  strict: true,
});

function num(name: keyof typeof values): number | undefined {
  const v = values[name];
  if (v === undefined || Array.isArray(v)) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(`--${name} must be a non-negative number, got ${String(v)}\n`);
    process.exit(2);
  }
  return n;
}

const keys: ApiKeyConfig[] = (values['api-key'] ?? ['sk_test_good']).map((key) => ({ key }));
for (const spec of values['webhook-key'] ?? []) {
  const [key = '', secret = '', ...url] = spec.split(':');
  // A key given both ways is one client, with this webhook configuration (the dashboard's Webhook tab).
  const client = { key, webhook: { secret, url: url.length ? url.join(':') : undefined } };
  const at = keys.findIndex((k) => k.key === key);
  if (at >= 0) keys[at] = client;
  else keys.push(client);
}

const limits: ServerOptions['limits'] = {};
if (num('max-active-jobs') !== undefined) limits.maxActiveJobs = num('max-active-jobs');
if (num('rate-limit') !== undefined) limits.rateLimitPerMinute = num('rate-limit');

const server = await startServer({
  apiKeys: keys,
  port: num('port'),
  artifactPort: num('artifact-port'),
  queueMs: num('queue-ms'),
  runMs: num('run-ms'),
  pendingMs: num('pending-ms'),
  startingMs: num('starting-ms'),
  concurrency: num('concurrency'),
  timeScale: num('time-scale'),
  limits,
});
process.stdout.write(
  `${JSON.stringify({ url: server.url, artifactUrl: server.artifactUrl, apiKeys: keys.map((k) => k.key) })}\n`,
);

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
