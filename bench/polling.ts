/**
 * How well `--wait` polls: a job that queues 20 s and runs 40 s on the local test server, followed by the real CLI
 * (`bin/simjob.js submit --wait`, a separate process). Prints how long after the job ended the CLI saw it (target:
 * within 2 s) and how many API requests the whole command made (target: at most 40), then the poll schedule of
 * the same loop for longer jobs on a virtual clock (nothing is hammered, long runs are polled at most every 30 s).
 *
 * Run: npm run build && node scripts/tsrun.mjs bench/polling.ts [--queue-s 20] [--run-s 40]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { StatusRecord } from '../src/core/resources/schemas.js';
import type { JobBackend } from '../src/core/jobs/backend.js';
import { waitForTerminal } from '../src/core/jobs/wait.js';
import { startServer } from '../test/server/index.js';
import { printFigures } from './lib/figures.js';

const BIN = resolve(import.meta.dirname, '..', 'bin', 'simjob.js');
const { values } = parseArgs({
  options: { 'queue-s': { type: 'string', default: '20' }, 'run-s': { type: 'string', default: '40' } },
});
const queueMs = Number(values['queue-s']) * 1000;
const runMs = Number(values['run-s']) * 1000;

const server = await startServer({ pendingMs: 50, startingMs: 50 });
const dir = mkdtempSync(join(tmpdir(), 'simjob-bench-poll-'));
const profile = join(dir, 'bench.simc');
writeFileSync(
  profile,
  [
    'warrior="Bench"',
    'level=80',
    'spec=fury',
    'profileset."a"+=trinket1=,id=1',
    'profileset."b"+=trinket1=,id=2',
    '',
  ].join('\n'),
);
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  SIMJOB_CONFIG_DIR: join(dir, 'cfg'),
  SIMJOB_BASE_URL: server.url,
  SIMJOB_API_KEY: 'sk_test_good',
};

try {
  console.log(
    `Job: queued ${queueMs / 1000} s, running ${runMs / 1000} s, on the local test server; CLI: simjob submit --wait (not a TTY)`,
  );
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      BIN,
      'submit',
      profile,
      '--channel',
      'nightly',
      '--wait',
      '--meta',
      `test.queueMs=${queueMs}`,
      '--meta',
      `test.runMs=${runMs}`,
    ],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.resume();
  const exitCode = await new Promise<number>((done) => child.on('exit', (code) => done(code ?? -1)));
  const exitedAt = Date.now();
  if (exitCode !== 0) throw new Error(`simjob exited ${exitCode}:\n${stderr}`);

  const job = [...server.jobs.values()].at(-1)!;
  const ended = job.completedAt!;
  const mine = server.requests.filter((r) => String(r.headers['user-agent'] ?? '').startsWith('simjob/'));
  const polls = mine.filter((r) => r.path.endsWith('/status'));
  const seen = polls.find((r) => r.at >= ended);
  const gaps = polls.slice(1).map((r, i) => r.at - polls[i]!.at);
  console.log(`  job ended ${((ended - started) / 1000).toFixed(1)} s after the command started`);
  console.log(`  noticed the end after:   ${((seen!.at - ended) / 1000).toFixed(2)} s   (target ≤ 2 s)`);
  console.log(
    `  command exited after:    ${((exitedAt - ended) / 1000).toFixed(2)} s   (with the result fetched and printed)`,
  );
  console.log(
    `  API requests, in all:    ${mine.length}        (target ≤ 40: ${mine.filter((r) => r.method === 'POST').length} submit, ${polls.length} status, ${mine.length - polls.length - 1} result/other)`,
  );
  console.log(`  status polls at (s):     ${polls.map((r) => ((r.at - started) / 1000).toFixed(1)).join(' ')}`);
  console.log(
    `  gaps between polls:      ${(Math.min(...gaps) / 1000).toFixed(1)}–${(Math.max(...gaps) / 1000).toFixed(1)} s`,
  );
  const ok = seen!.at - ended <= 2000 && mine.length <= 40;

  console.log('\nThe same loop on a virtual clock (linear progress, the ETA counting down), for longer jobs:');
  console.log('  queue     run      polls   noticed after   longest gap');
  for (const [q, r] of [
    [20, 40],
    [60, 600],
    [600, 3600],
    [1800, 4 * 3600],
  ] as const) {
    const s = await simulate(q * 1000, r * 1000);
    console.log(
      `  ${fmt(q).padEnd(8)}  ${fmt(r).padEnd(7)}  ${String(s.polls).padStart(5)}   ${(s.late / 1000).toFixed(2).padStart(6)} s        ${(s.maxGap / 1000).toFixed(1)} s`,
    );
  }
  printFigures([
    { name: 'job end noticed after', value: (seen!.at - ended) / 1000, unit: 's', max: 2 },
    { name: 'API requests for a 60 s job', value: mine.length, unit: 'requests', max: 40 },
  ]);
  if (!ok) process.exitCode = 1;
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

function fmt(s: number): string {
  return s >= 3600 ? `${s / 3600} h` : s >= 60 ? `${s / 60} min` : `${s} s`;
}

async function simulate(q: number, r: number) {
  let t = 0;
  const at: number[] = [];
  const status = (): StatusRecord =>
    (t < q
      ? { status: 'queued', queue: { estimatedStartSeconds: Math.ceil((q - t) / 1000) } }
      : t < q + r
        ? { status: 'running', progress: { percent: Math.round(((t - q) / r) * 1000) / 10 } }
        : { status: 'completed' }) as StatusRecord;
  const backend = { status: async () => (at.push(t), { data: status(), raw: {} }) } as unknown as JobBackend;
  await waitForTerminal(backend, 'sim', { now: () => t, sleep: async (ms) => void (t += ms) });
  const gaps = at.slice(1).map((x, i) => x - at[i]!);
  return { polls: at.length, late: at.at(-1)! - q - r, maxGap: Math.max(...gaps) };
}
