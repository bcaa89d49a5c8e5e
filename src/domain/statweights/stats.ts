/**
 * The stats `simjob statweights` can weigh, each with the names simc and Pawn give it (spec/stat-weights.md, read
 * from simc's player.cpp, report_json.cpp and gear_weights.cpp):
 *   - `enchant`: the player option that ADDS points of the stat (`gear_<stat>` would replace the gear's total);
 *   - `scaleOnly`: its name in `scale_only=`; `reportKey`: its key under `scale_factors` in the JSON report;
 *   - `pawn`: its name in the Pawn string.
 */
import { UsageError } from '../../errors.js';
import { classFacts, specFacts } from '../game/specs.js';

export interface StatInfo {
  /** What the user types in --stats and what --json says. */
  key: StatKey;
  /** The name in tables and sentences. */
  label: string;
  /** The option that adds points of the stat; undefined when simc has none (weapon DPS: scale factors only). */
  enchant?: string;
  scaleOnly: string;
  reportKey: string;
  pawn: string;
  primary?: boolean;
}

export type StatKey = 'strength' | 'agility' | 'intellect' | 'crit' | 'haste' | 'mastery' | 'vers' | 'weapon_dps';

/** In simc's stat order (the order of the Pawn string). */
export const STATS: readonly StatInfo[] = [
  {
    key: 'strength',
    label: 'Strength',
    enchant: 'enchant_strength',
    scaleOnly: 'str',
    reportKey: 'Str',
    pawn: 'Strength',
    primary: true,
  },
  {
    key: 'agility',
    label: 'Agility',
    enchant: 'enchant_agility',
    scaleOnly: 'agi',
    reportKey: 'Agi',
    pawn: 'Agility',
    primary: true,
  },
  {
    key: 'intellect',
    label: 'Intellect',
    enchant: 'enchant_intellect',
    scaleOnly: 'int',
    reportKey: 'Int',
    pawn: 'Intellect',
    primary: true,
  },
  {
    key: 'crit',
    label: 'Crit',
    enchant: 'enchant_crit_rating',
    scaleOnly: 'crit',
    reportKey: 'Crit',
    pawn: 'CritRating',
  },
  {
    key: 'haste',
    label: 'Haste',
    enchant: 'enchant_haste_rating',
    scaleOnly: 'haste',
    reportKey: 'Haste',
    pawn: 'HasteRating',
  },
  {
    key: 'mastery',
    label: 'Mastery',
    enchant: 'enchant_mastery_rating',
    scaleOnly: 'mastery',
    reportKey: 'Mastery',
    pawn: 'MasteryRating',
  },
  {
    key: 'vers',
    label: 'Versatility',
    enchant: 'enchant_versatility_rating',
    scaleOnly: 'vers',
    reportKey: 'Vers',
    pawn: 'Versatility',
  },
  { key: 'weapon_dps', label: 'Weapon DPS', scaleOnly: 'wdps', reportKey: 'Wdps', pawn: 'Dps' },
];

/** What `--stats` means when not given: the primary stat and the four secondaries, as Raidbots' Stat Weights. */
export const DEFAULT_STATS = 'primary,crit,haste,mastery,vers';

/** Other spellings a user may type, to the key. */
const ALIASES: Record<string, StatKey> = {
  str: 'strength',
  agi: 'agility',
  int: 'intellect',
  crit_rating: 'crit',
  critical_strike: 'crit',
  haste_rating: 'haste',
  mastery_rating: 'mastery',
  versatility: 'vers',
  versatility_rating: 'vers',
  wdps: 'weapon_dps',
};

export function statByKey(key: StatKey): StatInfo {
  return STATS.find((s) => s.key === key)!;
}

export function statByReportKey(reportKey: string): StatInfo | undefined {
  return STATS.find((s) => s.reportKey === reportKey);
}

/**
 * `--stats primary,crit,…` → the stats, in the order given; `primary` is the character's primary stat. An
 * unknown name, a repeat, or a stat the method cannot add is refused (exit 2) before anything is sent.
 */
export function parseStats(list: string, primary: StatKey | undefined, method: 'profilesets' | 'scale'): StatInfo[] {
  const names = list
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError('--stats names no stat.', `For example: --stats ${DEFAULT_STATS}`);
  const picked: StatInfo[] = [];
  for (const name of names) {
    const known = STATS.some((s) => s.key === name) ? (name as StatKey) : ALIASES[name];
    if (name === 'primary' && !primary) {
      throw new UsageError(
        '--stats primary: the primary stat of this character is unknown (its profile names no spec simjob knows).',
        'Add spec=<spec> to the profile, or name the stat: --stats intellect,crit,haste,mastery,vers',
      );
    }
    const key = name === 'primary' ? primary : known;
    if (!key) {
      throw new UsageError(
        `--stats ${name}: simc has no stat of that name to add.`,
        `Use primary, ${STATS.map((s) => s.key).join(', ')}.`,
      );
    }
    const stat = statByKey(key);
    if (picked.includes(stat)) {
      throw new UsageError(`--stats names ${stat.label} twice${name === 'primary' ? ' (primary is it)' : ''}.`);
    }
    if (method === 'profilesets' && !stat.enchant) {
      const why = `simc has no option that adds ${stat.label}, so a profileset cannot weigh it`;
      throw new UsageError(`--stats ${name}: ${why}.`, "Use --method scale (simc's scale factors) for it.");
    }
    picked.push(stat);
  }
  return picked;
}

/**
 * The primary stat of a class and spec, from the game facts (src/domain/game/specs.ts: Devourer Demon Hunters weigh
 * Intellect, Havoc and Vengeance Agility). Without a known spec, the class's stat when all its specs share one;
 * undefined when the class is unknown or its specs differ (a Druid, a Demon Hunter, a Paladin…).
 */
export function primaryStat(className: string, spec: string | null): StatKey | undefined {
  const facts = specFacts(className, spec);
  if (facts) return facts.primary;
  const stats = new Set(classFacts(className)?.specs.map((s) => s.primary));
  return stats.size === 1 ? [...stats][0] : undefined;
}
