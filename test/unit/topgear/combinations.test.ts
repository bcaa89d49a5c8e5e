/**
 * The combination rules, each against an independent brute force: every ordered assignment of candidates to the 16
 * gear slots, filtered by the rules as a player states them, then made unordered by a canonical key. The builder
 * under test works differently (unordered pairs i < j, closed-form counts), so agreement means something.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAddonExport, type AddonExport } from '../../../src/domain/addon/export.js';
import type { AddonItem, Slot } from '../../../src/domain/addon/items.js';
import { combinations, planTopGear } from '../../../src/domain/topgear/combinations.js';
import { GROUP_NAMES, parseSlots, type Group } from '../../../src/domain/topgear/groups.js';
import { suggestSlots } from '../../../src/domain/topgear/limit.js';
import { combinationName } from '../../../src/domain/topgear/names.js';
import { topGearProfile } from '../../../src/domain/topgear/profile.js';
import { analyzeProfile } from '../../../src/domain/profile/index.js';
import { ADDON_FIXTURES_DIR } from '../../helpers/shared.js';

const fixture = (name: string) => parseAddonExport(readFileSync(resolve(ADDON_FIXTURES_DIR, name), 'utf8'));
const FURY = fixture('fury-bags-vault.txt');
const HUNTER = fixture('topgear-high-spread-sortbek-bm-gear.simc');

const GROUP_OF: Record<string, Group> = {
  head: 'head',
  neck: 'neck',
  shoulder: 'shoulder',
  back: 'back',
  chest: 'chest',
  wrist: 'wrist',
  hands: 'hands',
  waist: 'waist',
  legs: 'legs',
  feet: 'feet',
  finger1: 'finger',
  finger2: 'finger',
  trinket1: 'trinket',
  trinket2: 'trinket',
  main_hand: 'weapon',
  off_hand: 'weapon',
};
const FITS: Record<string, string[]> = {
  finger1: ['finger1', 'finger2'],
  finger2: ['finger1', 'finger2'],
  trinket1: ['trinket1', 'trinket2'],
  trinket2: ['trinket1', 'trinket2'],
};

/** The brute force: count distinct gear sets a player could wear under the rules, varying only `groups`. */
function bruteForce(exp: AddonExport, groups: readonly Group[] = GROUP_NAMES): number {
  const slots = Object.keys(GROUP_OF) as Slot[];
  const options: Array<Array<AddonItem | null>> = slots.map((slot) => {
    const worn = exp.equipped[slot] ?? null;
    if (!groups.includes(GROUP_OF[slot] as Group)) return [worn];
    if (slot === 'off_hand' && !worn) return [null]; // nothing in the off hand: main hand alone
    const offered = [...exp.bags, ...exp.vault].filter((i) => (FITS[i.slot] ?? [i.slot]).includes(slot));
    const all = [worn, ...offered].filter((i, k) => i !== null || k === 0);
    return all.filter((i, k) => i === null || all.findIndex((j) => j?.options === i.options) === k); // same line = same item
  });
  const seen = new Set<string>();
  const pick: Array<AddonItem | null> = [];
  const at = (slot: Slot) => pick[slots.indexOf(slot)];
  const walk = (k: number): void => {
    if (k === slots.length) {
      if (pick.filter((i) => i?.source === 'vault').length > 1) return;
      for (const [a, b] of [
        ['finger1', 'finger2'],
        ['trinket1', 'trinket2'],
      ] as const) {
        const [x, y] = [at(a), at(b)];
        const asWorn = x === exp.equipped[a] && y === exp.equipped[b];
        if (x && y && !asWorn && (x === y || x.id === y.id)) return;
      }
      const key = slots.map((s, i) => (/[12]$/.test(s) ? '' : `${s}:${pick[i]?.options}`));
      key.push(
        [at('finger1')?.options, at('finger2')?.options].sort().join('+'),
        [at('trinket1')?.options, at('trinket2')?.options].sort().join('+'),
      );
      seen.add(key.join('|'));
      return;
    }
    for (const item of options[k] as Array<AddonItem | null>) {
      pick[k] = item;
      walk(k + 1);
    }
  };
  walk(0);
  return seen.size;
}

