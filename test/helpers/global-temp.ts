/**
 * vitest globalSetup: the whole run gets a temp folder of its own (TMPDIR), which the test helpers pass on to the
 * processes they start. At the end, anything still in it is a leak: a test, a helper or simjob itself made a folder
 * or file and did not remove it. The run fails and names them; then the folder goes.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Caches of the tools the tests run (tsx keeps its compile cache in tsx-<uid>): not leaks. */
const TOOL_CACHES = /^tsx-\d+$/;

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const runDir = mkdtempSync(join(tmpdir(), 'simjob-test-run-'));
  process.env.TMPDIR = runDir;
  return () => {
    const left = readdirSync(runDir).filter((name) => !TOOL_CACHES.test(name));
    rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (left.length) {
      // A throw here is only logged by vitest ("error during close"): set the exit code so the run fails.
      process.exitCode = 1;
      console.error(`\nThe tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp folder: ${left.slice(0, 20).join(', ')}${left.length > 20 ? ', …' : ''}. Remove them in afterEach/afterAll (test/helpers/temp.ts).`);
    }
  };
}
