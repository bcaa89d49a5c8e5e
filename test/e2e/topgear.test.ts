/**
 * `simjob topgear` end to end: the built CLI reads the addon export, builds the combinations and runs them with
 * multistage, locally against the stand-in simc and remotely against the spec server. The stand-in's numbers are
 * synthetic: these tests check what is shown and named, never which item "wins".
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simjob as spawnSimjob } from '../helpers/cli.js';
import { simjob } from '../helpers/cli-in-process.js';
import { ADDON_FIXTURES_DIR, REPO_ROOT } from '../helpers/shared.js';
import { startServer, type TestServer } from '../server/index.js';
import { freshLocalEnvs, json, profileFile, run } from './local-helpers.js';
import { userEnv } from './wait-helpers.js';

const FURY = resolve(ADDON_FIXTURES_DIR, 'fury-bags-vault.txt');
const FURY_TEXT = readFileSync(FURY, 'utf8');

/** The ranked rows of the piped (TSV) table: [rank, name, dps, error, Δ, Δ%, stage]. */
function rows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((l) => /^\d+\t/.test(l))
    .map((l) => l.split('\t'));
}
const ITEM_NAMES =
  /^(Vaelgor's Final Stare \(282\)|Alnhara Lantern \(285\)|Heart of Ancient Hunger \(298, vault\)|Sin'dorei Band of Hope \(282\)|Eye of Midnight \(276\)|Platinum Star Band \(298, vault\)) in (trinket|finger)[12]$/;
const HEADLINE =
  /^(Equip .+: \+[\d,.]+ dps ± [\d,.]+ \(\+[\d.]+%\) over the equipped set\.|Keep what you wear: .+|\d+ combinations are within the error of the best: .+)$/m;
