/**
 * Which gear combinations a top gear run simulates (the rules are in the README, "simjob topgear"):
 * - a slot's candidates are the equipped item, the bag items for that slot and the vault items for that slot;
 * - rings and trinkets are unordered pairs of two different candidates that never share an item id;
 * - weapons: every main_hand candidate with every off_hand candidate; main_hand alone when the off hand is empty;
 * - at most one Great Vault item in a combination (the player may take only one);
 * - `--talents all` crosses every combination with every distinct saved loadout.
 */
import type { AddonExport, Loadout } from '../addon/export.js';
import type { AddonItem, Slot } from '../addon/items.js';
import { GROUPS, GROUP_NAMES, type Group } from './groups.js';
import { formatNumber } from '../../util/format.js';
import { noun } from '../../util/plural.js';

export interface Candidate {
  item: AddonItem;
  /** "Vaelgor's Final Stare (282)", unique among the candidates of its group. */
  label: string;
}

export interface Change {
  slot: Slot;
  candidate: Candidate;
}

/** One way to fill a group's slots, as the changes against what is equipped (none: as equipped). */
export interface GroupChoice {
  changes: Change[];
  /** Great Vault items in it (0 or 1). */
  vault: number;
}

export interface GroupPlan {
  group: Group;
  /**
   * How many choices hold no vault item (n0, the group as equipped among them) and one (n1): counted in closed form,
   * so that a limit is checked before any pair is built (5,000 bag trinkets make 12.5 million pairs).
   */
  counts: [number, number];
  /** Every choice, the group as equipped first: built when asked (by combinations()), once the count is accepted. */
  choices: () => GroupChoice[];
}

export interface Combination {
  changes: Change[];
  /** A saved loadout to use instead of the active talents (`--talents all`); null keeps the active talents. */
  loadout: Loadout | null;
}

export interface PlanOptions {
  /** Groups that may vary (default: all). */
  slots?: readonly Group[];
  talents?: 'active' | 'all';
}

export interface TopGearPlan {
  /** Every group that has something to try, in slot order. */
  groups: GroupPlan[];
  /** null = the active talents; then the saved loadouts that differ from it (`--talents all`). */
  loadouts: Array<Loadout | null>;
  /** Combinations, the equipped set included. */
  count: number;
  /** What was left out and why, one phrase each ("2 ring pairs that share an item id"). */
  leftOut: string[];
}

export function planTopGear(exp: AddonExport, options: PlanOptions = {}): TopGearPlan {
  const selected = new Set<Group>(options.slots ?? GROUP_NAMES);
  const leftOut = new Map<string, { noun: string; rest: string; n: number }>();
  const note: Note = (noun, rest, n = 1) => {
    if (n <= 0) return;
    const entry = leftOut.get(`${noun} ${rest}`) ?? { noun, rest, n: 0 };
    entry.n += n;
    leftOut.set(`${noun} ${rest}`, entry);
  };

  const groups: GroupPlan[] = [];
  for (const group of GROUP_NAMES) {
    const slots: readonly Slot[] = GROUPS[group];
    const offered = [...exp.bags, ...exp.vault].filter((i) => slots.includes(i.slot));
    if (!selected.has(group)) {
      note('item', 'in slots --slots leaves as equipped', offered.length);
      continue;
    }
    const plan =
      group === 'weapon'
        ? weaponPlan(exp, note)
        : slots.length === 2
          ? pairPlan(exp, slots as [Slot, Slot], note)
          : singlePlan(exp, slots[0] as Slot, note);
    if (plan.counts[0] + plan.counts[1] > 1) groups.push({ group, ...plan });
  }
  const otherSlots = [...exp.bags, ...exp.vault].filter(
    (i) => !GROUP_NAMES.some((g) => (GROUPS[g] as readonly Slot[]).includes(i.slot)),
  );
  note('shirt/tabard item', '(cosmetic)', otherSlots.length);

  const loadouts = loadoutsFor(exp, options.talents ?? 'active', note);
  const counts = groups.map((g) => g.counts);
  const count = countCombinations(counts) * loadouts.length;
  const unconstrained = counts.reduce((n, [n0, n1]) => n * (n0 + n1), 1) * loadouts.length;
  note('combination', 'with more than one vault item (the vault gives one)', unconstrained - count);
  return {
    groups,
    loadouts,
    count,
    leftOut: [...leftOut.values()].map((e) => `${formatNumber(e.n)} ${noun(e.n, e.noun)} ${e.rest}`),
  };
}

