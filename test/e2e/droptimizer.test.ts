/**
 * `simjob droptimizer` end to end: the built CLI reads addon exports and the shipped catalog, runs the drops with
 * multistage against the stand-in simc, and shows the best upgrade and the sources ranked; a roster ends in one
 * matrix and a CSV a spreadsheet can read. The stand-in's numbers are synthetic: these tests check what is shown
 * and named, never which drop "wins".
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simjob } from '../helpers/cli-in-process.js';
import { startServer, type TestServer } from '../server/index.js';
import { userEnv } from './wait-helpers.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { FAKE_SIMC, freshLocalEnvs, json, profileFile, run, type LocalEnv } from './local-helpers.js';
import { tinyCatalog } from '../helpers/tiny-catalog.js';

const ADDON = resolve(REPO_ROOT, 'test', 'fixtures', 'addon');
const FURY = join(ADDON, 'fury-bags-vault.txt');
const FURY_BARE = join(ADDON, 'fury-equipped-only.txt');
const HUNTER = join(ADDON, 'topgear-high-spread-sortbek-bm-gear.simc');
const REAL_DK = join(ADDON, 'real', 'deathknight-unholy-1.txt');
const REAL_HUNTER = join(ADDON, 'real', 'hunter-marksmanship-1.txt');
const VOIDSPIRE_BOSSES = [
  'Imperator Averzian',
  'Vorasius',
  'Fallen-King Salhadaar',
  'Vaelgor & Ezzorak',
  'Lightblinded Vanguard',
  'Crown of the Cosmos',
];
const SLOT = '(head|neck|shoulder|back|chest|wrist|hands|waist|legs|feet|finger[12]|trinket[12])';
const DROP_NAME = new RegExp(`^.+ \\(\\d{3}\\) from (${VOIDSPIRE_BOSSES.join('|')}) in ${SLOT}$`);

/** Rows of a piped (TSV) table whose first cell is a rank. */
const ranked = (text: string) =>
  text
    .split('\n')
    .filter((l) => /^\d+\t/.test(l))
    .map((l) => l.split('\t'));

async function noJobs(env: LocalEnv): Promise<void> {
  const jobs = await run(env, ['jobs', '--local', '--json']);
  expect(jobs.stdout).not.toContain('local-');
}

describe('simjob droptimizer --local --wait', () => {
  const fresh = freshLocalEnvs();

  it('names each drop and its boss, gives the best upgrade and ranks the bosses; result --json carries the same answer', async () => {
    const env = fresh();
    const done = await run(
      env,
      ['droptimizer', FURY, '--instance', 'the voidspire', '--difficulty', 'mythic', '--local', '--wait'],
      90_000,
    );
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).toContain(
      'Drops of The Voidspire (mythic, as dropped). Each takes the enchant and gems of the item it replaces',
    );
    // a Fury warrior: plate, Strength, the trinkets the journal gives Fury (issue 38)
    expect(done.stderr).toContain('Examplewar (fury warrior): 16 drops in 19 profilesets.');
    expect(done.stderr).toContain(
      'Left out: 22 items of other armour types, 7 trinkets for other stats or roles; --all-items sims them too.',
    );
    expect(done.stdout).toMatch(
      /^(Best upgrade: .+ from .+ in \w+: \+[\d,.]+ dps ± [\d,.]+ \(\+[\d.]+%\) over what you wear\.|Nothing here beats what you wear.*)$/m,
    );

    const lines = done.stdout.split('\n');
    const bySource = lines.indexOf('By source (the best boss or dungeon first):');
    expect(bySource).toBeGreaterThan(0);
    expect(lines[bySource + 1]).toBe('#\tSource\tBest drop\tΔ DPS\tΔ %\tUpgrades');
    const after = lines.slice(bySource + 2);
    const sources = after
      .slice(
        0,
        after.findIndex((l) => !/^\d+\t/.test(l)),
      )
      .map((l) => l.split('\t'));
    expect(sources.map((r) => r[1]).sort()).toEqual([...VOIDSPIRE_BOSSES].sort());
    for (const r of sources) expect(r[5]).toMatch(/^\d+ of \d+$/);
    const profilesets = ranked(done.stdout.slice(done.stdout.indexOf('Profileset')));
    expect(profilesets.length).toBeGreaterThan(0);
    expect(profilesets.length).toBeLessThanOrEqual(19);
    for (const [, name] of profilesets) expect(name).toMatch(DROP_NAME);

    const id = /Job\s+(local-\S+)/.exec(done.stdout)?.[1] ?? '';
    const later = await run(env, ['result', id, '--json']);
    expect(later.exitCode).toBe(0);
    const record = json(later);
    expect(record.metadata).toEqual({ kind: 'droptimizer' });
    expect(record.droptimizer.bySource.map((s: { source: string }) => s.source).sort()).toEqual(
      [...VOIDSPIRE_BOSSES].sort(),
    );
    expect(record.droptimizer.best.name).toMatch(DROP_NAME);
    expect(record.result.summary.multiStage.enabled).toBe(true);

    const page = profileFile(env, 'report.html', '');
    const report = await run(env, ['report', id, '-o', page]);
    expect(report.exitCode, report.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    const section = html.slice(
      html.indexOf('<h2>Droptimizer</h2>'),
      html.indexOf('</table>', html.indexOf('<h2>Droptimizer</h2>')),
    );
    expect(section).toMatch(/<p><strong>(Best upgrade: |Nothing here beats what you wear)/);
    for (const boss of VOIDSPIRE_BOSSES)
      expect(section).toContain(`<td class="text">${boss.replace('&', '&amp;')}</td>`);
  });
});

