/**
 * Every export the current addon writes, read whole: the real exports of test/fixtures/addon and variants built from
 * them the way players get them (offspec loadouts ticked, saved with a byte-order mark, through Windows line
 * endings). Counts are checked against a brute force that reads the text on its own (nothing from src/ but the
 * function under test), so an item the parser drops shows up as a different count.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExportError, parseAddonExport } from '../../../src/domain/addon/export.js';
import { planTopGear } from '../../../src/domain/topgear/combinations.js';
import { topGearProfile } from '../../../src/domain/topgear/profile.js';
import { REPO_ROOT } from '../../helpers/shared.js';

const fixture = (name: string) => readFileSync(resolve(REPO_ROOT, 'test', 'fixtures', 'addon', name), 'utf8');
const FURY = fixture('fury-bags-vault.txt');
const HUNTER = fixture('topgear-high-spread-sortbek-bm-gear.simc');

/** Adler-32, written out from its definition (RFC 1950 §8.2). */
function adler(text: string): string {
  let a = 1;
  let b = 0;
  for (const byte of Buffer.from(text, 'utf8')) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return (b * 65536 + a).toString(16);
}

/** The export with its checksum line made right again, as the addon would write it for this text. */
function rechecksummed(text: string): string {
  const at = text.indexOf('# Checksum:');
  return `${text.slice(0, at)}# Checksum: ${adler(text.slice(0, at))}`;
}

/** Offspec loadouts ticked in the addon's options: two sections after the saved loadouts, then a trait string. */
function withOffspec(text: string): string {
  const block = [
    '',
    '### Offspec Loadouts: Arms',
    '# Offspec Loadout: Arms ST',
    '# offspec_talents=CkEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgGDjArms',
    '# Offspec Loadout: Arms AoE',
    '# offspec_talents=CkEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgGDjArm2',
    '',
    '### Offspec Loadouts: Protection',
    '# Offspec Loadout: Prot',
    '# offspec_talents=CkEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAgGDjProt',
    '',
    'omnium_talents=101:1/102:2',
  ].join('\n');
  const at = text.indexOf('\n', text.lastIndexOf('# talents=', text.indexOf('\nhead=')));
  return rechecksummed(`${text.slice(0, at)}\n${block}${text.slice(at)}`);
}

const SLOTS = [
  'head',
  'neck',
  'shoulder',
  'back',
  'chest',
  'wrist',
  'hands',
  'waist',
  'legs',
  'feet',
  'finger1',
  'finger2',
  'trinket1',
  'trinket2',
  'main_hand',
  'off_hand',
];
const PAIRS = [
  ['finger1', 'finger2'],
  ['trinket1', 'trinket2'],
];
const FITS: Record<string, string[]> = { finger1: ['finger1', 'finger2'], trinket1: ['trinket1', 'trinket2'] };

interface Item {
  line: string;
  id: string;
  vault: boolean;
}

/** The gear of an export, read with nothing but its layout: uncommented item lines, and `# slot=,id=` under ###. */
function readGear(text: string): { worn: Map<string, Item>; offered: Array<Item & { slot: string }> } {
  const worn = new Map<string, Item>();
  const offered: Array<Item & { slot: string }> = [];
  let section = '';
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (raw.startsWith('###')) section = raw;
    const uncommented = /^([a-z_0-9]+)=(,id=(\d+)\S*)$/.exec(raw);
    if (uncommented && SLOTS.includes(uncommented[1]!))
      worn.set(uncommented[1]!, { line: uncommented[2]!, id: uncommented[3]!, vault: false });
    const commented = /^# ([a-z_0-9]+)=(,id=(\d+)\S*)$/.exec(raw);
    if (commented && /Gear from Bags|Weekly Reward Choices/.test(section)) {
      offered.push({ slot: commented[1]!, line: commented[2]!, id: commented[3]!, vault: section.includes('Weekly') });
    }
  }
  return { worn, offered };
}

