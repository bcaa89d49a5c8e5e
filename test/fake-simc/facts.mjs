// Game facts the stand-in simc plays by: each spec's primary stat, each class's armour type, and the armour type and
// primary stats of the items simjob's tests and examples use. Written for the stand-in alone (nothing is imported
// from src/), so that a wrong fact in simjob's own table shows up as a disagreement with the stand-in. Sources are
// named in README.md ("Game facts").

/** Primary stat of every spec (simc's scale_only keys). Devourer Demon Hunter is the Intellect one. */
export const SPEC_PRIMARY = {
  deathknight: { blood: 'str', frost: 'str', unholy: 'str' },
  demonhunter: { havoc: 'agi', vengeance: 'agi', devourer: 'int' },
  druid: { balance: 'int', feral: 'agi', guardian: 'agi', restoration: 'int' },
  evoker: { devastation: 'int', preservation: 'int', augmentation: 'int' },
  hunter: { beast_mastery: 'agi', marksmanship: 'agi', survival: 'agi' },
  mage: { arcane: 'int', fire: 'int', frost: 'int' },
  monk: { brewmaster: 'agi', mistweaver: 'int', windwalker: 'agi' },
  paladin: { holy: 'int', protection: 'str', retribution: 'str' },
  priest: { discipline: 'int', holy: 'int', shadow: 'int' },
  rogue: { assassination: 'agi', outlaw: 'agi', subtlety: 'agi' },
  shaman: { elemental: 'int', enhancement: 'agi', restoration: 'int' },
  warlock: { affliction: 'int', demonology: 'int', destruction: 'int' },
  warrior: { arms: 'str', fury: 'str', protection: 'str' },
};

/** The armour type whose every piece gives the class +5 % primary (armour specialisation). */
export const CLASS_ARMOR = {
  deathknight: 'plate',
  demonhunter: 'leather',
  druid: 'leather',
  evoker: 'mail',
  hunter: 'mail',
  mage: 'cloth',
  monk: 'leather',
  paladin: 'plate',
  priest: 'cloth',
  rogue: 'leather',
  shaman: 'mail',
  warlock: 'cloth',
  warrior: 'plate',
};

/** Primary stats an armour piece of each type carries (hybrid armour: the wearer's stat when it is one of these). */
export const ARMOR_PRIMARIES = {
  cloth: ['int'],
  leather: ['agi', 'int'],
  mail: ['agi', 'int'],
  plate: ['str', 'int'],
};

/** The eight slots armour specialisation looks at. */
export const ARMOR_SLOTS = ['head', 'shoulders', 'chest', 'wrists', 'hands', 'waist', 'legs', 'feet'];

/**
 * Share of the gear's primary stat each slot carries (roughly the game's item budget per slot). Necks and rings carry
 * no primary stat; trinkets count only when they carry one.
 */
export const PRIMARY_SLOT_SHARE = {
  head: 1,
  chest: 1,
  legs: 1,
  shoulders: 0.75,
  hands: 0.75,
  waist: 0.75,
  feet: 0.75,
  wrists: 0.56,
  back: 0.56,
  main_hand: 1.5,
  off_hand: 0.5,
  trinket1: 0.6,
  trinket2: 0.6,
};

const ALL = ['str', 'agi', 'int'];
const armour = (type, ids) => ids.map((id) => [id, { armor: type, primary: ARMOR_PRIMARIES[type] }]);
const other = (primary, ids) => ids.map((id) => [id, { primary }]);

/**
 * Items by id. `armor`: cloth, leather, mail or plate (absent: not an armour piece); `primary`: the primary stats the
 * item carries. An id not listed is taken as an item of the wearer's own armour type with the wearer's primary stat.
 */
export const ITEMS = new Map([
  // Midnight Season 1 raids (The Voidspire, The Dreamrift, March on Quel'Danas)
  ...armour('cloth', [249319, 249323, 249315, 249308, 249305, 249330, 249329, 249373, 249328, 249376, 249912]),
  ...armour('leather', [249306, 249334, 249327, 249314, 249321, 249333, 249312, 249382, 249374, 249322, 249913]),
  ...armour('mail', [249310, 249320, 249317, 249304, 249318, 249303, 249325, 249371, 249324, 249377, 249914]),
  ...armour('plate', [249313, 249326, 249332, 249316, 249331, 249311, 249380, 249309, 249381, 249307, 249915]),
  ...other(ALL, [249335, 249370]), // cloaks
  ...other(['int'], [249346, 249809, 249810, 249340]), // Intellect damage trinkets
  ...other(['int'], [249811, 249341, 249808]), // healer trinkets
  ...other(['agi'], [249345]),
  ...other(['str'], [249342]),
  ...other(['str', 'agi'], [249806, 260235, 249344, 249805]), // physical damage trinkets
  ...other(['str', 'agi'], [249339, 249807]), // tank trinkets
  // Season 1 dungeons
  ...armour('leather', [251099, 251082, 251087, 251171, 251113, 251092]),
  ...armour('plate', [251098, 251164]),
  ...armour('cloth', [251085]),
  ...other(ALL, [258575, 260312]), // cloaks
  // test/fixtures: the Fury export's tier set and crafted pieces, the Frost Mage profile's tier set and crafted pieces
  ...armour('plate', [249949, 249950, 249951, 249952, 249954, 249955, 237834, 151332]),
  ...armour('cloth', [250057, 250059, 250060, 250061, 250063, 239648]),
  ...other(['str'], [249277, 237847]), // two-handed Strength weapons
  ...other(['int'], [245769]), // a crafted Intellect off-hand
]);

/** Slot names as profiles spell them → the names above. */
const SLOT_NAMES = { shoulder: 'shoulders', wrist: 'wrists', mainhand: 'main_hand', offhand: 'off_hand' };

export function slotName(slot) {
  return SLOT_NAMES[slot] ?? slot;
}

/** The item id of a gear option's value (`,id=249313,bonus_id=…` or `name,id=…`), or undefined. */
export function itemIdOf(value) {
  const m = /(?:^|,)id=(\d+)/.exec(value);
  return m ? Number(m[1]) : undefined;
}

export function primaryOf(cls, spec) {
  return SPEC_PRIMARY[cls]?.[spec] ?? 'str';
}
