/**
 * Many small local jobs: 100 `simjob submit <profile> --local --wait --json`, 8 in flight at a time (a script or a
 * build farm firing jobs), at local.concurrency 1 and 2, against running the stand-in simc on the same profile 100
 * times directly. Target (issues 15 and 30): at most 1.3× "running the stand-in 100 times", the issue's one baseline for
 * both settings, which is one run after another (as for a real simc, which uses every core). A stricter figure
 * is printed beside it: concurrency 2 against the stand-in run 2 at a time, where both cores are busy with simc
 * alone; every simjob command is a Node process of its own on top, so that one has no target (README).
 * Medians of interleaved rounds of the total wall time. CPU is printed too: the commands' (simjob's with the simc
 * it runs itself, with /usr/bin/time), and the whole machine's per job (/proc/stat), which counts the worker.
 * Run: npm run build && node scripts/tsrun.mjs bench/local-throughput.ts [rounds] [jobs]
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { timed } from './lib/measure.js';
import { median, printFigures } from './lib/figures.js';

const rounds = Number(process.argv[2] ?? 5);
const jobs = Number(process.argv[3] ?? 100);
const IN_FLIGHT = 8;
const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'bin', 'simjob.js');
const simc = join(root, 'test', 'fake-simc', 'simc');
const TARGET = 1.3;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const work = mkdtempSync(join(tmpdir(), 'simjob-bench-throughput-'));
const profile = join(work, 'small.simc');
writeFileSync(profile, 'warrior="Bench"\nspec=fury\nlevel=90\niterations=200\n');

/**
 * The CPU time the whole machine has been busy so far, from Linux's /proc/stat (in USER_HZ, 100 a second), or
 * undefined elsewhere. Unlike /usr/bin/time it counts the background worker and the simcs it runs.
 */
function machineBusyMs(): number | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields;
    return (user + nice + system + irq + softirq) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Run `count` commands, `inFlight` at a time: total wall ms, the commands' summed CPU ms (with /usr/bin/time), and
 * the machine's busy CPU ms meanwhile.
 */
async function pool(
  count: number,
  inFlight: number,
  command: (i: number) => { cmd: string; args: string[]; env?: NodeJS.ProcessEnv; cwd?: string },
): Promise<{ wallMs: number; cpuMs: number; machineMs: number }> {
  let next = 0;
  let cpuMs = 0;
  const busyBefore = machineBusyMs();
  const started = performance.now();
  const lane = async (laneNo: number) => {
    // every command's stderr, one file a lane (opened once: creating a file a command would cost the bench's own time)
    const errFile = join(work, `stderr-${laneNo}.log`);
    const stderr = openSync(errFile, 'w');
    try {
      while (next < count) {
        const i = next++;
        const { cmd, args, env, cwd } = command(i);
        const timeFile = join(work, `time-${i}.txt`);
        const [file, argv] = TIME ? [TIME, ['-f', '%U %S', '-o', timeFile, cmd, ...args]] : [cmd, args];
        const code = await new Promise<number | null>((done) =>
          spawn(file, argv, { env, cwd, stdio: ['ignore', 'ignore', stderr] }).on('exit', done),
        );
        if (code !== 0)
          throw new Error(
            `${cmd} ${args.join(' ')} exited ${code}; its lane's stderr ends:\n${readFileSync(errFile, 'utf8').split('\n').slice(-15).join('\n')}`,
          );
        if (TIME)
          cpuMs +=
            readFileSync(timeFile, 'utf8')
              .trim()
              .split(/\s+/)
              .slice(-2)
              .map(Number)
              .reduce((a, b) => a + b, 0) * 1000;
      }
    } finally {
      closeSync(stderr);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, (_, laneNo) => lane(laneNo)));
  const wallMs = performance.now() - started;
  const busyAfter = machineBusyMs();
  return {
    wallMs,
    cpuMs,
    machineMs: busyBefore === undefined || busyAfter === undefined ? NaN : busyAfter - busyBefore,
  };
}

function simjobEnv(name: string, concurrency: number): NodeJS.ProcessEnv {
  const env = {
    ...process.env,
    SIMJOB_DATA_DIR: join(work, name, 'data'),
    SIMJOB_CONFIG_DIR: join(work, name, 'config'),
  };
  timed(process.execPath, [bin, 'config', 'set', 'local.concurrency', String(concurrency)], { env });
  return env;
}

