/**
 * Cold start of `node -e 0`, `simjob --version` and `simjob status <id> --json` against a local test server, in one
 * run, as medians. Targets (issue 2): --version within 1.3× bare Node, status within 2×.
 * Run: npm run build && node scripts/tsrun.mjs bench/startup.ts [runs]
 * The test server runs in its own process, so it never competes with the timed commands for this process.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN as bin, startServerProcess } from './lib/server-process.js';

const runs = Number(process.argv[2] ?? 30);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function time(args: string[], env: NodeJS.ProcessEnv): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (child.status !== 0) throw new Error(`${args.join(' ')} failed: ${child.stderr.toString()}`);
    if (i >= 3) samples.push(ms); // the first runs warm the disk cache
  }
  return samples;
}

const server = await startServerProcess();
const configDir = mkdtempSync(join(tmpdir(), 'simjob-bench-'));
try {
  const env = { ...process.env, SIMJOB_CONFIG_DIR: configDir, SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: 'sk_test_good', NO_COLOR: '1' };
  const submitted = JSON.parse(
    execFileSync(process.execPath, [bin, 'submit', '-', '--channel', 'nightly', '--json'], { env, input: 'warrior="Bench"\n' }).toString(),
  ) as { id: string };

  const node = median(time(['-e', '0'], env));
  const version = median(time([bin, '--version'], env));
  const status = median(time([bin, 'status', submitted.id, '--json'], env));
  const rows = [
    ['node -e 0', node, 1],
    ['simjob --version', version, version / node],
    [`simjob status <id> --json`, status, status / node],
  ] as const;
  console.log(`Cold start, median of ${runs} runs (Node ${process.versions.node}):`);
  for (const [name, ms, ratio] of rows) console.log(`  ${name.padEnd(28)} ${ms.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}× node`);
  console.log(`Targets: --version ≤ 1.30× (${version / node <= 1.3 ? 'met' : 'MISSED'}), status ≤ 2.00× (${status / node <= 2 ? 'met' : 'MISSED'})`);
} finally {
  server.stop();
  rmSync(configDir, { recursive: true, force: true });
}
