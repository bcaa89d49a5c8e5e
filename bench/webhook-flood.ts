/**
 * `simjob webhook listen` under a flood (issue 30): 1,000 loopback connections at once, each declaring a 1 MB body,
 * sending all of it but one byte, then hanging up. Prints the listener's RSS while the bodies are held and 3 s after
 * the hang-ups, and what it said on stderr. Not part of `npm run bench` (a memory figure, not a ratio).
 * Run: npm run build && node scripts/tsrun.mjs bench/webhook-flood.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './lib/server-process.js';
import { printFigures } from './lib/figures.js';

const CONNECTIONS = 1000;
const MB = 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'simjob-bench-flood-'));
const env = {
  PATH: process.env.PATH,
  SIMJOB_CONFIG_DIR: join(dir, 'config'),
  SIMJOB_DATA_DIR: join(dir, 'data'),
  SIMJOB_WEBHOOK_SECRET: 'x'.repeat(32),
};
const listener = spawn(process.execPath, [BIN, 'webhook', 'listen', '--port', '0'], {
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
});
let stderr = '';
try {
  const port = await new Promise<number>((resolve, reject) => {
    listener.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /127\.0\.0\.1:(\d+)/.exec(stderr);
      if (found) resolve(Number(found[1]));
    });
    listener.once('exit', () => reject(new Error(`webhook listen exited: ${stderr}`)));
  });
  const rssMb = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${listener.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

  const body = Buffer.alloc(MB - 1, 0x20);
  const head = `POST /webhooks HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: ${MB}\r\nx-service-delivery-id: flood\r\n\r\n`;
  const sockets = await Promise.all(
    Array.from(
      { length: CONNECTIONS },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = createConnection({ host: '127.0.0.1', port }, () => {
            socket.write(head);
            socket.write(body, () => resolve(socket));
          });
          socket.on('error', () => resolve(socket));
          socket.on('close', () => resolve(socket));
        }),
    ),
  );
  await new Promise((r) => setTimeout(r, 2_000));
  const held = rssMb();
  for (const socket of sockets) socket.destroy();
  await new Promise((r) => setTimeout(r, 3_000));
  const after = rssMb();

  const lines = stderr.split('\n');
  const count = (pattern: RegExp) => lines.filter((l) => pattern.test(l)).length;
  console.log(
    `${CONNECTIONS} connections × 1 MB declared: RSS ${held.toFixed(0)} MB while held, ${after.toFixed(0)} MB 3 s after`,
  );
  const [hungUp, busy, internal] = [/before the body was complete/, /busy/, /internal error/].map(count);
  console.log(`stderr: ${hungUp} hang-ups, ${busy} answered 503 busy, ${internal} internal errors`);
  for (const line of lines.filter((l) => /unanswered/.test(l))) console.log(`stderr: ${line}`);
  printFigures([
    { name: 'webhook listen RSS while 1,000 × 1 MB are sent', value: Math.round(held), unit: 'MB' },
    { name: 'webhook listen RSS 3 s after they hang up', value: Math.round(after), unit: 'MB' },
  ]);
} finally {
  if (listener.exitCode === null && listener.signalCode === null) {
    const exited = new Promise((r) => listener.once('exit', r));
    listener.kill('SIGINT');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
}
