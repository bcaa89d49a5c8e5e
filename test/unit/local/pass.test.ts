import { describe, expect, it } from 'vitest';
import { tracedFailure } from '../../../src/local/pass.js';

/** A run adopted by the worker ends with no exit status: simc's own traces must tell a failure from a success. */
describe('tracedFailure (a run whose exit status nobody saw)', () => {
  it('finds no failure in a plain run, nor in one Ctrl-C stopped early (simc writes its reports and exits 0)', () => {
    expect(tracedFailure('', 'SimulationCraft 1201-01 for World of Warcraft 12.0.1.66263 Live\n')).toBeUndefined();
    expect(tracedFailure('Warning: something odd\nsim_signal_handler: Interrupt! Iteration=12 Seed=1 TargetHealth=0\n', 'JSON report took 0.01 seconds.\n')).toBeUndefined();
  });

  it("reads simc's fatal error line as a simulation error", () => {
    expect(tracedFailure("Error: Setup failure: Unknown option 'bogus'\n", '')).toEqual({ errorCode: 'simulation_error', statusReason: "Setup failure: Unknown option 'bogus'" });
  });

  it("reads the signal handler's crash line as a crash", () => {
    expect(tracedFailure('sim_signal_handler: Segmentation fault! Iteration=3 Seed=7 TargetHealth=0\n', '')).toEqual({
      errorCode: 'execution_failed',
      statusReason: 'simc crashed: sim_signal_handler: Segmentation fault! Iteration=3 Seed=7 TargetHealth=0',
    });
  });

  it('reads "Simulation was canceled." as a failure, although simc may have written a report (exit 1)', () => {
    const failure = tracedFailure('sim_signal_handler: Interrupt! Iteration=5 Seed=1 TargetHealth=0\nSimulation has been canceled after 6 iterations! (thread=0)\n', 'Simulation was canceled.\n');
    expect(failure).toEqual({ errorCode: 'execution_failed', statusReason: 'simc canceled the simulation: Simulation has been canceled after 6 iterations! (thread=0)' });
  });
});
