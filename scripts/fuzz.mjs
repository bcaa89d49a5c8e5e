#!/usr/bin/env node
// The long run of the property tests (test/fuzz): FUZZ_RUNS inputs per property, 20,000 unless set.
// `npm test` runs the same properties with 200 each from a fixed seed; this one draws a new seed every time. Extra arguments go to vitest (e.g. a file filter).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = process.env.FUZZ_RUNS ?? '20000';
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
console.error(`Fuzzing with ${runs} inputs per property (FUZZ_RUNS); this takes a while.`);
const result = spawnSync(
  process.execPath,
  [vitest, 'run', 'test/fuzz', '--testTimeout', '0', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: { ...process.env, FUZZ_RUNS: runs, FUZZ_RANDOM: '1' },
  },
);
process.exit(result.status ?? 1);
