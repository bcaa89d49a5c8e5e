/**
 * `compare` and `report` read their arguments alike (src/core/jobs/saved-json.ts): a bad one is refused with the same
 * one line and exit 2 by both, and a file name is printed terminal-safe. No service and no simc: nothing is fetched.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simjob } from '../helpers/cli-in-process.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('simjob-saved-json-');
const path = (name: string, content?: string) => {
  const file = join(dir, name);
  if (content !== undefined) writeFileSync(file, content);
  return file;
};
const HINT = 'Save a result with: simjob result <id> --json > result.json (or submit … --wait --json for a batch).';
const job = JSON.stringify({ id: '123456789012345678', status: 'failed' });

/** The error of `report ARG` and of `compare ARG ARG`: the same, one line, exit 2, nothing on stdout. */
async function refusedByBoth(arg: string): Promise<string> {
  const env = { PATH: process.env.PATH! };
  const report = await simjob(['report', arg, '-o', join(dir, 'never.html')], { env, cwd: dir });
  const compare = await simjob(['compare', arg, arg], { env, cwd: dir });
  for (const r of [report, compare]) {
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.endsWith('\n') && r.stderr.split('\n')).toHaveLength(2);
  }
  expect(compare.stderr).toBe(report.stderr);
  return report.stderr;
}