/** Combinations of groups with at most one vault item in all: ∏n0 + Σ_g n1_g · ∏_{h≠g} n0_h. */
export function countCombinations(counts: ReadonlyArray<[number, number]>): number {
  let none = 1;
  let one = 0;
  for (const [n0, n1] of counts) {
    one = one * n0 + none * n1;
    none *= n0;
  }
  return none + one;
}

/** Every combination, the equipped set (no changes, active talents) first. Builds each group's choices once. */
export function* combinations(plan: TopGearPlan): Generator<Combination> {
  const lists = plan.groups.map((g) => g.choices());
  const picked: GroupChoice[] = [];
  function* walk(i: number, vault: number, loadout: Loadout | null): Generator<Combination> {
    if (i === lists.length) {
      yield { changes: picked.flatMap((c) => c.changes), loadout };
      return;
    }
    for (const choice of lists[i] as GroupChoice[]) {
      if (vault + choice.vault > 1) continue;
      picked.push(choice);
      yield* walk(i + 1, vault + choice.vault, loadout);
      picked.pop();
    }
  }
  for (const loadout of plan.loadouts) yield* walk(0, 0, loadout);
}

type Note = (noun: string, rest: string, n?: number) => void;
type Counted = Pick<GroupPlan, 'counts' | 'choices'>;

/** The candidates of some slots: equipped first, then bags, then vault; an identical item line counts once. */
function candidatesOf(exp: AddonExport, slots: readonly Slot[], note: Note): Candidate[] {
  const items: AddonItem[] = [];
  const seen = new Set<string>();
  for (const slot of slots) {
    const worn = exp.equipped[slot];
    // both slots may wear the same line: each is still what its slot holds
    if (worn) {
      seen.add(worn.options);
      items.push(worn);
    }
  }
  for (const item of [...exp.bags, ...exp.vault]) {
    if (!slots.includes(item.slot)) continue;
    if (seen.has(item.options)) note('item', 'listed twice (the same item line)');
    else {
      seen.add(item.options);
      items.push(item);
    }
  }
  return labelled(items);
}

/** Labels that tell the candidates of a group apart: "Name (ilvl)", "(ilvl, vault)", then "#2" for look-alikes. */
function labelled(items: AddonItem[]): Candidate[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const details = [item.ilvl, item.source === 'vault' ? 'vault' : null].filter((d) => d !== null);
    const base = `${item.name ?? `item ${item.id}`}${details.length ? ` (${details.join(', ')})` : ''}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { item, label: n === 1 ? base : `${base} #${n}` };
  });
}

const isVault = (c: Candidate | null | undefined): boolean => c?.item.source === 'vault';

function singlePlan(exp: AddonExport, slot: Slot, note: Note): Counted {
  const candidates = candidatesOf(exp, [slot], note);
  const equipped = exp.equipped[slot];
  const others = candidates.filter((c) => c.item !== equipped);
  const vault = others.filter(isVault).length;
  const choices = () => {
    const list: GroupChoice[] = [{ changes: [], vault: 0 }];
    for (const c of others) list.push({ changes: [{ slot, candidate: c }], vault: isVault(c) ? 1 : 0 });
    return list;
  };
  return { counts: [1 + others.length - vault, vault], choices };
}

const pairsOf = (n: number) => (n * (n - 1)) / 2;

/**
 * Rings and trinkets: {A, B} once (never also {B, A}), A and B of different item ids, each kept where it is worn.
 * Counted from how many candidates share each item id, in and out of the vault; the pairs are built only by
 * choices().
 */
