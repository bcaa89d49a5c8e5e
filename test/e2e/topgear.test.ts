/**
 * `simjob topgear` end to end: the built CLI reads the addon export, builds the combinations and runs them with
 * multistage, locally against the stand-in simc and remotely against the spec server. The stand-in's numbers are
 * synthetic: these tests check what is shown and named, never which item "wins".
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simjob } from '../helpers/cli.js';
import { ADDON_FIXTURES_DIR } from '../helpers/shared.js';
import { startServer, type TestServer } from '../server/index.js';
import { freshLocalEnvs, json, profileFile, run } from './local-helpers.js';
import { userEnv } from './wait-helpers.js';

const FURY = resolve(ADDON_FIXTURES_DIR, 'fury-bags-vault.txt');
const FURY_TEXT = readFileSync(FURY, 'utf8');

/** The ranked rows of the piped (TSV) table: [rank, name, dps, error, Δ, Δ%, stage]. */
function rows(stdout: string): string[][] {
  return stdout.split('\n').filter((l) => /^\d+\t/.test(l)).map((l) => l.split('\t'));
}
const ITEM_NAMES = /^(Vaelgor's Final Stare \(282\)|Alnhara Lantern \(285\)|Heart of Ancient Hunger \(298, vault\)|Sin'dorei Band of Hope \(282\)|Eye of Midnight \(276\)|Platinum Star Band \(298, vault\)) in (trinket|finger)[12]$/;
const HEADLINE = /^(Equip .+: \+[\d,.]+ dps ± [\d,.]+ \(\+[\d.]+%\) over the equipped set\.|Keep what you wear: .+)$/m;

describe('simjob topgear --local', () => {
  const fresh = freshLocalEnvs();

  it('runs the combinations with multistage, names the items in the table, and result shows the same later', async () => {
    const env = fresh();
    const done = await run(env, ['topgear', FURY, '--slots', 'trinket,finger', '--local', '--wait'], 90_000);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).toContain('Examplewar (fury warrior): 63 combinations (the equipped set and 62 profilesets): finger 8, trinket 9.');
    expect(done.stderr).toContain('Left out: 4 items in slots --slots leaves as equipped; 2 ring pairs sharing an item id; 1 trinket pair sharing an item id; 2 saved loadouts (--talents all tries them); 9 combinations with more than one vault item (the vault gives one).');
    const table = rows(done.stdout);
    expect(table.length).toBe(20);
    for (const [, name] of table) for (const part of (name ?? '').split(/, (?=[A-Z])/)) expect(part).toMatch(ITEM_NAMES);
    expect(done.stdout).toMatch(HEADLINE);
    const funnel = /Multistage\s+62 initial \((\d+) culled\)/.exec(done.stdout);
    expect(Number(funnel?.[1])).toBeGreaterThan(0);

    const id = /Job\s+(local-\S+)/.exec(done.stdout)?.[1] ?? '';
    const later = await run(env, ['result', id]);
    expect(later.exitCode).toBe(0);
    expect(rows(later.stdout)).toEqual(table);
    expect(later.stdout.match(HEADLINE)?.[0]).toBe(done.stdout.match(HEADLINE)?.[0]);
  });

  it('--json prints only the job resource on stdout, marked kind=topgear; the counts go to stderr (export from stdin)', async () => {
    const env = fresh();
    const done = await simjob(['topgear', '-', '--slots', 'trinket', '--local', '--wait', '--json'], { env, input: FURY_TEXT, timeoutMs: 60_000 });
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
    const written = await run(env, ['topgear', FURY, '--slots', 'trinket', '-o', out]);
    expect(written.exitCode, written.stderr).toBe(0);
    expect(written.stdout).toBe('');
    expect(written.stderr).toContain(`Wrote ${out} (8 profilesets, `);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`profileset."Vaelgor's Final Stare (282) in trinket2"+=trinket2=,id=249346,bonus_id=12806/13577`);
    expect((await run(env, ['jobs', '--local', '--json'])).stdout).not.toContain('local-');

    const single = await run(env, ['topgear', FURY, '--slots', 'trinket', '--local', '--wait', '--json', '--no-multistage'], 60_000);
    expect(single.exitCode, single.stderr).toBe(0);
    expect(json(single).result.summary.mainActor.profilesets.results.every((r: { stage: number }) => r.stage === 1)).toBe(true);
  });
});