describe('compare and report: the same errors for the same bad saved --json input', () => {
  it('a file name with an escape character is printed escaped, whether it is missing or not JSON', async () => {
    const evil = path('evil\u001b[31m.json');
    const shown = join(dir, 'evil\\x1b[31m.json');
    expect(await refusedByBoth(evil)).toBe(`Error: ${shown} does not exist. ${HINT}\n`);
    path('evil\u001b[31m.json', 'hello');
    expect(await refusedByBoth(evil)).toMatch(
      new RegExp(`^Error: ${escapeRegExp(shown)} is not JSON: .+\\. ${escapeRegExp(HINT)}\\n$`),
    );
  });

  it('a folder', async () => {
    const folder = path('results.d');
    mkdirSync(folder);
    expect(await refusedByBoth(folder)).toBe(`Error: ${folder} is a folder, not a saved --json file. ${HINT}\n`);
  });

  it('an empty array', async () => {
    const empty = path('empty.json', '[]\n');
    expect(await refusedByBoth(empty)).toBe(`Error: ${empty} holds an empty list: no results to read. ${HINT}\n`);
  });

  it('an item that is neither a result nor a job record is named NAME[i]; a lone one by the name', async () => {
    const batch = path('batch.json', `[${job}, {"hello": 1}]`);
    expect(await refusedByBoth(batch)).toBe(
      `Error: ${batch}[1] is not a job result (the resource of simjob result <id> --json). ${HINT}\n`,
    );
    const lone = path('lone.json', '{"hello": 1}');
    expect(await refusedByBoth(lone)).toBe(
      `Error: ${lone} is not a job result (the resource of simjob result <id> --json). ${HINT}\n`,
    );
    // a job record whose result is not a result is not taken for a job saved without one
    const broken = path(
      'broken.json',
      JSON.stringify({ id: '123456789012345678', status: 'completed', result: 'none' }),
    );
    expect(await refusedByBoth(broken)).toBe(
      `Error: ${broken} is not a job result (the resource of simjob result <id> --json). ${HINT}\n`,
    );
  });

  it('a submission saved without --wait: report fetches it by its id (report.test.ts); compare has no result to compare', async () => {
    const submitted = path('submitted.json', JSON.stringify({ success: true, id: '123456789012345678' }));
    const r = await simjob(['compare', submitted, submitted], { env: { PATH: process.env.PATH! } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `Error: ${submitted} is a submission saved without --wait: it holds no result to compare. Compare the job itself: simjob compare 123456789012345678 …\n`,
    );
  });

  it('a saved job whose id is not a job id (a path, spaces, nothing): refused before anything is fetched', async () => {
    const result = (id: string) =>
      JSON.stringify({ id, status: 'completed', result: { summary: null, artifacts: [] } });
    const escaping = path('escaping.json', result('../../v1/usage'));
    expect(await refusedByBoth(escaping)).toBe(
      `Error: ${escaping} holds "../../v1/usage" as its job id, which is not a job id. ${HINT}\n`,
    );
    const batch = path('spaced.json', `[${job}, ${JSON.stringify({ id: 'a b\u001b[2J', status: 'failed' })}]`);
    expect(await refusedByBoth(batch)).toBe(
      `Error: ${batch}[1] holds "a b\\x1b[2J" as its job id, which is not a job id. ${HINT}\n`,
    );
    const empty = path('no-id.json', result(''));
    expect(await refusedByBoth(empty)).toBe(`Error: ${empty} holds "" as its job id, which is not a job id. ${HINT}\n`);
  });

  it('a name that is not a file and not a job id', async () => {
    expect(await refusedByBoth('two words')).toBe('Error: "two words" is not a job id. Find ids with `simjob jobs`.\n');
  });
});

describe('compare and report: a saved result written by Windows tools', () => {
  const actor = (mean: number) => ({ name: 'alpha', mean, mean_error: 10, mean_stddev: 100, profilesets: null });
  const saved = (mean: number) =>
    JSON.stringify(
      {
        id: '123456789012345678',
        status: 'completed',
        result: { summary: { metric: 'dps', mainActor: actor(mean), multiStage: null }, artifacts: [] },
      },
      null,
      2,
    );

  const utf8 = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
  const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  it.each([
    ['UTF-8 after a byte order mark (PowerShell: Out-File -Encoding utf8)', utf8],
    ['UTF-16LE after a byte order mark (Windows PowerShell: >)', utf16],
  ])('is read: %s', async (_how, encode) => {
    const env = { PATH: process.env.PATH! };
    const a = join(dir, 'windows-a.json');
    const b = join(dir, 'windows-b.json');
    writeFileSync(a, encode(saved(50_000)));
    writeFileSync(b, encode(saved(40_000)));
    const compared = await simjob(['compare', a, b, '--fail-on-regression', '1'], { env, cwd: dir });
    expect(compared.stderr).toContain('1 regression of more than 1% (significant):');
    expect(compared.exitCode, compared.stderr).toBe(3);
    const page = join(dir, 'windows.html');
    const reported = await simjob(['report', a, b, '-o', page], { env, cwd: dir });
    expect(reported.exitCode, reported.stderr).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain('alpha');
  });
});

describe('compare and report: a result of 125,000 profilesets', () => {
  it(
    'is read, compared and written as a page (no call with an argument per profileset)',
    { timeout: 120_000 },
    async () => {
      const count = 125_000;
      const results = Array.from({ length: count }, (_, i) => ({
        name: `set_${i}`,
        mean: 50_000 + (i % 997),
        mean_error: 20,
        mean_stddev: 200,
        stage: null,
      }));
      const actor = { name: 'alpha', mean: 50_000, mean_error: 20, mean_stddev: 200, profilesets: { count, results } };
      const big = join(dir, 'many.json');
      const summary = { metric: 'dps', mainActor: actor, multiStage: null };
      writeFileSync(
        big,
        JSON.stringify({ id: '123456789012345678', status: 'completed', result: { summary, artifacts: [] } }),
      );
      const env = { PATH: process.env.PATH! };
      const page = join(dir, 'many.html');
      const reported = await simjob(['report', big, '-o', page], { env, cwd: dir });
      expect(reported.exitCode, reported.stderr).toBe(0);
      expect(reported.stdout).toContain('1 job, 125,000 profilesets.');
      expect(readFileSync(page, 'utf8')).toContain('set_124999');
      const compared = await simjob(['compare', big, big, '--fail-on-regression', '1'], { env, cwd: dir });
      expect(compared.exitCode, compared.stderr).toBe(0);
      expect(compared.stderr).toContain('0 of 125001 differences are significant.');
    },
  );
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