/** Every gear set a player could wear: each slot its worn item or an item that fits it, under the game's rules. */
function bruteForceCount(text: string): number {
  const { worn, offered } = readGear(text);
  const choices = SLOTS.map((slot) => {
    const own = worn.get(slot);
    if (slot === 'off_hand' && !own) return [undefined];
    const fits = offered.filter((i) => (FITS[i.slot] ?? [i.slot]).includes(slot));
    const all = [own, ...fits].filter((i, k) => i !== undefined || k === 0);
    return all.filter((i, k) => i === undefined || all.findIndex((j) => j?.line === i.line) === k);
  });
  const sets = new Set<string>();
  const pick: Array<Item | undefined> = [];
  const walk = (k: number): void => {
    if (k === SLOTS.length) {
      if (pick.filter((i) => i?.vault).length > 1) return;
      for (const [a, b] of PAIRS) {
        const [x, y] = [pick[SLOTS.indexOf(a!)], pick[SLOTS.indexOf(b!)]];
        const asWorn = x === worn.get(a!) && y === worn.get(b!);
        if (x && y && !asWorn && x.id === y.id) return;
      }
      const key = SLOTS.map((s, i) => (/[12]$/.test(s) ? '' : `${s}:${pick[i]?.line}`));
      for (const [a, b] of PAIRS)
        key.push([pick[SLOTS.indexOf(a!)]?.line, pick[SLOTS.indexOf(b!)]?.line].sort().join('+'));
      sets.add(key.join('|'));
      return;
    }
    for (const item of choices[k]!) {
      pick[k] = item;
      walk(k + 1);
    }
  };
  walk(0);
  return sets.size;
}

function problem(text: string): string {
  try {
    parseAddonExport(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ExportError);
    return (error as Error).message;
  }
  throw new Error('no error');
}

const VARIANTS: Array<[string, string, number | null]> = [];
for (const [name, text, whole] of [
  ['fury-bags-vault', FURY, 744],
  ['sortbek BM hunter', HUNTER, null],
] as const) {
  const signed = text.includes('# Checksum:');
  const offspec = signed ? withOffspec(text) : text;
  VARIANTS.push(
    [`${name}`, text, whole],
    [`${name}, saved with a byte-order mark`, `\uFEFF${text}`, whole],
    [`${name}, through Windows line endings`, text.replace(/\n/g, '\r\n'), whole],
  );
  if (signed) {
    VARIANTS.push(
      [`${name} with offspec loadouts`, offspec, whole],
      [`${name} with offspec loadouts, BOM and CRLF`, `\uFEFF${offspec.replace(/\n/g, '\r\n')}`, whole],
    );
  }
}

describe("every export the addon writes gives the brute force's count", () => {
  it.each(VARIANTS)('%s', (_name, text, whole) => {
    const exp = parseAddonExport(text);
    const count = planTopGear(exp).count;
    expect(count).toBe(bruteForceCount(text));
    if (whole !== null) expect(count).toBe(whole);
    const signed = text.includes('# Checksum:');
    // No false checksum warning: a signed export is valid however it was saved; an unsigned one says only that.
    expect(exp.checksum.state).toBe(signed ? 'valid' : 'missing');
    expect(exp.warnings.filter((w) => /checksum/i.test(w))).toHaveLength(signed ? 0 : 1);
    expect(exp.leftOut).toEqual([]);
  });

  it('the brute force sees what the parser sees: it counts more when the bags hold more', () => {
    const extra = FURY.replace(
      '### Weekly Reward Choices',
      '#\n# Spare Veil (280)\n# head=,id=250061,bonus_id=1\n\n### Weekly Reward Choices',
    );
    expect(bruteForceCount(extra)).toBeGreaterThan(bruteForceCount(FURY));
    expect(planTopGear(parseAddonExport(extra)).count).toBe(bruteForceCount(extra));
  });
});

describe('offspec loadouts', () => {
  const exp = parseAddonExport(withOffspec(FURY));

  it('are read as loadouts of their spec, never of the active one; the gear after them is equipped', () => {
    expect(exp.loadouts.map((l) => l.name)).toEqual(['Raid ST', 'M+ AoE']);
    expect(exp.offspecLoadouts.map((l) => [l.spec, l.name])).toEqual([
      ['Arms', 'Arms ST'],
      ['Arms', 'Arms AoE'],
      ['Protection', 'Prot'],
    ]);
    expect(Object.keys(exp.equipped)).toHaveLength(16);
    expect(exp.warnings).toEqual([]);
  });

  it('stay out of the profile; the trait string after them stays in', () => {
    const text = topGearProfile(exp, planTopGear(exp, { slots: ['trinket'] }), 'x').text;
    expect(text).not.toContain('offspec_talents');
    expect(text).toContain('\nomnium_talents=101:1/102:2\n');
    expect(planTopGear(exp, { talents: 'all' }).loadouts).toHaveLength(3); // active + the 2 fury loadouts
  });
});

