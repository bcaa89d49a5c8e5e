/** The class names simc accepts as the line that declares a player (`warrior="Name"`), from simc's sim.cpp. */
export const SIMC_CLASSES = [
  'deathknight',
  'demonhunter',
  'druid',
  'evoker',
  'hunter',
  'mage',
  'monk',
  'paladin',
  'priest',
  'rogue',
  'shaman',
  'warlock',
  'warrior',
] as const;
