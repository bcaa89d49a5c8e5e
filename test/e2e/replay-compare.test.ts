/**
 * `compare` of two replayed real reports: r08 (4 profilesets, `0-0`…`0-3`) and r07 (1,844 profilesets, the same
 * names among them). r07's summary holds only its top 200, where `0-0` is not; the comparison must still pair it.
 * The expected figures are read from the reports here, not with simjob's code.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURES_DIR, REPO_ROOT } from '../helpers/shared.js';
import { cleanUp, json, localEnv, profileFile, run, type LocalEnv } from './local-helpers.js';

const REPORTS_DIR = join(FIXTURES_DIR, 'reports-real');
const R08 = 'r08_df1015_brewmaster_4ps.json';
const R07 = 'r07_df1015_brewmaster_1844ps.json';

function profileset(file: string, name: string): { mean: number } {
  const report = JSON.parse(readFileSync(join(REPORTS_DIR, file), 'utf8'));
  return report.sim.profilesets.results.find((r: { name: string }) => r.name === name);
}

let env: LocalEnv;
const ids: Record<string, string> = {};

beforeAll(async () => {
  env = localEnv({ SIMJOB_SIMC: resolve(REPO_ROOT, 'test', 'replay-simc', 'simc') });
  for (const file of [R08, R07]) {
    const submitted = await run(
      env,
      ['submit', profileFile(env, `${file}.simc`, `# replay.report=${file}\n`), '--local', '--wait', '--json'],
      60_000,
    );
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    ids[file] = json(submitted).id;
  }
}, 120_000);
afterAll(async () => {
  if (env) await cleanUp(env);
});

it('compare r08 r07 pairs every profileset of r08, though r07’s summary cut them', async () => {
  const compared = await run(env, ['compare', ids[R08]!, ids[R07]!, '--json'], 60_000);
  expect(compared.exitCode, compared.stderr).toBe(0);
  const rows = json(compared).rows as Array<{ name: string; a: { mean: number } | null; b: { mean: number } | null }>;
  for (const name of ['0-0', '0-1', '0-2', '0-3']) {
    const row = rows.find((r) => r.name === name);
    expect(row?.a?.mean, name).toBeCloseTo(profileset(R08, name).mean, 6);
    expect(row?.b?.mean, name).toBeCloseTo(profileset(R07, name).mean, 6);
  }
});
