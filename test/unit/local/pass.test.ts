import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPass, SINGLE_PASS_FILES, tracedFailure } from '../../../src/core/local/pass.js';
import { parseProgressLine } from '../../../src/domain/report/progress-line.js';
import { LocalStore, type LocalJob } from '../../../src/core/local/store.js';

const standIn = resolve(import.meta.dirname, '../../fake-simc/simc');
let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe('runPass (one simc run in the job folder)', () => {
  it("hands on the version line and the newest progress line of each read of simc's stdout", async () => {
    root = mkdtempSync(join(tmpdir(), 'simjob-pass-'));
    const store = new LocalStore(root);
    await store.init();
    const id = 'local-01m889dkm5c7t7n6p5';
    mkdirSync(store.jobDir(id));
    // 300 iterations of 1 ms: the output is read several times while simc runs, and once more after it ends
    writeFileSync(
      store.file(id, 'input.simc'),
      'warrior="T"\nspec=fury\nlevel=80\niterations=300\nfake_iter_us=1000\n',
    );
    const job = {
      id,
      simc: { path: standIn },
      outputs: { html: false, csv: false, jsonVersion: '2' },
    } as unknown as LocalJob;
    const deps = {
      store,
      env: process.env,
      stop: new AbortController().signal,
      onSimcPid: async () => undefined,
    };
    const handed: string[] = [];
    const pass = await runPass(deps, job, SINGLE_PASS_FILES(job), (line) => handed.push(line));

    expect(pass).toMatchObject({ exitCode: 0, signal: null, spawnError: null });
    expect(pass.versionLine).toMatch(/^SimulationCraft 1201-01 for World of Warcraft /);
    const printed = readFileSync(store.file(id, 'stdout.log'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('\t'));
    expect(printed).toHaveLength(100);
    expect(handed.length).toBeGreaterThan(1); // one per read that brought progress…
    expect(handed.length).toBeLessThan(20); // …not one per line
    expect(handed.every((line) => parseProgressLine(line) !== undefined)).toBe(true);
    expect(handed.at(-1)).toBe(printed.at(-1)); // the last read, after simc's end, brings the last line
  });
});

/** A run adopted by the worker ends with no exit status: simc's own traces must tell a failure from a success. */
describe('tracedFailure (a run whose exit status nobody saw)', () => {
  it('finds no failure in a plain run, nor in one Ctrl-C stopped early (simc writes its reports and exits 0)', () => {
    expect(tracedFailure('', 'SimulationCraft 1201-01 for World of Warcraft 12.0.1.66263 Live\n')).toBeUndefined();
    expect(
      tracedFailure(
        'Warning: something odd\nsim_signal_handler: Interrupt! Iteration=12 Seed=1 TargetHealth=0\n',
        'JSON report took 0.01 seconds.\n',
      ),
    ).toBeUndefined();
  });

  it("reads simc's fatal error line as a simulation error", () => {
    expect(tracedFailure("Error: Setup failure: Unknown option 'bogus'\n", '')).toEqual({
      errorCode: 'simulation_error',
      statusReason: "Setup failure: Unknown option 'bogus'",
    });
  });

  it("reads the signal handler's crash line as a crash", () => {
    expect(tracedFailure('sim_signal_handler: Segmentation fault! Iteration=3 Seed=7 TargetHealth=0\n', '')).toEqual({
      errorCode: 'execution_failed',
      statusReason: 'simc crashed: sim_signal_handler: Segmentation fault! Iteration=3 Seed=7 TargetHealth=0',
    });
  });

  it('reads "Simulation was canceled." as a failure, although simc may have written a report (exit 1)', () => {
    const failure = tracedFailure(
      'sim_signal_handler: Interrupt! Iteration=5 Seed=1 TargetHealth=0\nSimulation has been canceled after 6 iterations! (thread=0)\n',
      'Simulation was canceled.\n',
    );
    expect(failure).toEqual({
      errorCode: 'execution_failed',
      statusReason: 'simc canceled the simulation: Simulation has been canceled after 6 iterations! (thread=0)',
    });
  });
});
