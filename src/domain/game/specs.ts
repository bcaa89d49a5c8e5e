/**
 * The game facts about classes and specs that every command reads: each spec's primary stat and role, each class's
 * armour type and the weapon types it can wield. One table, so that statweights, droptimizer and the roster can never
 * disagree about a character. The facts are those of the current game (Midnight) as simc models them; the simc
 * source each group comes from is named beside it (simulationcraft/simc, branch midnight).
 */

export const ARMOR_TYPES = ['cloth', 'leather', 'mail', 'plate'] as const;
export const PRIMARY_STATS = ['strength', 'agility', 'intellect'] as const;
export const ROLES = ['tank', 'healer', 'damage'] as const;
/**
 * simc's weapon subclass spelling (`util::weapon_subclass_string`), split one-handed/two-handed; `shield` and
 * `off_hand` (an item held in the off hand, "frill") for the off-hand slot's non-weapons.
 */
export const WEAPON_TYPES = [
  'axe_1h',
  'axe_2h',
  'bow',
  'crossbow',
  'dagger',
  'fist',
  'gun',
  'mace_1h',
  'mace_2h',
  'polearm',
  'staff',
  'sword_1h',
  'sword_2h',
  'warglaive',
  'wand',
  'shield',
  'off_hand',
] as const;
export type ArmorType = (typeof ARMOR_TYPES)[number];
export type PrimaryStat = (typeof PRIMARY_STATS)[number];
export type Role = (typeof ROLES)[number];
export type WeaponType = (typeof WEAPON_TYPES)[number];

export interface SpecFacts {
  /** simc's class token, as in the line that declares the player (`demonhunter="Name"`). */
  className: string;
  /** simc's spec token, as in `spec=` (`beast_mastery`). */
  spec: string;
  /** The name a player reads ("Beast Mastery"). */
  label: string;
  primary: PrimaryStat;
  role: Role;
}

export interface ClassFacts {
  className: string;
  label: string;
  armor: ArmorType;
  weapons: readonly WeaponType[];
  specs: readonly SpecFacts[];
}

type SpecRow = readonly [spec: string, label: string, primary: PrimaryStat, role: Role];

interface ClassRow {
  className: string;
  label: string;
  armor: ArmorType;
  weapons: readonly WeaponType[];
  specs: readonly SpecRow[];
}

/*
 * Where each fact comes from (simulationcraft/simc):
 *   - class tokens: engine/util/util.cpp `util::player_type_string` (the declaring line, read in engine/sim/sim.cpp);
 *   - specs, their tokens and labels: engine/dbc/generated/sc_spec_list.inc (`specialization_e`; Midnight adds
 *     DEMON_HUNTER_DEVOURER, the game's spec 1480) and engine/util/util.cpp `util::specialization_string`;
 *   - primary stat: each class module's `convert_hybrid_stat()` (which of a hybrid item's Str/Agi/Int the spec
 *     takes), e.g. engine/class_modules/sc_demon_hunter.cpp (Devourer takes Intellect, Havoc and Vengeance
 *     Agility), sc_druid.cpp, monk/sc_monk.cpp, paladin/sc_paladin.cpp, sc_shaman.cpp; held to simc's own MID1
 *     profiles' `gear_<stat>` summaries by test/unit/game/specs.test.ts;
 *   - role: each class module's `primary_role()` (ROLE_TANK, ROLE_HEAL, else damage: ROLE_ATTACK/ROLE_SPELL);
 *   - armour: engine/util/util.cpp `util::matching_armor_type()` and each class's armour specialisation passive
 *     (e.g. the "Plate Specialization" spell in sc_warrior.cpp's `init_spells`);
 *   - weapons: simc checks no weapon proficiency (an item of any type equips), so these are the game's class weapon
 *     skills as players know them; the one-/two-hand rules are simc's (engine/player/player.cpp `init_weapon`: a
 *     two-hander takes both hands) and Fury's Titan's Grip (engine/class_modules/sc_warrior.cpp). `off_hand`
 *     (a held-in-off-hand item) is listed for the classes with an Intellect spec, who are the ones that carry one.
 */