try {
  const figures: Record<string, number[]> = {};
  const add = (key: string, value: number) => (figures[key] ??= []).push(value);
  const submit = ['submit', profile, '--local', '--wait', '--json', '--simc', simc];
  for (let round = 0; round < rounds; round++) {
    const line: string[] = [];
    for (const concurrency of [1, 2]) {
      const dir = join(work, `direct-${concurrency}-${round}`);
      mkdirSync(dir);
      const direct = await pool(jobs, concurrency, (i) => {
        mkdirSync(join(dir, String(i)));
        return {
          cmd: simc,
          args: [profile, 'json2=report.json', 'output=simc-output.txt', 'progressbar_type=1'],
          cwd: join(dir, String(i)),
        };
      });
      const env = simjobEnv(`c${concurrency}-${round}`, concurrency);
      const viaSimjob = await pool(jobs, IN_FLIGHT, () => ({ cmd: process.execPath, args: [bin, ...submit], env }));
      add(`direct${concurrency}`, direct.wallMs);
      add(`simjob${concurrency}`, viaSimjob.wallMs);
      add(`cpuDirect${concurrency}`, direct.cpuMs);
      add(`cpuSimjob${concurrency}`, viaSimjob.cpuMs);
      add(`machineDirect${concurrency}`, direct.machineMs);
      add(`machineSimjob${concurrency}`, viaSimjob.machineMs);
      line.push(
        `concurrency ${concurrency}: direct ${(direct.wallMs / 1000).toFixed(2)} s, simjob ${(viaSimjob.wallMs / 1000).toFixed(2)} s`,
      );
    }
    console.log(`  round ${round + 1}: ${line.join('; ')}`);
  }
  const m = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v)])) as Record<string, number>;
  const s = (ms: number | undefined) => `${((ms ?? 0) / 1000).toFixed(2)} s`;
  const ratio = {
    c1: (m.simjob1 ?? 0) / (m.direct1 ?? 1),
    c2: (m.simjob2 ?? 0) / (m.direct1 ?? 1),
    c2Paired: (m.simjob2 ?? 0) / (m.direct2 ?? 1),
  };
  console.log(
    `${jobs} small local jobs, ${IN_FLIGHT} submitted at a time, median of ${rounds} rounds (Node ${process.versions.node}, stand-in simc):`,
  );
  const perJob = (ms: number | undefined) => `${((ms ?? NaN) / jobs).toFixed(0)} ms`;
  console.log(
    `  the stand-in directly, one after another: ${s(m.direct1)} (cpu ${s(m.cpuDirect1)}; machine ${perJob(m.machineDirect1)} a job); 2 at a time: ${s(m.direct2)} (cpu ${s(m.cpuDirect2)}; machine ${perJob(m.machineDirect2)} a job)`,
  );
  for (const c of [1, 2] as const) {
    console.log(
      `  local.concurrency ${c}: submit --local --wait ${s(m[`simjob${c}`])} (cpu ${s(m[`cpuSimjob${c}`])}; machine ${perJob(m[`machineSimjob${c}`])} a job, worker included) = ${ratio[`c${c}`].toFixed(2)}× the stand-in one after another`,
    );
  }
  console.log(`  local.concurrency 2 against the stand-in 2 at a time (no target): ${ratio.c2Paired.toFixed(2)}×`);
  const met = { c1: ratio.c1 <= TARGET, c2: ratio.c2 <= TARGET };
  console.log(
    `Target: ≤ ${TARGET}× the stand-in run ${jobs} times: concurrency 1 ${met.c1 ? 'met' : 'MISSED'}, concurrency 2 ${met.c2 ? 'met' : 'MISSED'}`,
  );
  printFigures([
    {
      name: `${jobs} jobs ${IN_FLIGHT} at a time / stand-in direct one after another, local.concurrency 1`,
      value: ratio.c1,
      unit: '×',
      max: TARGET,
    },
    {
      name: `${jobs} jobs ${IN_FLIGHT} at a time / stand-in direct one after another, local.concurrency 2`,
      value: ratio.c2,
      unit: '×',
      max: TARGET,
    },
    {
      name: `${jobs} jobs ${IN_FLIGHT} at a time / stand-in direct 2 at a time, local.concurrency 2`,
      value: ratio.c2Paired,
      unit: '×',
    },
  ]);
} finally {
  await new Promise((r) => setTimeout(r, 3_000)); // workers leave on their own (2 s idle grace) before their data dirs go
  rmSync(work, { recursive: true, force: true });
}