describe('simjob topgear --help', () => {
  it('gives the default of --max-combos and the one-hander/two-hander caveat', async () => {
    const help = await simjob(['topgear', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/--max-combos <n>\s+Refuse to submit more combinations than this\s+\(default 1000\)/);
    expect(help.stdout).toContain('The export cannot tell one-handers from two-handers');
    for (const flag of ['--channel', '--local', '--wait', '--meta', '--simc', '--timeout', '--no-multistage', '--dry-run', '--html']) expect(help.stdout).toContain(flag);
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
    expect(await refuse(['-'], FURY_TEXT.replace('warrior="Examplewar"\n', ''))).toEqual([expect.stringMatching(/^Error: The export on stdin: Line \d+: "level=90" comes before the class line/)]);
    expect(await refuse(['-'], FURY_TEXT.replace(/^[a-z_0-9]+=,id=.*$/gm, ''))).toEqual(['Error: The export on stdin: The export has no equipped item lines (head=,id=…): the paste is incomplete. Copy the whole text from the /simc window (Ctrl+A, Ctrl+C), down to its "# Checksum:" line.']);
    expect(await refuse(['-'], FURY_TEXT.replace('head=,id=249952', 'head=,id=249952 x'))).toEqual([expect.stringMatching(/^Error: The export on stdin: Line 24: simc cannot read this head item: it contains a space\. Copy the whole text/)]);
    expect(await refuse(['-'], FURY_TEXT.slice(0, FURY_TEXT.indexOf('### End of Weekly')))).toEqual([expect.stringMatching(/^Error: The export on stdin: The export ends inside "### Weekly Reward Choices": the paste was cut short\. Copy/)]);
    expect(await refuse([join(dir, 'missing.txt')])).toEqual([`Error: Export ${join(dir, 'missing.txt')} does not exist. Save the /simc text to a file, or pipe it in with -.`]);
  });

  it('an export with nothing in the bags: one combination, said in the singular, and why nothing runs', async () => {
    const r = await simjob(['topgear', resolve(ADDON_FIXTURES_DIR, 'fury-equipped-only.txt'), '--channel', 'nightly'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Examplewar (fury warrior): 1 combination (the equipped set only).\n');
    expect(r.stderr).toMatch(/^Error: Export .* offers nothing to swap in/m);
  });

  it('more combinations than --max-combos: how many, and which --slots would fit', async () => {
    expect(await refuse([FURY, '--max-combos', '100'])).toEqual(['Error: 744 combinations is more than --max-combos 100: --slots waist,finger,trinket would make 93 (or raise --max-combos).']);
    expect(await refuse([FURY, '--talents', 'all'])).toEqual(['Error: 2,232 combinations is more than --max-combos 1,000: --slots head,neck,finger,trinket would make 756 (or raise --max-combos).']);
  });

  it('a profile over the service\'s 2 MB: which --slots would fit (local runs have no such limit)', async () => {
    const extra = ['back', 'feet', 'wrist', 'legs'].map((slot, i) => `#\n# Spare ${slot} (280)\n# ${slot}=,id=${300_000 + i}`).join('\n');
    const big = FURY_TEXT.replace('### Gear from Bags\n', `### Gear from Bags\n${extra}\n`);
    const [line] = await refuse(['-', '--max-combos', '20000'], big);
    expect(line).toMatch(/^Error: The profile for 11,904 combinations is \d+\.\d MB, over the service's 2 MB: --slots [a-z,]+ would make [\d,]+ combinations \(or run it with --local\)\.$/);
  });

  it('bad --slots, and nothing to swap in', async () => {
    expect(await refuse([FURY, '--slots', 'hat'])).toEqual(['Error: --slots: "hat" is not a slot group; use any of head,neck,shoulder,back,chest,wrist,hands,waist,legs,feet,finger,trinket,weapon.']);
    expect(await refuse([FURY, '--slots', 'legs'])).toEqual([`Error: Export ${FURY} offers nothing to swap in for --slots legs: the equipped set is the only combination. Name other slot groups in --slots, or drop it.`]);
  });

  it('an edited export is a warning, and the run goes on (dry run)', async () => {
    const r = await simjob(['topgear', '-', '--slots', 'trinket', '--channel', 'nightly', '--dry-run'], { env, input: FURY_TEXT.replace('level=90', 'level=89') });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Warning: The export's checksum \(bbcf9e9d\) does not match its text/);
    expect(r.stderr).toContain('Multistage: initial at target_error 1 → intermediate at target_error 0.2 → final at target_error 0.05.');
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
    const done = await simjob(['topgear', FURY, '--slots', 'trinket,finger', '--channel', 'nightly', '--wait', '--meta', 'run=42'], { env, timeoutMs: 60_000 });
    expect(done.exitCode, done.stderr).toBe(0);
    const id = /Job\s+(\S+)/.exec(done.stdout)?.[1] ?? '';
    const job = server.jobs.get(id);
    expect(job?.submission.metadata).toEqual({ run: '42', kind: 'topgear' });
    expect(job?.submission.multiStage).toBe(true);
    const table = rows(done.stdout);
    expect(table.length).toBe(20);
    for (const [, name] of table) for (const part of (name ?? '').split(/, (?=[A-Z])/)) expect(part).toMatch(ITEM_NAMES);
    expect(done.stdout).toMatch(HEADLINE);
    expect(done.stdout).toMatch(/Multistage\s+62 initial/);

    const later = await simjob(['result', id], { env });
    expect(later.exitCode).toBe(0);
    expect(rows(later.stdout)).toEqual(table);
    expect(later.stdout.match(HEADLINE)?.[0]).toBe(done.stdout.match(HEADLINE)?.[0]);
  });

  it('--meta kind= is refused: topgear sets it', async () => {
    const r = await simjob(['topgear', FURY, '--slots', 'trinket', '--channel', 'nightly', '--meta', 'kind=x'], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Error: --meta kind= is set by topgear itself');
  });
});