describe('simjob droptimizer on real exports: only what the character can use, the Great Vault as one pool', () => {
  const fresh = freshLocalEnvs();
  const catalog = JSON.parse(readFileSync(resolve(REPO_ROOT, 'data', 'catalog', 'midnight-s1.json'), 'utf8'));
  const armorOf = new Map<number, string | null>(
    catalog.instances.flatMap((i: any) =>
      i.encounters.flatMap((e: any) => e.items.map((it: any) => [it.id, it.armor])),
    ),
  );

  it('a Death Knight: plate drops of the vault rows; the plan says what was left out; --all-items sims every drop', async () => {
    const env = fresh();
    const out = profileFile(env, 'drops.simc', '');
    const args = ['droptimizer', REAL_DK, '--source', 'vault', '--difficulty', 'mythic', '--keystone', '12'];
    const done = await run(env, [...args, '-o', out, '--local', '--simc', FAKE_SIMC]);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).toContain('Drops of Great Vault (raid at mythic, dungeons at +12, as dropped).');
    expect(done.stderr).toMatch(/Gubulgi \(unholy deathknight\): 57 drops in \d+ profilesets\./);
    expect(done.stderr).toContain(
      'Left out: 77 items of other armour types, 16 trinkets for other stats or roles; --all-items sims them too.',
    );
    const sets = readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('profileset.'));
    expect(sets.length).toBeGreaterThan(0);
    for (const line of sets) {
      expect(line).toMatch(/^profileset\."[^"]+ \(\d{3}\) from Great Vault \((\+12|mythic raid)\) in \w+"\+=/);
      const armor = armorOf.get(Number(/,id=(\d+)/.exec(line)![1]));
      expect([null, 'plate'], line).toContain(armor);
    }

    const all = await run(env, [...args, '--all-items', '-o', out, '--local', '--simc', FAKE_SIMC]);
    expect(all.exitCode, all.stderr).toBe(0);
    expect(all.stderr).toMatch(/Gubulgi \(unholy deathknight\): 150 drops in \d+ profilesets\./);
    expect(all.stderr).not.toContain('--all-items sims them too');
    await noJobs(env);
  });

  it('a Hunter runs the Great Vault: two pools, and the answer names the best vault pick', async () => {
    const env = fresh();
    const done = await run(
      env,
      ['droptimizer', REAL_HUNTER, '--source', 'vault', '--local', '--simc', FAKE_SIMC, '--wait'],
      120_000,
    );
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stderr).toContain(
      'Left out: 78 items of other armour types, 17 trinkets for other stats or roles; --all-items sims them too.',
    );
    expect(done.stdout).toMatch(/^(Best Great Vault pick: .+ from Great Vault \(.+\) in \w+: |Nothing here beats)/m);
    const lines = done.stdout.split('\n');
    const bySource = lines.indexOf('By source (the best boss or dungeon first):');
    const rows = lines.slice(bySource + 2, bySource + 4).map((l) => l.split('\t')[1]);
    expect(rows.sort()).toEqual(['Great Vault (+10)', 'Great Vault (heroic raid)']);
  });
});