function pairPlan(exp: AddonExport, [first, second]: [Slot, Slot], note: Note): Counted {
  const candidates = candidatesOf(exp, [first, second], note);
  const [worn1, worn2] = [exp.equipped[first], exp.equipped[second]];
  const kind = first === 'finger1' ? 'ring' : 'trinket';
  const byId = new Map<number, { plain: number; vault: number }>();
  let [plain, vault] = [0, 0];
  for (const c of candidates) {
    const entry = byId.get(c.item.id) ?? { plain: 0, vault: 0 };
    if (isVault(c)) [entry.vault, vault] = [entry.vault + 1, vault + 1];
    else [entry.plain, plain] = [entry.plain + 1, plain + 1];
    byId.set(c.item.id, entry);
  }
  let [sameId, plainSameId, vaultSameId, oneVault] = [0, 0, 0, 0];
  for (const { plain: p, vault: v } of byId.values()) {
    sameId += pairsOf(p + v);
    plainSameId += pairsOf(p);
    vaultSameId += pairsOf(v);
    oneVault += v * (plain - p);
  }
  note(`${kind} pair`, 'sharing an item id', sameId);
  note(`${kind} pair`, 'with two vault items', pairsOf(vault) - vaultSameId);
  // The pair worn now changes nothing: it is the group as equipped, choices()[0].
  const wornPair = worn1 && worn2 && worn1 !== worn2 && worn1.id !== worn2.id ? 1 : 0;
  const counts: [number, number] = [1 + pairsOf(plain) - plainSameId - wornPair, oneVault];

  const choices = () => {
    const list: GroupChoice[] = [{ changes: [], vault: 0 }];
    for (let i = 0; i < candidates.length; i++) {
      for (let j = i + 1; j < candidates.length; j++) {
        let [a, b] = [candidates[i] as Candidate, candidates[j] as Candidate];
        if (a.item.id === b.item.id) continue;
        const inVault = Number(isVault(a)) + Number(isVault(b));
        if (inVault > 1) continue;
        // Keep an item that is already worn in its own slot, so the set changes as little as it must.
        if (a.item === worn2 || b.item === worn1) [a, b] = [b, a];
        const changes: Change[] = [];
        if (a.item !== worn1) changes.push({ slot: first, candidate: a });
        if (b.item !== worn2) changes.push({ slot: second, candidate: b });
        if (changes.length) list.push({ changes, vault: inVault });
      }
    }
    return list;
  };
  return { counts, choices };
}

/** Every main_hand candidate with every off_hand candidate; main_hand alone when nothing is in the off hand. */
function weaponPlan(exp: AddonExport, note: Note): Counted {
  const mains = candidatesOf(exp, ['main_hand'], note);
  const offHand = exp.equipped.off_hand;
  const offs = offHand ? candidatesOf(exp, ['off_hand'], note) : [];
  if (!offHand) {
    const unused = [...exp.bags, ...exp.vault].filter((i) => i.slot === 'off_hand').length;
    note('off-hand item', '(nothing is worn in the off hand: a two-hander)', unused);
  }
  const split = (list: Candidate[]): [number, number] => {
    if (list.length === 0) return [1, 0]; // nothing to choose: the hand stays as it is
    const v = list.filter(isVault).length;
    return [list.length - v, v];
  };
  const [m0, m1] = split(mains);
  const [o0, o1] = split(offs);
  note('weapon pair', 'with two vault items', m1 * o1);
  // Without a main hand worn, every pair changes something, and "no weapon" is the group as equipped.
  const noWeapon = mains.length > 0 && !exp.equipped.main_hand ? 1 : 0;
  const counts: [number, number] = [m0 * o0 + noWeapon, m1 * o0 + m0 * o1];

  const choices = () => {
    const list: GroupChoice[] = [];
    for (const m of mains.length ? mains : [null]) {
      for (const o of offs.length ? offs : [null]) {
        const vault = Number(isVault(m)) + Number(isVault(o));
        if (vault > 1) continue;
        const changes: Change[] = [];
        if (m && m.item !== exp.equipped.main_hand) changes.push({ slot: 'main_hand', candidate: m });
        if (o && o.item !== offHand) changes.push({ slot: 'off_hand', candidate: o });
        if (changes.length) list.push({ changes, vault });
        else list.unshift({ changes, vault });
      }
    }
    if (list[0]?.changes.length) list.unshift({ changes: [], vault: 0 }); // no weapon worn
    return list;
  };
  return { counts, choices };
}

/** The active talents, then (`--talents all`) every saved loadout with a talent string not already listed. */
function loadoutsFor(exp: AddonExport, talents: 'active' | 'all', note: Note): Array<Loadout | null> {
  const list: Array<Loadout | null> = [null];
  if (talents === 'active') {
    note('saved loadout', '(--talents all tries them)', exp.loadouts.length);
    return list;
  }
  const seen = new Set<string>(exp.talents ? [exp.talents] : []);
  const names = new Map<string, number>();
  for (const l of exp.loadouts) {
    if (seen.has(l.talents)) {
      note('saved loadout', 'the same as the active talents or another loadout');
      continue;
    }
    seen.add(l.talents);
    const n = (names.get(l.name) ?? 0) + 1;
    names.set(l.name, n);
    list.push({ name: n === 1 ? l.name : `${l.name} #${n}`, talents: l.talents });
  }
  return list;
}
