/**
 * vitest globalSetup: the whole run gets a temp folder of its own (TMPDIR), which the test helpers pass on to the
 * processes they start. At the end, anything still in it is a leak: a test, a helper or simjob itself made a folder
 * or file and did not remove it. So is a process still running with a data folder inside it (a CLI, a local worker
 * or a stand-in simc a test started and did not stop). The run fails and names them; the processes are stopped
 * (by pid) and the folder goes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../../src/core/local/pids.js';

/**
 * Caches of the tools the tests run, not leaks: tsx keeps its compile cache in tsx-<uid>, and Node ≥ 22.1 keeps the
 * compile cache the bin shim turns on in node-compile-cache.
 */
const TOOL_CACHES = /^(tsx-\d+|node-compile-cache)$/;

/** Run folders are named after the vitest process that made them, so a later run can tell a killed run's folder. */
const RUN_PREFIX = 'simjob-test-run-';
const RUN_FOLDER = new RegExp(`^${RUN_PREFIX}(\\d+)-`);

export default function setup(): () => void {
  removeKilledRuns();
  const previous = process.env.TMPDIR;
  const runDir = mkdtempSync(join(tmpdir(), `${RUN_PREFIX}${process.pid}-`));
  process.env.TMPDIR = runDir;
  return () => {
    const processes = leftoverProcesses(runDir);
    for (const { pid } of processes) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    const left = readdirSync(runDir).filter((name) => !TOOL_CACHES.test(name));
    rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    // A throw here is only logged by vitest ("error during close"): set the exit code so the run fails.
    if (left.length) {
      process.exitCode = 1;
      console.error(
        `\nThe tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder: ${left.slice(0, 20).join(', ')}${left.length > 20 ? ', …' : ''}. Remove them in afterEach/afterAll (test/helpers/temp.ts).`,
      );
    }
    if (processes.length) {
      process.exitCode = 1;
      console.error(
        `\nThe tests left ${processes.length} process${processes.length === 1 ? '' : 'es'} running (now killed): ${processes.map((p) => `${p.pid} ${p.command}`).join('; ')}. Stop what a test starts in its afterEach/afterAll.`,
      );
    }
  };
}

/**
 * The folders of earlier runs whose vitest is gone: a run killed by a signal (Ctrl-C, a CI timeout) never reaches its
 * teardown. A folder whose pid lives (another run at the same time, or a reused pid) is left alone.
 */
function removeKilledRuns(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(RUN_FOLDER.exec(name)?.[1]);
    if (!pid || isAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Processes (Linux: /proc) whose SIMJOB_DATA_DIR lies inside the run's temp folder. Elsewhere: none are found. */
function leftoverProcesses(runDir: string): Array<{ pid: number; command: string }> {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: Array<{ pid: number; command: string }> = [];
  for (const pid of pids) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (!environ.some((v) => v.startsWith(`SIMJOB_DATA_DIR=${runDir}/`))) continue;
      found.push({
        pid: Number(pid),
        command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 120),
      });
    } catch {
      // not ours, or gone
    }
  }
  return found;
}