/** The text of the report page's answer block (the page escapes ' as &#39;). */
const pageAnswer = (html: string) =>
  /<p class="answer-headline"><strong>(.*?)<\/strong>/
    .exec(html)?.[1]
    ?.replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('simjob topgear --local', () => {
  const fresh = freshLocalEnvs();

  it('runs the combinations with multistage, names the items in the table, and result shows the same later', async () => {
    const env = fresh();
    const done = await run(env, ['topgear', FURY, '--slots', 'trinket,finger', '--local', '--wait'], 90_000);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).toContain(
      'Examplewar (fury warrior): 63 combinations (the equipped set and 62 profilesets): finger 8, trinket 9.',
    );
    expect(done.stderr).toContain(
      'Left out: 4 items in slots --slots leaves as equipped; 2 ring pairs sharing an item id; 1 trinket pair sharing an item id; 2 saved loadouts (--talents all tries them); 9 combinations with more than one vault item (the vault gives one).',
    );
    const table = rows(done.stdout);
    expect(table.length).toBe(20);
    for (const [, name] of table)
      for (const part of (name ?? '').split(/, (?=[A-Z])/)) expect(part).toMatch(ITEM_NAMES);
    expect(done.stdout).toMatch(HEADLINE);
    const funnel = /Multistage\s+62 initial \((\d+) culled\)/.exec(done.stdout);
    expect(Number(funnel?.[1])).toBeGreaterThan(0);

    const id = /Job\s+(local-\S+)/.exec(done.stdout)?.[1] ?? '';
    const later = await run(env, ['result', id]);
    expect(later.exitCode).toBe(0);
    expect(rows(later.stdout)).toEqual(table);
    expect(later.stdout.match(HEADLINE)?.[0]).toBe(done.stdout.match(HEADLINE)?.[0]);

    // The report page opens with the same answer.
    const page = join(profileFile(env, 'x', ''), '..', 'topgear.html');
    const report = await run(env, ['report', id, '-o', page]);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(pageAnswer(readFileSync(page, 'utf8'))).toBe(done.stdout.match(HEADLINE)?.[0]);
  });

  it('a tied top gear says it is tied, in `result` and on the report page, with the --target-error that would separate it', async () => {
    // The stand-in simc with a large noise, run to a coarse final error: the trinket combinations (within ±6 % of
    // each other by construction) cannot be told apart. Synthetic numbers: only the wording is checked.
    const env = fresh();
    const noisy = { ...env, FAKE_SIMC_NOISE: '0.5' };
    const done = await run(
      noisy,
      ['topgear', FURY, '--slots', 'trinket', '--local', '--wait', '--target-error', '10'],
      90_000,
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const id = /Job\s+(local-\S+)/.exec(done.stdout)?.[1] ?? '';
    const later = await run(env, ['result', id]);
    expect(later.exitCode, later.stderr).toBe(0);
    const tie =
      /^(\d+) combinations are within the error of the best: .+$|^Keep what you wear: the equipped set (and \d+ combinations are within the error of the best|leads, and (one combination is|\d+ combinations are) within its error): .+$/m;
    expect(later.stdout).toMatch(tie);
    expect(later.stdout).toMatch(/^What would separate them: /m);
    expect(later.stdout).toMatch(/^Great Vault: /m);
    const page = join(profileFile(env, 'x', ''), '..', 'tied.html');
    expect((await run(env, ['report', id, '-o', page])).exitCode).toBe(0);
    expect(pageAnswer(readFileSync(page, 'utf8'))).toBe(later.stdout.match(tie)?.[0]);
  });

  it('--json prints only the job resource on stdout, marked kind=topgear; the counts go to stderr (export from stdin)', async () => {
    const env = fresh();
    // Local mode starts a worker and simc: the built binary, as a user runs it.
    const done = await spawnSimjob(['topgear', '-', '--slots', 'trinket', '--local', '--wait', '--json'], {
      env,
      input: FURY_TEXT,
      timeoutMs: 60_000,
    });
    expect(done.exitCode, done.stderr).toBe(0);
    const record = json(done);
    expect(record.metadata).toEqual({ kind: 'topgear' });
    expect(record.result.summary.mainActor.profilesets.count).toBe(8);
    expect(record.result.summary.multiStage.enabled).toBe(true);
    expect(done.stderr).toContain('9 combinations (the equipped set and 8 profilesets): trinket 9.');
  });

  it('--no-multistage runs a single pass; -o writes the profile and submits nothing', async () => {
    const env = fresh();
    const out = join(profileFile(env, 'x', ''), '..', 'topgear.simc');
    const written = await simjob(['topgear', FURY, '--slots', 'trinket', '-o', out], { env });
    expect(written.exitCode, written.stderr).toBe(0);
    expect(written.stdout).toBe('');
    expect(written.stderr).toContain(`Wrote ${out} (8 profilesets, `);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(
      `profileset."Vaelgor's Final Stare (282) in trinket2"+=trinket2=,id=249346,bonus_id=12806/13577`,
    );
    expect((await run(env, ['jobs', '--local', '--json'])).stdout).not.toContain('local-');
    // the command it prints gets the answer back, as topgear --wait gives it
    const command = /Run it and read the answer with: (simjob submit .+ --wait) \(add --local, or --channel\)\./.exec(
      written.stderr,
    )?.[1];
    expect(command).toBe(`simjob submit ${out} --multistage --meta kind=topgear --wait`);
    expect(text).toContain('# To run it and read the answer ("Equip …"): simjob submit <this file> --multistage');
    const again = await run(env, [...command!.split(' ').slice(1), '--local'], 60_000);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      /^(Equip .+ over the equipped set\.|Keep what you wear: .+|\d+ combinations are within the error of the best: .+)$/m,
    );

    const single = await run(
      env,
      ['topgear', FURY, '--slots', 'trinket', '--local', '--wait', '--json', '--no-multistage'],
      60_000,
    );
    expect(single.exitCode, single.stderr).toBe(0);
    expect(
      json(single).result.summary.mainActor.profilesets.results.every((r: { stage: number }) => r.stage === 1),
    ).toBe(true);
  });
});