describe('simjob droptimizer: bad input is one line, exit 2, nothing sent', () => {
  const fresh = freshLocalEnvs();

  it.each([
    [
      'an unknown instance',
      [FURY, '--instance', 'Voidspyre'],
      /^Error: --instance "Voidspyre" is not in the Midnight Season 1 catalog; did you mean "The Voidspire"\?/,
    ],
    [
      'an unknown difficulty',
      [FURY, '--difficulty', 'epic'],
      /^Error: --difficulty must be one of lfr, normal, heroic, mythic \(got "epic"\)\./,
    ],
    [
      'a keystone for raids only',
      [FURY, '--keystone', '10'],
      /^Error: --keystone chooses a Mythic\+ level, but no dungeon is chosen\./,
    ],
    ['an export that does not exist', ['missing-export.txt'], /^Error: Export missing-export\.txt does not exist\./],
    [
      'a catalog over plain http',
      [FURY, '--catalog', 'http://127.0.0.1:9/c.json'],
      /^Error: --catalog http:\/\/127\.0\.0\.1:9\/c\.json: only https URLs are fetched\./,
    ],
  ])('%s', async (_, args, message) => {
    const env = fresh();
    const done = await run(env, ['droptimizer', ...args, '--local', '--wait']);
    expect(done.exitCode).toBe(2);
    expect(done.stdout).toBe('');
    const errors = done.stderr.split('\n').filter((l) => l.startsWith('Error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
    await noJobs(env);
  });

  it('an export that is not one, a catalog that fails its schema, and nothing that fits the slots', async () => {
    const env = fresh();
    const notExport = profileFile(env, 'notes.txt', 'just some notes\n');
    const bad = await run(env, ['droptimizer', notExport, '--local', '--wait']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(
      /^Error: Export .*notes\.txt: The export has no class line .*it is not a \/simc export/m,
    );
    // simc's own profile (named items, an action list): said in one line, not "cannot read this head item"
    const profile = resolve(REPO_ROOT, 'examples', 'fury-profilesets.simc');
    const simcProfile = await run(env, ['droptimizer', profile, '--local', '--wait']);
    expect(simcProfile.exitCode).toBe(2);
    expect(simcProfile.stdout).toBe('');
    expect(simcProfile.stderr).toBe(
      `Error: Export ${profile}: this is a simc profile; droptimizer needs the /simc addon text. Type /simc in game ` +
        "and save the window's text to a file (or pipe it in with -); a simc profile goes to simjob submit.\n",
    );

    const wrong = profileFile(
      env,
      'wrong.json',
      JSON.stringify({ format: 'simjob-droptimizer-catalog/1', season: 's', title: 'S', instances: [] }),
    );
    const schema = await run(env, ['droptimizer', FURY, '--catalog', wrong, '--local', '--wait']);
    expect(schema.exitCode).toBe(2);
    expect(schema.stderr).toMatch(
      /^Error: Catalog .*wrong\.json does not fit the simjob-droptimizer-catalog\/1 format: instances: /m,
    );

    const offHands = profileFile(env, 'off-hands.json', tinyCatalog([{ id: 1001, name: 'Shield', slot: 'off_hand' }]));
    const none = await run(env, ['droptimizer', HUNTER, '--catalog', offHands, '--local', '--wait']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(
      /^Error: Export .*: nothing in Vault of Tests \(heroic, as dropped\) fits Sørtbek's class and slots \(kept 1 item the catalog gives no armour, stat or trinket facts for; left out: 1 off-hand drop \(no off-hand is worn\)\)\./m,
    );
    await noJobs(env);
  });
});

describe('simjob droptimizer roster', () => {
  const fresh = freshLocalEnvs();

  it('three exports: one job each, one character × item matrix, and a CSV that round-trips through a CSV parser', async () => {
    const env = fresh();
    const csvFile = profileFile(env, 'roster.csv', '');
    const mdFile = profileFile(env, 'roster.md', '');
    const done = await run(
      env,
      [
        'droptimizer',
        FURY,
        FURY_BARE,
        HUNTER,
        '--instance',
        'Sporefall',
        '--difficulty',
        'mythic',
        '--local',
        '--wait',
        '--report',
        `csv=${csvFile}`,
        '--report',
        `markdown=${mdFile}`,
      ],
      120_000,
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const lines = done.stdout.split('\n');
    // the two Examplewar exports share a realm too: they are told apart by their files' names
    const characters = ['Examplewar (fury-bags-vault.txt)', 'Examplewar (fury-equipped-only.txt)', 'Sørtbek'];
    expect(lines[0]).toBe('Character\tJob\tState\tBest upgrade');
    expect(lines.slice(1, 4).map((l) => l.split('\t')[0])).toEqual(characters);
    for (const l of lines.slice(1, 4)) expect(l.split('\t')[2]).toBe('completed');
    const head = lines.findIndex((l) => l.startsWith('Item\tSource\t'));
    expect(lines[head]).toBe(['Item', 'Source', ...characters].join('\t'));
    const matrix = lines
      .slice(head + 1)
      .filter((l) => l.includes('\tRotmire\t'))
      .map((l) => l.split('\t'));
    expect(matrix.length).toBeGreaterThan(0);
    expect(done.stdout.match(/^Item\tSource\t/gm)).toHaveLength(1); // one matrix, not one per character

    const rows = parse(readFileSync(csvFile, 'utf8'), { columns: true, skip_empty_lines: true }) as Array<
      Record<string, string>
    >;
    expect(Object.keys(rows[0]!)).toEqual([
      'character',
      'item id',
      'item name',
      'source',
      'slot',
      'Δ dps',
      'Δ %',
      'significant',
      'upgrade',
    ]);
    expect([...new Set(rows.map((r) => r.character))]).toEqual(characters);
    for (const r of rows) {
      expect(r.source).toBe('Rotmire');
      expect(r['item id']).toMatch(/^\d+$/);
      expect(Number.isFinite(Number(r['Δ dps']))).toBe(true);
      expect(['true', 'false']).toContain(r.significant);
      expect(r.upgrade).toBe(String(Number(r['Δ dps']) > 0 && r.significant === 'true'));
    }
    // the 5 of Rotmire's 11 items a plate Strength or mail Agility wearer can use (2 of its type, ring, neck,
    // trinket), one row each (its best slot)
    for (const c of characters) expect(rows.filter((r) => r.character === c)).toHaveLength(5);
    // every matrix cell is the CSV's Δ % of that character and item, rounded
    for (const [item, , ...cells] of matrix) {
      cells.forEach((cell, k) => {
        const row = rows.find((r) => r.character === characters[k] && r['item name'] === item);
        if (!row) return expect(cell).toBe(''); // not for this character's class (a warrior's plate, a hunter's mail)
        const pct = Number(row['Δ %']);
        expect(cell).toBe(`${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct).toFixed(2)}%`);
      });
    }
    const md = readFileSync(mdFile, 'utf8');
    expect(md).toContain('## simjob droptimizer: 3 characters');
    expect(md).toContain(`| Item | Source | ${characters.join(' | ')} |`);
  });

  it('--json prints one document: each character with its answer, and the rows the CSV has', async () => {
    const env = fresh();
    const done = await run(
      env,
      ['droptimizer', FURY_BARE, HUNTER, '--instance', 'Sporefall', '--local', '--wait', '--json'],
      90_000,
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const roster = json(done);
    expect(roster.characters.map((c: { character: string }) => c.character)).toEqual(['Examplewar', 'Sørtbek']);
    for (const c of roster.characters)
      expect(c.answer.bySource.map((s: { source: string }) => s.source)).toEqual(['Rotmire']);
    expect(roster.rows).toHaveLength(10);
    expect(roster.rows[0]).toEqual(
      expect.objectContaining({ character: 'Examplewar', source: 'Rotmire', itemId: expect.any(Number) }),
    );
  });
});

describe('simjob droptimizer on the service', () => {
  let server: TestServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startServer({ queueMs: 50, runMs: 300 });
    env = userEnv(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it("submits one multistage job marked kind=droptimizer through submit's path; --json carries the answer", async () => {
    const done = await simjob(
      [
        'droptimizer',
        FURY,
        '--instance',
        'Sporefall',
        '--difficulty',
        'mythic',
        '--channel',
        'nightly',
        '--wait',
        '--json',
        '--meta',
        'run=7',
      ],
      { env, timeoutMs: 60_000 },
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const record = JSON.parse(done.stdout);
    const job = server.jobs.get(record.id);
    expect(job?.submission.metadata).toEqual({ run: '7', kind: 'droptimizer' });
    expect(job?.submission.multiStage).toBe(true);
    expect(job?.inputText).toContain(
      'profileset."Putrid Tender\'s Battleplate (298) from Rotmire in chest"+=chest=,id=268285,bonus_id=13335/13786,enchant_id=7987',
    );
    expect(job?.inputText).not.toContain('id=268284,'); // Mycomancer's Rot Robes: cloth, not for a warrior
    expect(record.droptimizer.bySource.map((s: { source: string }) => s.source)).toEqual(['Rotmire']);
  });

  it('a roster is a batch of one job per character, each marked; bad input sends nothing', async () => {
    const done = await simjob(
      [
        'droptimizer',
        FURY,
        HUNTER,
        '--instance',
        'Sporefall',
        '--channel',
        'nightly',
        '--wait',
        '--json',
        '--concurrency',
        '2',
      ],
      { env, timeoutMs: 60_000 },
    );
    expect(done.exitCode, done.stderr).toBe(0);
    const roster = JSON.parse(done.stdout);
    expect(roster.characters.map((c: { character: string; state: string }) => [c.character, c.state])).toEqual([
      ['Examplewar', 'completed'],
      ['Sørtbek', 'completed'],
    ]);
    for (const c of roster.characters)
      expect(server.jobs.get(c.id)?.submission.metadata).toMatchObject({ kind: 'droptimizer' });

    const before = server.requests.length;
    const bad = await simjob(['droptimizer', FURY, '--instance', 'Nowhere', '--channel', 'nightly', '--wait'], { env });
    expect(bad.exitCode).toBe(2);
    expect(server.requests.length).toBe(before);
  });
});