const CLASSES: readonly ClassRow[] = [
  {
    className: 'deathknight',
    label: 'Death Knight',
    armor: 'plate',
    weapons: ['axe_1h', 'axe_2h', 'mace_1h', 'mace_2h', 'polearm', 'sword_1h', 'sword_2h'],
    specs: [
      ['blood', 'Blood', 'strength', 'tank'],
      ['frost', 'Frost', 'strength', 'damage'],
      ['unholy', 'Unholy', 'strength', 'damage'],
    ],
  },
  {
    className: 'demonhunter',
    label: 'Demon Hunter',
    armor: 'leather',
    weapons: ['warglaive', 'axe_1h', 'fist', 'sword_1h'],
    specs: [
      ['havoc', 'Havoc', 'agility', 'damage'],
      ['vengeance', 'Vengeance', 'agility', 'tank'],
      // Midnight's ranged spec: Intellect (sc_demon_hunter.cpp convert_hybrid_stat; MID1 gear_intellect).
      ['devourer', 'Devourer', 'intellect', 'damage'],
    ],
  },
  {
    className: 'druid',
    label: 'Druid',
    armor: 'leather',
    weapons: ['dagger', 'fist', 'mace_1h', 'mace_2h', 'polearm', 'staff', 'off_hand'],
    specs: [
      ['balance', 'Balance', 'intellect', 'damage'],
      ['feral', 'Feral', 'agility', 'damage'],
      ['guardian', 'Guardian', 'agility', 'tank'],
      ['restoration', 'Restoration', 'intellect', 'healer'],
    ],
  },
  {
    className: 'evoker',
    label: 'Evoker',
    armor: 'mail',
    weapons: ['axe_1h', 'axe_2h', 'dagger', 'fist', 'mace_1h', 'mace_2h', 'staff', 'sword_1h', 'sword_2h', 'off_hand'],
    specs: [
      ['devastation', 'Devastation', 'intellect', 'damage'],
      ['preservation', 'Preservation', 'intellect', 'healer'],
      ['augmentation', 'Augmentation', 'intellect', 'damage'],
    ],
  },
  {
    className: 'hunter',
    label: 'Hunter',
    armor: 'mail',
    weapons: [
      'axe_1h',
      'axe_2h',
      'bow',
      'crossbow',
      'dagger',
      'fist',
      'gun',
      'polearm',
      'staff',
      'sword_1h',
      'sword_2h',
    ],
    specs: [
      ['beast_mastery', 'Beast Mastery', 'agility', 'damage'],
      ['marksmanship', 'Marksmanship', 'agility', 'damage'],
      ['survival', 'Survival', 'agility', 'damage'],
    ],
  },
  {
    className: 'mage',
    label: 'Mage',
    armor: 'cloth',
    weapons: ['dagger', 'staff', 'sword_1h', 'wand', 'off_hand'],
    specs: [
      ['arcane', 'Arcane', 'intellect', 'damage'],
      ['fire', 'Fire', 'intellect', 'damage'],
      ['frost', 'Frost', 'intellect', 'damage'],
    ],
  },
  {
    className: 'monk',
    label: 'Monk',
    armor: 'leather',
    weapons: ['axe_1h', 'fist', 'mace_1h', 'polearm', 'staff', 'sword_1h', 'off_hand'],
    specs: [
      ['brewmaster', 'Brewmaster', 'agility', 'tank'],
      ['mistweaver', 'Mistweaver', 'intellect', 'healer'],
      ['windwalker', 'Windwalker', 'agility', 'damage'],
    ],
  },
  {
    className: 'paladin',
    label: 'Paladin',
    armor: 'plate',
    weapons: ['axe_1h', 'axe_2h', 'mace_1h', 'mace_2h', 'polearm', 'sword_1h', 'sword_2h', 'shield', 'off_hand'],
    specs: [
      ['holy', 'Holy', 'intellect', 'healer'],
      ['protection', 'Protection', 'strength', 'tank'],
      ['retribution', 'Retribution', 'strength', 'damage'],
    ],
  },
  {
    className: 'priest',
    label: 'Priest',
    armor: 'cloth',
    weapons: ['dagger', 'mace_1h', 'staff', 'wand', 'off_hand'],
    specs: [
      ['discipline', 'Discipline', 'intellect', 'healer'],
      ['holy', 'Holy', 'intellect', 'healer'],
      ['shadow', 'Shadow', 'intellect', 'damage'],
    ],
  },
  {
    className: 'rogue',
    label: 'Rogue',
    armor: 'leather',
    weapons: ['axe_1h', 'dagger', 'fist', 'mace_1h', 'sword_1h'],
    specs: [
      ['assassination', 'Assassination', 'agility', 'damage'],
      ['outlaw', 'Outlaw', 'agility', 'damage'],
      ['subtlety', 'Subtlety', 'agility', 'damage'],
    ],
  },
  {
    className: 'shaman',
    label: 'Shaman',
    armor: 'mail',
    weapons: ['axe_1h', 'axe_2h', 'dagger', 'fist', 'mace_1h', 'mace_2h', 'staff', 'shield', 'off_hand'],
    specs: [
      ['elemental', 'Elemental', 'intellect', 'damage'],
      ['enhancement', 'Enhancement', 'agility', 'damage'],
      ['restoration', 'Restoration', 'intellect', 'healer'],
    ],
  },
  {
    className: 'warlock',
    label: 'Warlock',
    armor: 'cloth',
    weapons: ['dagger', 'staff', 'sword_1h', 'wand', 'off_hand'],
    specs: [
      ['affliction', 'Affliction', 'intellect', 'damage'],
      ['demonology', 'Demonology', 'intellect', 'damage'],
      ['destruction', 'Destruction', 'intellect', 'damage'],
    ],
  },
  {
    className: 'warrior',
    label: 'Warrior',
    armor: 'plate',
    weapons: [
      'axe_1h',
      'axe_2h',
      'dagger',
      'fist',
      'mace_1h',
      'mace_2h',
      'polearm',
      'staff',
      'sword_1h',
      'sword_2h',
      'shield',
    ],
    specs: [
      ['arms', 'Arms', 'strength', 'damage'],
      ['fury', 'Fury', 'strength', 'damage'],
      ['protection', 'Protection', 'strength', 'tank'],
    ],
  },
];

