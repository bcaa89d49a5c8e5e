/**
 * Counting before building (issue 41): planTopGear counts every group's choices in closed form and builds none;
 * combinations() builds them only when asked. For random exports (rings, trinkets and weapons sharing item ids, in
 * the bags, the vault and worn, with a slot left empty) the count must be what is built, and a hoard of bag trinkets
 * is counted without a pair being made.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAddonExport } from '../../../src/domain/addon/export.js';
import { combinations, planTopGear } from '../../../src/domain/topgear/combinations.js';
import { ADDON_FIXTURES_DIR } from '../../helpers/shared.js';

const FURY = readFileSync(resolve(ADDON_FIXTURES_DIR, 'fury-bags-vault.txt'), 'utf8');
const at = FURY.indexOf('### Gear from Bags');
const character = FURY.slice(0, at);

interface Extra {
  slot: 'finger1' | 'trinket1' | 'main_hand' | 'off_hand';
  id: number;
  bonus: number;
  vault: boolean;
}

const extra: fc.Arbitrary<Extra> = fc.record({
  slot: fc.constantFrom('finger1', 'trinket1', 'main_hand', 'off_hand'),
  id: fc.integer({ min: 1, max: 4 }),
  bonus: fc.integer({ min: 1, max: 3 }),
  vault: fc.boolean(),
});

/** The Fury character with some worn slots emptied, and these items in its bags and vault. */
function exportWith(items: Extra[], empty: string[]): string {
  let head = character;
  for (const slot of empty) head = head.replace(new RegExp(`^${slot}=.*$`, 'm'), `${slot}=`);
  const line = (i: Extra) => `#\n# ${i.slot}=,id=${900000 + i.id},bonus_id=${i.bonus}\n`;
  const bags = items.filter((i) => !i.vault).map(line);
  const vault = items.filter((i) => i.vault).map(line);
  return (
    `${head}### Gear from Bags\n${bags.join('')}\n` +
    `### Weekly Reward Choices\n${vault.join('')}#\n### End of Weekly Reward Choices\n`
  );
}

describe('the count is what is built', () => {
  it('for random rings, trinkets and weapons in the bags and the vault', () => {
    fc.assert(
      fc.property(
        fc.array(extra, { maxLength: 14 }),
        fc.subarray(['finger2', 'trinket2', 'off_hand', 'main_hand']),
        fc.constantFrom(['finger'], ['trinket'], ['weapon'], ['finger', 'trinket', 'weapon']),
        (items, empty, slots) => {
          const plan = planTopGear(parseAddonExport(exportWith(items, empty)), {
            slots: [...slots],
          });
          const built = [...combinations(plan)];
          expect(built).toHaveLength(plan.count);
          expect(built.filter((c) => c.changes.length === 0)).toHaveLength(1); // the equipped set, once
          for (const c of built) {
            const vault = c.changes.filter((ch) => ch.candidate.item.source === 'vault').length;
            expect(vault).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('a hoard is counted, not built', () => {
  it('5,000 bag trinkets: 12.5 million pairs counted, none made until asked', () => {
    const hoard = Array.from({ length: 5000 }, (_, i) => ({
      slot: 'trinket1' as const,
      id: 1000 + i,
      bonus: 1,
      vault: false,
    }));
    const plan = planTopGear(parseAddonExport(exportWith(hoard, [])), { slots: ['trinket'] });
    const trinkets = plan.groups.find((g) => g.group === 'trinket')!;
    // The worn pair, and each of the 5,000 with each other or with either worn trinket: C(5,002, 2) pairs.
    expect(trinkets.counts).toEqual([(5002 * 5001) / 2, 0]);
    expect(plan.count).toBe((5002 * 5001) / 2);
  });
});