describe('combination counts follow the rules (checked by brute force)', () => {
  it('--slots trinket on fury-bags-vault.txt: 9 combinations, 8 profilesets', () => {
    const plan = planTopGear(FURY, { slots: ['trinket'] });
    expect(plan.count).toBe(9);
    expect(bruteForce(FURY, ['trinket'])).toBe(9);
    expect(topGearProfile(FURY, plan, 'x').names).toHaveLength(8);
  });

  it.each(GROUP_NAMES)('each slot group alone: %s', (group) => {
    for (const exp of [FURY, HUNTER]) {
      const plan = planTopGear(exp, { slots: [group] });
      expect(plan.count).toBe(bruteForce(exp, [group]));
      expect([...combinations(plan)]).toHaveLength(plan.count);
    }
  });

  it('the whole export, every slot group at once', () => {
    expect(planTopGear(FURY).count).toBe(bruteForce(FURY));
    expect(planTopGear(FURY).count).toBe(744);
    expect(planTopGear(HUNTER).count).toBe(bruteForce(HUNTER));
    expect([...combinations(planTopGear(FURY))]).toHaveLength(744);
  });

  it('an export with nothing in the bags or the vault has only the equipped set', () => {
    expect(planTopGear(fixture('fury-equipped-only.txt')).count).toBe(1);
  });
});