describe('simjob topgear --help', () => {
  it('gives the default of --max-combos and the one-hander/two-hander caveat', async () => {
    const help = await simjob(['topgear', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/--max-combos <n>\s+Refuse to submit more combinations than this\s+\(default 1000\)/);
    expect(help.stdout).toContain('The export cannot tell one-handers from two-handers');
    for (const flag of [
      '--channel',
      '--local',
      '--wait',
      '--meta',
      '--simc',
      '--timeout',
      '--no-multistage',
      '--dry-run',
      '--html',
    ])
      expect(help.stdout).toContain(flag);
  });

  it('one precision default everywhere: topgear and statweights --help, the multistage plan and the tie advice', async () => {
    const { DEFAULT_TARGET_ERROR, MIN_TARGET_ERROR } = await import('../../src/domain/profile/precision.js');
    const topgear = (await simjob(['topgear', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(topgear).toContain(`(default ${DEFAULT_TARGET_ERROR}, at least ${MIN_TARGET_ERROR})`);
    expect(topgear).not.toMatch(/e\.g\. 0\.0\d/);
    const statweights = (await simjob(['statweights', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(statweights).toContain(`target_error for every run (default ${DEFAULT_TARGET_ERROR})`);
    const { topGearAnswer } = await import('../../src/domain/topgear/answer.js');
    // two sets 0.5 dps apart at 50,000: nothing finer than the service's floor is ever advised
    const record = {
      id: '519253542012420096',
      status: 'completed',
      metadata: { kind: 'topgear' },
      result: {
        summary: {
          metric: 'dps',
          mainActor: {
            name: 'A',
            mean: 49_000,
            mean_error: 30,
            profilesets: {
              count: 2,
              results: [
                { name: 'x', mean: 50_000.5, mean_error: 30 },
                { name: 'y', mean: 50_000, mean_error: 30 },
              ],
            },
          },
        },
      },
    };
    const answer = topGearAnswer(record as never);
    expect(answer?.separate).toContain(`even --target-error ${MIN_TARGET_ERROR}, the finest the service runs`);
  });
});

describe('simjob topgear refuses bad input with one line and exit 2, sending nothing', () => {
  let server: TestServer;
  let env: Record<string, string>;
  const dir = mkdtempSync(join(tmpdir(), 'simjob-topgear-'));
  beforeAll(async () => {
    server = await startServer({ queueMs: 50, runMs: 300 });
    env = userEnv(server);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const refuse = async (args: string[], input = '') => {
    const before = server.requests.length;
    const r = await simjob(['topgear', ...args, '--channel', 'nightly'], { env, input });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(server.requests.length).toBe(before);
    return r.stderr.split('\n').filter((l) => l.startsWith('Error:'));
  };

  it('an export without a class line, without items, with an unreadable item, or cut short', async () => {
    expect(await refuse(['-'], FURY_TEXT.replace('warrior="Examplewar"\n', ''))).toEqual([
      expect.stringMatching(/^Error: The export on stdin: Line \d+: "level=90" comes before the class line/),
    ]);
    expect(await refuse(['-'], FURY_TEXT.replace(/^[a-z_0-9]+=,id=.*$/gm, ''))).toEqual([
      'Error: The export on stdin: The export has no equipped item lines (head=,id=…): the paste is incomplete. Copy the whole text from the /simc window (Ctrl+A, Ctrl+C), down to its "# Checksum:" line.',
    ]);
    expect(await refuse(['-'], FURY_TEXT.replace('head=,id=249952', 'head=,id=249952 x'))).toEqual([
      expect.stringMatching(
        /^Error: The export on stdin: Line 24: simc cannot read this head item: it contains a space\. Copy the whole text/,
      ),
    ]);
    expect(await refuse(['-'], FURY_TEXT.slice(0, FURY_TEXT.indexOf('### End of Weekly')))).toEqual([
      expect.stringMatching(
        /^Error: The export on stdin: The export ends inside "### Weekly Reward Choices": the paste was cut short\. Copy/,
      ),
    ]);
    expect(await refuse([join(dir, 'missing.txt')])).toEqual([
      `Error: Export ${join(dir, 'missing.txt')} does not exist. Save the /simc text to a file, or pipe it in with -.`,
    ]);
  });

  it('a simc profile (not the addon text) is said to be one, in one line', async () => {
    const profile = resolve(REPO_ROOT, 'examples', 'fury-profilesets.simc');
    expect(await refuse([profile])).toEqual([
      `Error: Export ${profile}: this is a simc profile; topgear needs the /simc addon text. Type /simc in game ` +
        "and save the window's text to a file (or pipe it in with -); a simc profile goes to simjob submit.",
    ]);
    // from stdin too, and a profile with no action list is known by its named items
    const named = `warrior="A"\nspec=fury\nhead=night_enders_tusks,id=249952\n`;
    expect(await refuse(['-'], named)).toEqual([expect.stringMatching(/^Error: The export on stdin: this is a simc/)]);
  });

  it("a paste cut inside a bag item line (the issue's `head -n 70; printf '# neck=,id=250'`) names the line", async () => {
    const cut = `${FURY_TEXT.split('\n').slice(0, 70).join('\n')}\n# neck=,id=250`;
    const file = join(dir, 'cut.txt');
    writeFileSync(file, cut);
    const lines = await refuse([file, '-o', join(dir, 'cut.simc')]);
    expect(lines).toEqual([
      `Error: Export ${file}: Line 71: the paste ends in this item line, "# neck=,id=250", with no "# Checksum:" line after it: it was cut short, maybe inside the line. Copy the whole text from the /simc window (Ctrl+A, Ctrl+C), down to its "# Checksum:" line.`,
    ]);
    expect(existsSync(join(dir, 'cut.simc'))).toBe(false);
    // Cut before the bags: never "open your bags".
    const short = await simjob(['topgear', '-', '--channel', 'nightly'], {
      env,
      input: `${FURY_TEXT.split('\n').slice(0, 56).join('\n')}\n`,
    });
    expect(short.exitCode).toBe(2);
    expect(short.stderr).not.toContain('Open your bags');
    expect(short.stderr).toContain('the paste may be cut short');
  });

  it('option lines in an export stay out of the profile and are named on stderr; a bag line with an option is refused', async () => {
    const file = join(dir, 'opts.txt');
    writeFileSync(
      file,
      FURY_TEXT.replace('spec=fury\n', `spec=fury\nhtml=${join(dir, 'x.html')}\njson2=${join(dir, 'x.json')}\n`),
    );
    const out = join(dir, 'opts.simc');
    const r = await simjob(['topgear', file, '--slots', 'trinket', '-o', out], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `Warning: Left out of the profile, as not part of the character (they would change the sim or write files): line 14 "html=${join(dir, 'x.html')}", line 15 "json2=${join(dir, 'x.json')}".`,
    );
    expect(readFileSync(out, 'utf8')).not.toMatch(/^(html|json2)=/m);
    const trailing = FURY_TEXT.replace(
      '# trinket1=,id=245769,bonus_id=8791/8960/12214/12693',
      '# trinket1=,id=245769,bonus_id=8791/8960/12214/12693 json2=/tmp/x',
    );
    expect(await refuse(['-'], trailing)).toEqual([
      expect.stringMatching(
        /^Error: The export on stdin: Line 62: simc cannot read this trinket1 item: it contains a space\./,
      ),
    ]);
  });

  it('an export with nothing in the bags: one combination, said in the singular, and why nothing runs', async () => {
    const r = await simjob(['topgear', resolve(ADDON_FIXTURES_DIR, 'fury-equipped-only.txt'), '--channel', 'nightly'], {
      env,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Examplewar (fury warrior): 1 combination (the equipped set only).\n');
    expect(r.stderr).toMatch(/^Error: Export .* offers nothing to swap in/m);
  });

  it('more combinations than --max-combos: how many, and which --slots would fit', async () => {
    expect(await refuse([FURY, '--max-combos', '100'])).toEqual([
      'Error: 744 combinations is more than --max-combos 100: --slots waist,finger,trinket would make 93 (or raise --max-combos).',
    ]);
    expect(await refuse([FURY, '--talents', 'all'])).toEqual([
      'Error: 2,232 combinations is more than --max-combos 1,000: --slots head,neck,finger,trinket would make 756 (or raise --max-combos).',
    ]);
  });

  it("a profile over the service's 2 MB: which --slots would fit (local runs have no such limit)", async () => {
    const extra = ['back', 'feet', 'wrist', 'legs']
      .map((slot, i) => `#\n# Spare ${slot} (280)\n# ${slot}=,id=${300_000 + i}`)
      .join('\n');
    const big = FURY_TEXT.replace('### Gear from Bags\n', `### Gear from Bags\n${extra}\n`);
    const [line] = await refuse(['-', '--max-combos', '20000'], big);
    expect(line).toMatch(
      /^Error: The profile for 11,904 combinations is \d+\.\d MB, over the service's 2 MB: --slots [a-z,]+ would make [\d,]+ combinations \(or run it with --local\)\.$/,
    );
  });

  it('bad --slots, and nothing to swap in', async () => {
    expect(await refuse([FURY, '--slots', 'hat'])).toEqual([
      'Error: --slots: "hat" is not a slot group; use any of head,neck,shoulder,back,chest,wrist,hands,waist,legs,feet,finger,trinket,weapon.',
    ]);
    expect(await refuse([FURY, '--slots', 'legs'])).toEqual([
      `Error: Export ${FURY} offers nothing to swap in for --slots legs: the equipped set is the only combination. Name other slot groups in --slots, or drop it.`,
    ]);
  });

  it('an edited export is a warning, and the run goes on (dry run)', async () => {
    const r = await simjob(['topgear', '-', '--slots', 'trinket', '--channel', 'nightly', '--dry-run'], {
      env,
      input: FURY_TEXT.replace('level=90', 'level=89'),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Warning: The export's checksum \(bbcf9e9d\) does not match its text/);
    expect(r.stderr).toContain(
      'Multistage: initial at target_error 1 → intermediate at target_error 0.2 → final at target_error 0.05.',
    );
    expect(JSON.parse(r.stdout).body.metadata).toEqual({ kind: 'topgear' });
  });
});

describe('simjob topgear on the service', () => {
  let server: TestServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startServer({ queueMs: 50, runMs: 300 });
    env = userEnv(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('submits one multistage job marked kind=topgear; the table and `result` name the items', async () => {
    const done = await simjob(
      ['topgear', FURY, '--slots', 'trinket,finger', '--channel', 'nightly', '--wait', '--meta', 'run=42'],
      { env, timeoutMs: 60_000 },
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const id = /Job\s+(\S+)/.exec(done.stdout)?.[1] ?? '';
    const job = server.jobs.get(id);
    expect(job?.submission.metadata).toEqual({ run: '42', kind: 'topgear' });
    expect(job?.submission.multiStage).toBe(true);
    const table = rows(done.stdout);
    expect(table.length).toBe(20);
    for (const [, name] of table)
      for (const part of (name ?? '').split(/, (?=[A-Z])/)) expect(part).toMatch(ITEM_NAMES);
    expect(done.stdout).toMatch(HEADLINE);
    expect(done.stdout).toMatch(/Multistage\s+62 initial/);

    const later = await simjob(['result', id], { env });
    expect(later.exitCode).toBe(0);
    expect(rows(later.stdout)).toEqual(table);
    expect(later.stdout.match(HEADLINE)?.[0]).toBe(done.stdout.match(HEADLINE)?.[0]);

    // The report page opens with the same answer.
    const dir = mkdtempSync(join(tmpdir(), 'simjob-topgear-page-'));
    try {
      const page = join(dir, 'topgear.html');
      const report = await simjob(['report', id, '-o', page], { env });
      expect(report.exitCode, report.stderr).toBe(0);
      expect(pageAnswer(readFileSync(page, 'utf8'))).toBe(done.stdout.match(HEADLINE)?.[0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--meta kind= is refused: topgear sets it', async () => {
    const r = await simjob(['topgear', FURY, '--slots', 'trinket', '--channel', 'nightly', '--meta', 'kind=x'], {
      env,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Error: --meta kind= is set by topgear itself');
  });
});
