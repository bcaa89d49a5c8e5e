import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adler32, checkChecksum } from '../../../src/domain/addon/checksum.js';
import { ExportError, parseAddonExport } from '../../../src/domain/addon/export.js';
import { ADDON_FIXTURES_DIR } from '../../helpers/shared.js';

const fixture = (name: string) => readFileSync(resolve(ADDON_FIXTURES_DIR, name), 'utf8');
const FURY = fixture('fury-bags-vault.txt');

function problem(text: string): string {
  try {
    parseAddonExport(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ExportError);
    return (error as Error).message;
  }
  throw new Error('no error');
}

describe('reading the addon export', () => {
  it('reads the character, talents, loadouts, equipped, bag and vault items of fury-bags-vault.txt', () => {
    const exp = parseAddonExport(FURY);
    expect([exp.className, exp.characterName, exp.spec]).toEqual(['warrior', 'Examplewar', 'fury']);
    expect(exp.talents).toMatch(/^CgEAAA.*YA$/);
    expect(exp.loadouts.map((l) => l.name)).toEqual(['Raid ST', 'M+ AoE']);
    expect(Object.keys(exp.equipped)).toHaveLength(16);
    expect(exp.equipped.trinket2).toMatchObject({
      id: 249342,
      name: 'Heart of Ancient Hunger',
      ilvl: 289,
      source: 'equipped',
    });
    expect(exp.bags.map((i) => [i.slot, i.name, i.ilvl])).toEqual([
      ['trinket1', "Vaelgor's Final Stare", 282],
      ['trinket1', 'Alnhara Lantern', 285],
      ['finger1', "Sin'dorei Band of Hope", 282],
      ['finger1', 'Eye of Midnight', 276],
      ['neck', 'Amulet of the Abyssal Hymn', 282],
      ['main_hand', "Skybreaker's Blade", 289],
      ['head', "Voidbreaker's Veil", 289],
    ]);
    expect(exp.vault.map((i) => [i.slot, i.id, i.ilvl])).toEqual([
      ['trinket1', 249342, 298],
      ['waist', 249949, 298],
      ['finger1', 193708, 298],
    ]);
    expect(exp.checksum.state).toBe('valid');
    expect(exp.warnings).toEqual([]);
  });

  it('keeps the export as a simc profile without the commented candidates', () => {
    const baseline = parseAddonExport(FURY).baseline.join('\n');
    expect(baseline).toContain('warrior="Examplewar"');
    expect(baseline).toContain("# Night Ender's Tusks (289)\nhead=,id=249952");
    expect(baseline).not.toContain('249346'); // a bag trinket
    expect(baseline).not.toContain('Saved Loadout');
  });

  it("an upgrade comment between an item's name and its line does not rename it", () => {
    const exp = parseAddonExport(
      FURY.replace("# Night Ender's Tusks (289)\n", "# Night Ender's Tusks (289)\n# Upgrade Level: Hero 6/6 (289)\n"),
    );
    expect(exp.equipped.head?.name).toBe("Night Ender's Tusks");
  });

  it('reads a real export without a checksum line or vault (the BM hunter fixture)', () => {
    const exp = parseAddonExport(fixture('topgear-high-spread-sortbek-bm-gear.simc'));
    expect([exp.className, exp.characterName]).toEqual(['hunter', 'Sørtbek']);
    expect(exp.equipped.off_hand).toBeUndefined();
    expect(exp.bags).toHaveLength(22);
    expect(exp.checksum.state).toBe('missing');
  });

  it('the checksum is Adler-32 of the text before its line, in hex without leading zeros', () => {
    expect(adler32(Buffer.from('Wikipedia'))).toBe(0x11e60398);
    const cut = FURY.indexOf('# Checksum:');
    expect(adler32(Buffer.from(FURY.slice(0, cut))).toString(16)).toBe('bbcf9e9d');
    expect(checkChecksum(FURY.replace(/\n/g, '\r\n')).state).toBe('valid'); // a paste through Windows line endings
  });

  it('an edited export (checksum mismatch) is a warning, not an error', () => {
    const exp = parseAddonExport(FURY.replace('level=90', 'level=80'));
    expect(exp.checksum.state).toBe('mismatch');
    expect(exp.warnings).toEqual([
      expect.stringMatching(/^The export's checksum \(bbcf9e9d\) does not match its text \([0-9a-f]+\): it was edited/),
    ]);
  });

  it('no class line is an error', () => {
    expect(problem(FURY.replace('warrior="Examplewar"\n', ''))).toMatch(
      /^Line \d+: "level=90" comes before the class line/,
    );
    expect(problem('# just a comment\n')).toBe(
      'The export has no class line (e.g. warrior="Name"): it is not a /simc export.',
    );
  });

  it('no item lines is an error', () => {
    const noGear = FURY.split('\n')
      .filter((l) => !/^[a-z_0-9]+=,id=/.test(l))
      .join('\n');
    expect(problem(noGear)).toBe('The export has no equipped item lines (head=,id=…): the paste is incomplete.');
  });

  it('an item line simc cannot read is an error naming its line', () => {
    expect(problem(FURY.replace('head=,id=249952', 'head=id=249952'))).toMatch(
      /^Line 24: simc cannot read this head item: it should start with "=,id="/,
    );
    expect(problem(FURY.replace('neck=,id=250247', 'neck=,id=25x0247'))).toMatch(
      /^Line 26: simc cannot read this neck item: id=25x0247 is not a number list/,
    );
    expect(
      problem(FURY.replace('# trinket1=,id=249346,bonus_id=12806/13577', '# trinket1=,bonus_id=12806/13577')),
    ).toMatch(/^Line 59: simc cannot read this trinket1 item: it has no id=/);
  });

  it('a truncated paste is an error', () => {
    const lines = FURY.split('\n');
    const cutAt = (text: string) => lines.slice(0, lines.findIndex((l) => l.startsWith(text)) + 1).join('\n');
    // Cut inside an item line.
    expect(problem(`${cutAt('head=,id=')}\n# Amulet of the Abyssal Hymn (289)\nneck=,id=250247,gem_id=`)).toMatch(
      /simc cannot read this neck item: "gem_id=" is not key=value \(the paste looks cut short\)/,
    );
    // Cut after an item's name.
    expect(problem(cutAt('# Vaelgor'))).toMatch(
      /ends with an item name \(line 58\) but not its item line: the paste was cut short/,
    );
    // Cut inside the vault.
    expect(problem(cutAt('# waist=,id=249949,bonus_id=12806/13336'))).toMatch(
      /^Line 85: the paste ends in this item line, "# waist=.*: it was cut short/,
    );
    expect(problem(`${cutAt('# waist=,id=249949,bonus_id=12806/13336')}\n#\n`)).toBe(
      'The export ends inside "### Weekly Reward Choices": the paste was cut short.',
    );
    // Cut before the checksum.
    expect(problem(cutAt('# bonus_roll_currencies'))).toBe(
      'The export has no "# Checksum:" line after its character info: the paste was cut short.',
    );
  });
});