describe('a paste cut short, or a line simc could not read, is an error naming the line', () => {
  const head = (n: number) => FURY.split('\n').slice(0, n).join('\n');

  it('a bag line cut inside its id (item 250 is not item 250247) stops the run', () => {
    const cut = `${head(70)}\n# neck=,id=250`;
    expect(problem(cut)).toBe(
      'Line 71: the paste ends in this item line, "# neck=,id=250", with no "# Checksum:" line after it: it was cut short, maybe inside the line.',
    );
  });

  it('an equipped line cut at its end, in an addon export without its checksum, stops the run', () => {
    expect(problem(head(40))).toMatch(/^Line 40: the paste ends in this item line, "legs=,id=249951,/);
  });

  it('a bag or vault line with something after the item is an error, never dropped', () => {
    const trailing = FURY.replace(
      '# trinket1=,id=245769,bonus_id=8791/8960/12214/12693',
      '# trinket1=,id=245769,bonus_id=8791/8960/12214/12693 json2=/tmp/x',
    );
    expect(problem(trailing)).toBe('Line 62: simc cannot read this trinket1 item: it contains a space.');
    const tab = FURY.replace(
      '# waist=,id=249949,bonus_id=12806/13336',
      '# waist=,id=249949,bonus_id=12806/13336\thtml=/tmp/x',
    );
    expect(problem(tab)).toMatch(/^Line 85: simc cannot read this waist item: it contains a space/);
    expect(problem(FURY.replace('# neck=,id=250247,gem_id', '# nek=,id=250247,gem_id'))).toBe(
      'Line 71: "nek" is not a gear slot.',
    );
  });
});

describe('the profile carries only what describes the character', () => {
  const added = FURY.replace(
    'spec=fury\n',
    'spec=fury\nhtml=/tmp/out.html\njson2=/tmp/out.json\nthreads=64\niterations=1\noutput=/tmp/o.txt\nsave=/tmp/s.simc\nlocal_json=x\narmory=us,illidan,x\n',
  );
  const exp = parseAddonExport(added);

  it('leaves out option lines that write files or change the sim, and names each one', () => {
    expect(exp.leftOut.map((l) => l.text)).toEqual([
      'html=/tmp/out.html',
      'json2=/tmp/out.json',
      'threads=64',
      'iterations=1',
      'output=/tmp/o.txt',
      'save=/tmp/s.simc',
      'local_json=x',
      'armory=us,illidan,x',
    ]);
    const text = topGearProfile(exp, planTopGear(exp, { slots: ['trinket'] }), 'x').text;
    for (const key of ['html=', 'json2=', 'threads=', 'iterations=', 'output=', 'save=', 'local_json=', 'armory='])
      expect(text).not.toContain(`\n${key}`);
    expect(exp.warnings).toContainEqual(
      expect.stringMatching(
        /^Left out of the profile, as not part of the character .*: line 14 "html=\/tmp\/out.html", line 15 "json2=\/tmp\/out.json", /,
      ),
    );
  });

  it('keeps the character: class, level, race, region, server, role, professions, spec, talents, gear', () => {
    const text = exp.baseline.join('\n');
    for (const line of [
      'warrior="Examplewar"',
      'level=90',
      'race=pandaren',
      'region=eu',
      'server=silvermoon',
      'role=attack',
      'professions=blacksmithing=100/mining=100',
      'spec=fury',
      'talents=',
      'head=,id=249952',
    ]) {
      expect(text).toContain(line);
    }
  });

  it('a character line that simc would split at a space is an error', () => {
    expect(problem(FURY.replace('spec=fury\n', 'spec=fury json2=/tmp/x\n'))).toBe(
      'Line 13: "spec=fury json2=/tmp/x" holds more than one option (simc splits a line at spaces).',
    );
  });
});
