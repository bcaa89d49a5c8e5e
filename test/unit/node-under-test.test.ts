import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { simjob } from '../helpers/cli.js';

// CI runs the suite once per Node (.ci/run) and names the major it meant in SIMJOB_EXPECT_NODE: this proves the
// run really was on that Node: vitest, the `node` that PATH finds (the stand-in simc's `#!/usr/bin/env node`)
// and the spawned CLI. Without the variable (a developer's `npm test`) it only reports the version.
const expected = process.env.SIMJOB_EXPECT_NODE;
const major = (version: string) => version.replace(/^v/, '').split('.')[0];

describe('the Node under test', () => {
  it('is the one CI meant, in every process the tests start', async () => {
    const onPath = execFileSync('node', ['--version']).toString().trim();
    const cli = await simjob(['doctor']);
    const inCli = /Node (v[\d.]+)/.exec(cli.stderr + cli.stdout)?.[1];
    console.log(`Node under test: vitest ${process.version}, PATH's node ${onPath}, simjob ${inCli}`);
    expect(inCli).toBeDefined();
    if (!expected) return;
    expect([major(process.version), major(onPath), major(inCli ?? '')]).toEqual([expected, expected, expected]);
  });
});
