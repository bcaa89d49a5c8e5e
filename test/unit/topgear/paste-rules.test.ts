/**
 * One rule for pastes (issue 41): a paste that is provably cut is refused naming the line; one that reads whole but
 * has no checksum runs with a warning; nothing is dropped in silence (a CR inside a line, a bag line simc could not
 * read, an option that is not an item option); UTF-8 and UTF-16 read alike; names from the export are made safe in
 * the profile and the profileset names; vault items are known by the vault section, named or not. Real exports from
 * test/fixtures/addon/real (SOURCES.md there), cut and edited here as players' pastes are.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../../src/core/resources/schemas.js';
import { ExportError, parseAddonExport } from '../../../src/domain/addon/export.js';
import { combinations, planTopGear } from '../../../src/domain/topgear/combinations.js';
import { topGearAnswer } from '../../../src/domain/topgear/answer.js';
import { topGearProfile } from '../../../src/domain/topgear/profile.js';
import { Output } from '../../../src/cli/output/io.js';
import { printResult } from '../../../src/cli/output/views/result.js';
import { decodeText } from '../../../src/util/read-file.js';
import { memoryStream } from '../../helpers/streams.js';
import { ADDON_FIXTURES_DIR } from '../../helpers/shared.js';

const REAL = resolve(ADDON_FIXTURES_DIR, 'real');
const real = (name: string) => readFileSync(resolve(REAL, name), 'utf8');
const DK = real('deathknight-unholy-1.txt');
const FURY = readFileSync(resolve(ADDON_FIXTURES_DIR, 'fury-bags-vault.txt'), 'utf8');
const lines = (text: string, n: number) => `${text.split('\n').slice(0, n).join('\n')}\n`;

function problem(text: string): string {
  try {
    parseAddonExport(text);
  } catch (error) {
    if (error instanceof ExportError) return error.message;
    throw error;
  }
  return 'no error';
}

describe('a paste cut short is refused, naming the line', () => {
  it('the Death Knight export cut at 90 % (inside a bag main_hand line): the three last main hands are not lost', () => {
    const cut = DK.slice(0, Math.floor(DK.length * 0.9));
    expect(cut.endsWith('# main_h')).toBe(true);
    expect(problem(cut)).toBe(
      'Line 179: the paste ends in "# main_h", which is not a whole line of the export, and has no ' +
        '"# Checksum:" line: it was cut short.',
    );
  });

  it('cut inside a name comment ("# Snapper Steppers (22") or just before the "=" of a bag item ("# main_")', () => {
    expect(problem(`${lines(DK, 135)}# Snapper Steppers (22`)).toMatch(
      /^Line 136: the paste ends in "# Snapper Steppers \(22", which is not a whole line/,
    );
    expect(problem(`${lines(DK, 184)}# main_`)).toMatch(/^Line 185: the paste ends in "# main_", which is not a whole/);
    // The same cut, with a line break after it, is as cut.
    expect(problem(`${lines(DK, 184)}# main_\n`)).toMatch(/^Line 185: the paste ends in "# main_"/);
    // An uncommented line cut before its "=".
    expect(problem(`${lines(DK, 53)}main_`)).toMatch(/^Line 54: the paste ends in "main_", which is not a whole/);
  });

  it('an item line with no line break after it may be cut inside its id: refused', () => {
    expect(problem(lines(DK, 185).trimEnd())).toMatch(/^Line 185: the paste ends in this item line, "# main_hand=/);
  });
});

describe('a paste that reads whole without its checksum runs, with one warning', () => {
  it('trimmed of its checksum, ending on a whole item line: every item is there', () => {
    const trimmed = lines(DK, 185); // the export down to its last bag item, without what follows
    const exp = parseAddonExport(trimmed);
    expect(exp.checksum.state).toBe('missing');
    expect(exp.warnings).toEqual([
      'The export has no "# Checksum:" line: it reads whole, but nothing proves that it was not cut short; ' +
        'check that every item you own is in it.',
    ]);
    expect(planTopGear(exp, { slots: ['weapon'] }).count).toBe(10); // the worn two-hander and the 9 in the bags
    expect(planTopGear(parseAddonExport(DK), { slots: ['weapon'] }).count).toBe(10);
  });

  it('a real export its publisher sanitised (no header, no checksum) reads whole', () => {
    const exp = parseAddonExport(real('shaman-enhancement-1.txt'));
    expect(exp.checksum.state).toBe('missing');
    expect(exp.bags).toHaveLength(11);
  });
});

describe('nothing from a paste is dropped in silence', () => {
  it('a bag line with a stray CR inside it is an error naming the line (it was 744 combinations, then 392)', () => {
    expect(planTopGear(parseAddonExport(FURY)).count).toBe(744);
    const cr = FURY.replace('# Vaelgor', '#\r# Vaelgor');
    expect(problem(cr)).toMatch(/^Line 58: "#\r# Vaelgor.*" holds a carriage return \(CR\) inside it/);
    // Windows line endings are line breaks, not a stray CR.
    expect(planTopGear(parseAddonExport(FURY.replace(/\n/g, '\r\n'))).count).toBe(744);
  });

  it('a line in the bags that is neither an item name nor an item line is an error', () => {
    const odd = FURY.replace('# Vaelgor', '# some note\n# Vaelgor');
    expect(problem(odd)).toBe(
      'Line 58: "# some note" in the bags is neither an item name nor an item line simc can read.',
    );
  });

  it('a checksum line right after the bags (no character info section) is not taken for a bag line', () => {
    const text = real('shaman-enhancement-1.txt').replace('### End of Gear from Bags\n', '');
    const exp = parseAddonExport(`${text}\n# Checksum: 0\n`);
    expect(exp.checksum.state).toBe('mismatch');
    expect(exp.bags).toHaveLength(11);
  });

  it('an item option simc does not have (,html=/x) is an error naming it, never copied into the profilesets', () => {
    const html = FURY.replace(
      '# trinket1=,id=249346,bonus_id=12806/13577',
      '# trinket1=,id=249346,bonus_id=12806/13577,html=/x',
    );
    expect(problem(html)).toBe('Line 59: simc cannot read this trinket1 item: "html=" is not an item option of simc.');
    const equipped = FURY.replace(/^(neck=,id=\d+)/m, '$1,output=/tmp/x');
    expect(problem(equipped)).toMatch(/^Line 26: simc cannot read this neck item: "output=" is not an item option/);
    const source = FURY.replace(/^(neck=,id=\d+)/m, '$1,source=wowhead');
    expect(problem(source)).toMatch(/"source=" would make simc fetch the item from the web/);
  });

  it("every real export reads, with simc's item options as the addon writes them (content_tuning, gem_bonus_id…)", () => {
    const names = readdirSync(REAL).filter((n) => n.endsWith('.txt'));
    expect(names.length).toBeGreaterThanOrEqual(4);
    for (const name of names) {
      const exp = parseAddonExport(real(name));
      // The count is arithmetic; the combinations built must agree with it.
      for (const group of ['trinket', 'finger', 'weapon', 'head'] as const) {
        const plan = planTopGear(exp, { slots: [group] });
        expect([...combinations(plan)], `${name} ${group}`).toHaveLength(plan.count);
      }
    }
  });
});

describe('UTF-16 and UTF-8, with or without a byte order mark, read alike', () => {
  const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const utf16be = (text: string) => {
    const le = Buffer.from(text, 'utf16le');
    for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
    return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
  };
  it('PowerShell 5.1 `>` and Out-File (UTF-16LE with BOM), UTF-16BE, Notepad UTF-8 with BOM', () => {
    const text = real('priest-holy-1.txt');
    for (const bytes of [
      Buffer.from(text),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
      utf16le(text),
      utf16be(text),
      Buffer.from(text, 'utf16le'), // no mark: the NULs say what it is
    ]) {
      expect(decodeText(bytes).text).toBe(text);
    }
    expect(parseAddonExport(decodeText(utf16le(text)).text!).checksum.state).toBe('valid');
    expect(decodeText(Buffer.from([0x61, 0xff, 0x62]))).toEqual({ text: null, badByte: 1, encoding: 'UTF-8' });
  });
});

describe('text from the export is made safe in written profiles and profileset names', () => {
  // ESC ] 0 ; (a title change), a C1 CSI, a right-to-left override, a line separator.
  const evil = FURY.replace("# Vaelgor's Final Stare (282)", '# Vaelgor\u001b]0;pwned\u0007 \u009b31m\u202e (282)')
    .replace('warrior="Examplewar"', 'warrior="Example\u001b[2Kwar"')
    .replace(/^(# Amulet[^\n]*)/m, '$1\u2028')
    .replace('spec=fury', 'spec=fury\u001b[31m')
    .replace(/^# Saved Loadout: (.*)$/m, '# Saved Loadout: $1\u2066');
  const exp = parseAddonExport(evil);
  const profile = topGearProfile(exp, planTopGear(exp, { slots: ['trinket', 'neck'] }), 'export.txt');
  const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it('the profile and every profileset name hold no raw control, C1 or bidi character', () => {
    expect([exp.characterName, exp.spec, ...exp.loadouts.map((l) => l.name)].join()).not.toMatch(UNSAFE);
    const all = topGearProfile(exp, planTopGear(exp, { slots: ['neck'], talents: 'all' }), 'x');
    for (const name of all.names) expect(name).not.toMatch(UNSAFE);
    expect(profile.text).not.toMatch(UNSAFE);
    for (const name of profile.names) expect(name).not.toMatch(UNSAFE);
    expect(profile.text).toContain('warrior="Example\\x1b[2Kwar"');
    expect(profile.names.some((n) => n.includes('Vaelgor\\x1b]0;pwned\\x07 \\x9b31m\\u202e (282) in trinket'))).toBe(
      true,
    );
  });
});

describe('vault items are known by the vault section, not by a name comment', () => {
  const text = readFileSync(resolve(ADDON_FIXTURES_DIR, 'warrior-fury-vault-unnamed.txt'), 'utf8');
  const exp = parseAddonExport(text);

  it('the unnamed vault ring is a vault candidate, and the answer gives the Great Vault line', () => {
    expect(exp.checksum.state).toBe('valid');
    expect(exp.vault.map((i) => [i.id, i.name])).toEqual([[162541, null]]);
    const { names } = topGearProfile(exp, planTopGear(exp, { slots: ['finger'] }), 'x');
    const vaultSets = names.filter((n) => n.includes('item 162541 (vault)'));
    expect(vaultSets.length).toBeGreaterThan(0);
    const rows = names.map((name, i) => ({
      name,
      mean: name.includes('(vault)') ? 51_000 + i : 50_000 + i,
      mean_error: 20,
      mean_stddev: 10,
    }));
    const record = {
      id: 'local-01m86tj19efvvza325',
      status: 'completed',
      metadata: { kind: 'topgear' },
      result: {
        summary: {
          metric: 'dps',
          mainActor: {
            name: 'Gulthrak',
            mean: 50_000,
            mean_error: 20,
            mean_stddev: 10,
            profilesets: { count: rows.length, results: rows },
          },
        },
        artifacts: [],
      },
    } as unknown as ResultRecord;
    expect(topGearAnswer(record)?.vault).toMatch(/^Great Vault: take item 162541 \(vault\) in finger[12]: /);
    expect(topGearAnswer(record)?.unchecked).toBeUndefined();
    const unchecked = { ...record, metadata: { kind: 'topgear', export: 'no-checksum' } } as ResultRecord;
    expect(topGearAnswer(unchecked)?.unchecked).toMatch(/^The export had no "# Checksum:" line: it read whole, but/);
  });
});

describe('an answer from an export without its checksum says so', () => {
  const record = (kind: string, name: string) =>
    ({
      id: 'local-01m86tj19efvvza325',
      status: 'completed',
      metadata: { kind, export: 'no-checksum' },
      result: {
        summary: {
          metric: 'dps',
          mainActor: {
            name: 'Gubulgi',
            mean: 50_000,
            mean_error: 20,
            mean_stddev: 10,
            profilesets: { count: 1, results: [{ name, mean: 51_000, mean_error: 20, mean_stddev: 10 }] },
          },
        },
        artifacts: [],
      },
    }) as unknown as ResultRecord;

  it('simjob result of a top gear job and of a droptimizer job', () => {
    for (const r of [
      record('topgear', 'Underbrush-Clearing Cleaver (237) in main_hand'),
      record('droptimizer', 'Swarmgland (289) from Boss in trinket1'),
    ]) {
      const stdout = memoryStream(false, 100);
      const out = new Output({
        stdout,
        stderr: memoryStream(false, 100),
        env: {},
        json: false,
        noColor: true,
        quiet: false,
      });
      printResult(out, r, {});
      expect(stdout.text()).toContain('The export had no "# Checksum:" line: it read whole, but nothing proved');
    }
  });
});
