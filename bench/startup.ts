/**
 * Cold start of `simjob --version` and `simjob status <id> --json` (against the local test server) as multiples of
 * a bare `node -e 0`, all on the Node running this script. Each round runs every command once, in turn, so a busy
 * machine slows them alike; the figures are medians over the rounds. status is also timed with code caching off
 * (NODE_DISABLE_COMPILE_CACHE=1: Node's compile cache, 22.1+, which bin/simjob.js turns on), to check that it is a
 * gain. Targets (issue 30): --version ≤ 1.15×, status ≤ 1.8×.
 * On Linux it also prints CPU time (user + system, all threads) per run as a ratio: a busy machine stretches wall
 * time, much less the CPU a command needs. It comes from this process's children's totals in /proc/self/stat,
 * counted in clock ticks (10 ms), so it is a mean over the rounds, not a median.
 * It also times bench/floors/status.ts, bundled as the CLI is: the least a status can do on the same stack
 * (commander, node:http, the zod/mini schema), so the gap between it and simjob is simjob's own share.
 * Run: npm run build && node scripts/tsrun.mjs bench/startup.ts [rounds]
 * The test server runs in its own process, so it never competes with the timed commands for this process.
 */
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median, printFigures } from './lib/figures.js';
import { BIN as bin, startServerProcess } from './lib/server-process.js';

const rounds = Number(process.argv[2] ?? 40);

interface Timed {
  name: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  samples: number[];
  cpuMs: number;
}

/** CPU ms used by this process's waited-for children so far (Linux), or undefined. */
function childrenCpuMs(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10; // cutime + cstime, in ticks of 10 ms (USER_HZ 100)
}

function runOnce(command: Timed, env: NodeJS.ProcessEnv): number {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, command.args, {
    env: { ...env, ...command.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`${command.args.join(' ')} failed: ${child.stderr.toString()}`);
  const cpuAfter = childrenCpuMs();
  if (cpuBefore !== undefined && cpuAfter !== undefined) command.cpuMs += cpuAfter - cpuBefore;
  return ms;
}

const server = await startServerProcess();
const configDir = mkdtempSync(join(tmpdir(), 'simjob-bench-'));
try {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SIMJOB_CONFIG_DIR: configDir,
    SIMJOB_BASE_URL: server.url,
    SIMJOB_API_KEY: 'sk_test_good',
    NO_COLOR: '1',
  };
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const submitted = JSON.parse(
    execFileSync(process.execPath, [bin, 'submit', '-', '--channel', 'nightly', '--json'], {
      env,
      input: 'warrior="Bench"\n',
    }).toString(),
  ) as { id: string };

  const node: Timed = { name: 'node -e 0', args: ['-e', '0'], samples: [], cpuMs: 0 };
  const version: Timed = { name: 'simjob --version', args: [bin, '--version'], samples: [], cpuMs: 0 };
  const status: Timed = {
    name: 'simjob status <id> --json',
    args: [bin, 'status', submitted.id, '--json'],
    samples: [],
    cpuMs: 0,
  };
  const uncached: Timed = {
    ...status,
    name: 'the same, compile cache off',
    env: { NODE_DISABLE_COMPILE_CACHE: '1' },
    samples: [],
    cpuMs: 0,
  };
  const floorFile = join(configDir, 'floor.cjs');
  await build({
    entryPoints: [resolve(import.meta.dirname, 'floors', 'status.ts')],
    outfile: floorFile,
    bundle: true,
    minify: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    logLevel: 'warning',
  });
  const floor: Timed = {
    name: 'floor: commander+http+zod',
    args: [floorFile, 'status', submitted.id, '--json'],
    samples: [],
    cpuMs: 0,
  };
  const commands = [node, version, status, uncached, floor];
  for (let round = -3; round < rounds; round++) {
    for (const command of commands) {
      const ms = runOnce(command, env);
      if (round >= 0)
        command.samples.push(ms); // the first rounds warm the disk and compile caches
      else command.cpuMs = 0;
    }
  }
  const cpu = (command: Timed) => command.cpuMs / rounds;

  const bare = median(node.samples);
  console.log(`Cold start, median of ${rounds} rounds (Node ${process.versions.node}):`);
  const measuredCpu = childrenCpuMs() !== undefined;
  for (const command of commands) {
    const ms = median(command.samples);
    const cpuText = measuredCpu
      ? `   CPU ${cpu(command).toFixed(1).padStart(6)} ms  ${(cpu(command) / cpu(node)).toFixed(2)}× node`
      : '';
    console.log(
      `  ${command.name.padEnd(28)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / bare).toFixed(2)}× node${cpuText}`,
    );
  }
  const figures = [
    { name: 'simjob --version / node -e 0', value: median(version.samples) / bare, unit: '×', max: 1.15 },
    { name: 'simjob status <id> --json / node -e 0', value: median(status.samples) / bare, unit: '×', max: 1.8 },
    { name: 'the same, compile cache off / node -e 0', value: median(uncached.samples) / bare, unit: '×' },
    { name: 'floor: a bare status on the same stack / node -e 0', value: median(floor.samples) / bare, unit: '×' },
    ...(measuredCpu
      ? [
          { name: 'CPU time: simjob --version / node -e 0', value: cpu(version) / cpu(node), unit: '×' },
          { name: 'CPU time: simjob status <id> --json / node -e 0', value: cpu(status) / cpu(node), unit: '×' },
          { name: 'CPU time: the same, compile cache off / node -e 0', value: cpu(uncached) / cpu(node), unit: '×' },
        ]
      : []),
  ];
  for (const f of figures.filter((f) => f.max !== undefined))
    console.log(`Target: ${f.name} ≤ ${f.max}×: ${f.value <= f.max! ? 'met' : 'MISSED'}`);
  printFigures(figures);
} finally {
  server.stop();
  rmSync(configDir, { recursive: true, force: true });
}