const FACTS: readonly ClassFacts[] = CLASSES.map((c) => ({
  className: c.className,
  label: c.label,
  armor: c.armor,
  weapons: c.weapons,
  specs: c.specs.map(([spec, label, primary, role]) => ({ className: c.className, spec, label, primary, role })),
}));

/** Every class, in simc's alphabetical order of tokens. */
export const ALL_CLASSES: readonly ClassFacts[] = FACTS;

/** simc's class tokens (`deathknight`, …): the names simc accepts on the line that declares a player. */
export const CLASS_TOKENS: readonly string[] = FACTS.map((c) => c.className);

/** 'Death Knight', 'death_knight', 'DEATHKNIGHT', 'death-knight' → 'deathknight'. */
const squash = (name: string): string => name.toLowerCase().replace(/[\s_-]/g, '');

const BY_CLASS = new Map(FACTS.map((c) => [c.className, c]));

/** The facts of a class, however it is spelt (simc token, label, snake case); undefined when no such class. */
export function classFacts(className: string): ClassFacts | undefined {
  return BY_CLASS.get(squash(className));
}

/** The facts of a spec ('beast_mastery', 'Beast Mastery'); undefined when the class or spec is unknown or absent. */
export function specFacts(className: string, spec: string | null | undefined): SpecFacts | undefined {
  if (!spec) return undefined;
  const wanted = squash(spec);
  return classFacts(className)?.specs.find((s) => squash(s.spec) === wanted);
}

/** Fury warriors wield a two-handed weapon in each hand (Titan's Grip, engine/class_modules/sc_warrior.cpp). */
export function dualWieldsTwoHanders(className: string, spec: string | null | undefined): boolean {
  const facts = specFacts(className, spec);
  return facts?.className === 'warrior' && facts.spec === 'fury';
}