describe('the rules, one by one', () => {
  const trinkets = [...combinations(planTopGear(FURY, { slots: ['trinket'] }))];

  it('trinket pairs are unordered: {A, B} once, never also {B, A}', () => {
    const pairs = trinkets.map((c) => {
      const worn = { trinket1: FURY.equipped.trinket1?.options, trinket2: FURY.equipped.trinket2?.options };
      for (const ch of c.changes) worn[ch.slot as 'trinket1'] = ch.candidate.item.options;
      return [worn.trinket1, worn.trinket2].sort().join('+');
    });
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('the two items of a pair never share an item id (the vault Heart of Ancient Hunger never joins the worn one)', () => {
    for (const c of trinkets) {
      const worn: Record<string, number | undefined> = {
        trinket1: FURY.equipped.trinket1?.id,
        trinket2: FURY.equipped.trinket2?.id,
      };
      for (const ch of c.changes) worn[ch.slot] = ch.candidate.item.id;
      expect(worn.trinket1).not.toBe(worn.trinket2);
    }
    expect(planTopGear(FURY, { slots: ['trinket'] }).leftOut).toContain('1 trinket pair sharing an item id');
  });

  it('an item that stays is kept in the slot it is worn in, so a profileset changes one slot where one is enough', () => {
    const single = trinkets.filter((c) => c.changes.length === 1).map((c) => combinationName(c));
    expect(single).toContain("Vaelgor's Final Stare (282) in trinket2"); // replaces trinket2, keeps trinket1
    expect(single).toContain("Vaelgor's Final Stare (282) in trinket1");
  });

  it('an item line listed twice (same id, bonus ids, gems) counts once', () => {
    const twice = { ...FURY, bags: [...FURY.bags, { ...FURY.bags[0]!, line: 999 }] };
    expect(planTopGear(twice, { slots: ['trinket'] }).count).toBe(9);
    expect(planTopGear(twice, { slots: ['trinket'] }).leftOut).toContain('1 item listed twice (the same item line)');
  });

  it('at most one Great Vault item in a combination', () => {
    for (const c of combinations(planTopGear(FURY)))
      expect(c.changes.filter((ch) => ch.candidate.item.source === 'vault').length).toBeLessThanOrEqual(1);
    expect(planTopGear(FURY).leftOut).toContain('408 combinations with more than one vault item (the vault gives one)');
  });

  it('weapons: every main_hand candidate with every off_hand candidate', () => {
    const withOffhand = {
      ...FURY,
      bags: [
        ...FURY.bags,
        { ...FURY.equipped.off_hand!, source: 'bag' as const, options: ',id=1234', id: 1234, name: 'Spare Axe' },
      ],
    };
    expect(planTopGear(withOffhand, { slots: ['weapon'] }).count).toBe(2 * 2);
  });

  it('weapons: main_hand candidates alone when nothing is in the off hand', () => {
    const plan = planTopGear(HUNTER, { slots: ['weapon'] });
    expect(plan.count).toBe(1);
    const bow = {
      ...HUNTER.equipped.main_hand!,
      source: 'bag' as const,
      options: ',id=999',
      id: 999,
      name: 'Spare Bow',
    };
    const shield = { ...bow, slot: 'off_hand' as const, options: ',id=998', id: 998, name: 'Shield' };
    const more = planTopGear({ ...HUNTER, bags: [bow, shield] }, { slots: ['weapon'] });
    expect(more.count).toBe(2);
    expect(more.leftOut).toContain('1 off-hand item (nothing is worn in the off hand: a two-hander)');
  });

  it('--slots leaves the other groups as equipped, and names them in the left-out list', () => {
    const plan = planTopGear(FURY, { slots: ['finger', 'neck'] });
    expect(plan.groups.map((g) => g.group)).toEqual(['neck', 'finger']);
    expect(plan.leftOut[0]).toBe('6 items in slots --slots leaves as equipped'); // 2 trinkets, a sword, a helm; a belt and a trinket of the vault
    expect(parseSlots('rings,trinket1,Weapons')).toEqual(['finger', 'trinket', 'weapon']);
    expect(() => parseSlots('hat')).toThrow(
      '--slots: "hat" is not a slot group; use any of head,neck,shoulder,back,chest,wrist,hands,waist,legs,feet,finger,trinket,weapon.',
    );
  });

  it('--talents all crosses every combination with every saved loadout that differs from the active talents', () => {
    const plan = planTopGear(FURY, { slots: ['trinket'], talents: 'all' });
    expect(plan.count).toBe(9 * 3);
    const same = { ...FURY, loadouts: [{ name: 'Copy', talents: FURY.talents! }, ...FURY.loadouts] };
    expect(planTopGear(same, { slots: ['trinket'], talents: 'all' }).count).toBe(27);
    const profile = topGearProfile(FURY, plan, 'x');
    expect(profile.names).toContain('talents Raid ST');
    expect(profile.text).toContain(`profileset."talents M+ AoE"+=talents=${FURY.loadouts[1]?.talents}`);
  });

  it('--max-combos: the --slots suggestion is the largest count under the limit', () => {
    const plan = planTopGear(FURY);
    const s = suggestSlots(plan, 100);
    expect(s).not.toBeNull();
    expect(s!.count).toBe(bruteForce(FURY, s!.slots));
    expect(s!.count).toBeLessThanOrEqual(100);
    // No other subset of the varying groups gets closer to 100 from below.
    const varying = plan.groups.map((g) => g.group);
    for (let mask = 1; mask < 1 << varying.length; mask++) {
      const n = bruteForce(
        FURY,
        varying.filter((_, i) => mask & (1 << i)),
      );
      if (n <= 100) expect(n).toBeLessThanOrEqual(s!.count);
    }
  });
});

describe('the generated profile', () => {
  const plan = planTopGear(FURY);
  const profile = topGearProfile(FURY, plan, 'fury-bags-vault.txt');
  const analysis = analyzeProfile(profile.text);

  it('is the equipped set as the one actor, and one profileset per other combination, each named uniquely', () => {
    expect(analysis.actors.map((a) => a.name)).toEqual(['Examplewar']);
    expect(analysis.profilesets).toHaveLength(743);
    expect(new Set(analysis.profilesets.map((p) => p.name)).size).toBe(743);
    expect(analysis.profilesets.map((p) => p.name)).toEqual(profile.names);
    expect(analysis.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('each profileset sets only the slots it changes, with the item line as the addon wrote it', () => {
    const set = analysis.profilesets.find((p) => p.name === "Vaelgor's Final Stare (282) in trinket2");
    expect(set?.options.map((o) => o.option)).toEqual(['trinket2=,id=249346,bonus_id=12806/13577']);
    for (const p of analysis.profilesets)
      expect(p.options.length).toBe(p.name.match(/ in [a-z_0-9]+(?=, |$)/g)?.length);
  });

  it('names say what each swaps in, vault items marked, and hold no character simc would misread', () => {
    expect(profile.names).toContain('Heart of Ancient Hunger (298, vault) in trinket2');
    for (const name of profile.names) expect(name).not.toMatch(/["=.$\n]/);
  });

  it('names stay simc-safe and unique when item names are not', () => {
    const odd = {
      ...FURY,
      bags: [
        { ...FURY.bags[0]!, name: 'Dr. "Boom" = $(x)', options: ',id=111', id: 111 },
        { ...FURY.bags[0]!, name: 'Dr. "Boom" = $(x)', options: ',id=112', id: 112 },
      ],
    };
    const names = topGearProfile(odd, planTopGear(odd, { slots: ['trinket'] }), 'x').names;
    expect(names).toContain("Dr 'Boom' - (x) (282) in trinket2");
    expect(names).toContain("Dr 'Boom' - (x) (282) #2 in trinket2");
    expect(new Set(names).size).toBe(names.length);
  });
});
