/**
 * What simjob knows about SimulationCraft, as functions of text and records: a /simc export in, a profile to submit
 * out; a finished job's result in, the answer out. Thin wrappers of src/domain/topgear, src/domain/droptimizer, src/domain/statweights
 * and src/domain/report, at the data level (the commands around them print and read files; these do neither). Each takes
 * and returns plain data and throws UsageError (bad input) or SimjobError, never anything printed.
 */
import { ExportError, parseAddonExport, type AddonExport } from './addon/export.js';
import { compareRows } from './report/compare.js';
import { analyseDrops, type DroptimizerAnswer } from './droptimizer/analysis.js';
import { ExitCode, SimjobError, UsageError } from '../errors.js';
import { statWeightsMeta, TOPGEAR_KIND, TOPGEAR_META_KEY } from './job-kind.js';
import type { ResultRecord as InnerResult } from '../core/resources/schemas.js';
import { analyzeProfile, mainActorChoice } from './profile/index.js';
import { parseReport, ReportError, summarize } from './report/report.js';
import { readCharacter } from './statweights/character.js';
import { savedStatWeights } from './statweights/load.js';
import { DEFAULT_AMOUNT } from './statweights/precision.js';
import { DEFAULT_TARGET_ERROR } from './profile/precision.js';
import { statWeightsProfile, type Method } from './statweights/profile.js';
import { DEFAULT_STATS, parseStats, primaryStat } from './statweights/stats.js';
import type { StatWeights } from './statweights/weights.js';
import { topGearAnswer as answerOfTopGear, type TopGearAnswer } from './topgear/answer.js';
import { planTopGear as planCombinations } from './topgear/combinations.js';
import { DEFAULT_MAX_COMBOS, parseSlots } from './topgear/groups.js';
import { suggestSlots } from './topgear/limit.js';
import { topGearProfile } from './topgear/profile.js';
import type { ResultRecord, Summary } from '../core/resources/types.js';

export type { DroptimizerAnswer, DropResult, SourceSummary } from './droptimizer/analysis.js';
export type { StatWeights, StatWeight, CharacterInfo } from './statweights/weights.js';
export type { TopGearAnswer } from './topgear/answer.js';

/** Who an export or profile is: for a reply's first line. */
export interface CharacterSummary {
  name: string;
  className: string;
  spec: string | null;
}

/** A profile ready for `client.submit(profile.text, { metadata: profile.metadata })`. */
export interface PlannedProfile {
  character: CharacterSummary;
  /** The simc profile: the equipped set as the baseline actor, one profileset per alternative. */
  text: string;
  /** Marks the job so `simjob result` and the answers below know what it is; pass it with the submission. */
  metadata: Record<string, string>;
  profilesets: number;
  /** What was left out and why, one phrase each. */
  leftOut: string[];
  /** What the export's reader noticed without refusing it (an edited text, no checksum line). */
  warnings: string[];
}

/** Read a /simc addon export (the text of the addon's window). Bad text: UsageError saying what is wrong. */
/** An export read, its errors as UsageError (shared with core/plan-droptimizer.ts). */
export function readExport(text: string): AddonExport {
  if (typeof text !== 'string' || text.trim() === '')
    throw new UsageError('The export is empty.', 'Paste the whole text of the /simc window.');
  try {
    return parseAddonExport(text);
  } catch (error) {
    if (error instanceof ExportError) throw new UsageError(`The export: ${error.message}`, error.hint);
    throw error;
  }
}

export const characterOf = (exp: AddonExport): CharacterSummary => ({
  name: exp.characterName,
  className: exp.className,
  spec: exp.spec ?? null,
});

export interface TopGearOptions {
  /** Slot groups that may change (`head`, `neck`, `finger`, `trinket`, `weapon`, …); default all. */
  slots?: string[];
  /** `all`: also try every saved talent loadout. Default `active`. */
  talents?: 'active' | 'all';
  /** Refuse plans of more combinations than this (default 1000), saying which slots would fit. */
  maxCombos?: number;
  targetError?: number;
}

/** Top gear: every combination of the export's equipped, bag and vault items, as one profileset profile. */
export function planTopGear(exportText: string, options: TopGearOptions = {}): PlannedProfile {
  const exp = readExport(exportText);
  const slots = options.slots === undefined ? undefined : parseSlots(options.slots.join(','));
  const plan = planCombinations(exp, {
    ...(slots ? { slots } : {}),
    ...(options.talents ? { talents: options.talents } : {}),
  });
  if (plan.count < 2)
    throw new UsageError(
      `${exp.characterName}'s export offers nothing to swap in: the equipped set is the only combination.`,
      'Open your bags in game and run /simc again: it lists the gear they hold.',
    );
  const max = options.maxCombos ?? DEFAULT_MAX_COMBOS;
  if (plan.count > max) {
    const suggestion = suggestSlots(plan, max);
    throw new UsageError(
      `${plan.count} combinations is more than maxCombos ${max}` +
        (suggestion ? `: slots ${suggestion.slots.join(',')} would make ${suggestion.count}.` : '.'),
    );
  }
  const profile = topGearProfile(exp, plan, 'the export', {
    ...(options.targetError !== undefined ? { targetError: options.targetError } : {}),
  });
  return {
    character: characterOf(exp),
    text: profile.text,
    metadata: { [TOPGEAR_META_KEY]: TOPGEAR_KIND },
    profilesets: profile.names.length,
    leftOut: plan.leftOut,
    warnings: exp.warnings,
  };
}

/** What to equip, from a finished top gear job's result; undefined for another kind of job or one without DPS. */
export function topGearAnswer(result: ResultRecord): TopGearAnswer | undefined {
  return answerOfTopGear(result as InnerResult);
}

/** The best drop and the best of each source, from a finished droptimizer job; undefined without DPS. */
export function droptimizerAnswer(result: ResultRecord): DroptimizerAnswer | undefined {
  const actor = (result as InnerResult).result.summary?.mainActor;
  return actor ? analyseDrops(actor) : undefined;
}

export interface StatWeightsOptions {
  /** `profilesets` (one profileset per stat, default) or `scale` (simc's scale factors). */
  method?: Method;
  /** Comma-separated, e.g. `primary,crit,haste,mastery,vers` (the default). */
  stats?: string;
  /** Points each profileset adds (profilesets method; default 300). */
  amount?: number;
  /** Default 0.05. */
  targetError?: number;
}

/** Stat weights: the profile that measures them, from a simc profile or a /simc export. */
export function planStatWeights(text: string, options: StatWeightsOptions = {}): PlannedProfile {
  const character = readCharacter(text, 'The profile');
  const method = options.method ?? 'profilesets';
  const stats = parseStats(options.stats ?? DEFAULT_STATS, primaryStat(character.className, character.spec), method);
  const plan = {
    method,
    stats,
    ...(method === 'profilesets' ? { amount: options.amount ?? DEFAULT_AMOUNT } : {}),
    targetError: options.targetError ?? DEFAULT_TARGET_ERROR,
  };
  const metadata: Record<string, string> = {};
  for (const pair of statWeightsMeta(plan, character.className, character.spec)) {
    const eq = pair.indexOf('=');
    metadata[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return {
    character: { name: character.name, className: character.className, spec: character.spec },
    text: statWeightsProfile(character, plan, 'the profile'),
    metadata,
    profilesets: method === 'profilesets' ? stats.length : 0,
    leftOut: [],
    warnings: character.warnings,
  };
}

/**
 * The weights of a finished stat-weights job run by the profilesets method, from its summary alone (no network).
 * The scale method's factors are in the job's JSON report: `client.statWeights(result)` downloads it. Undefined
 * for another kind of job, or a scale-method one.
 */
export function statWeights(result: ResultRecord): StatWeights | undefined {
  return savedStatWeights(result as InnerResult);
}

export interface ComparedRow {
  /** The actor's name, or a profileset's. */
  name: string;
  kind: 'actor' | 'profileset';
  a: { mean: number; mean_error: number | null } | null;
  b: { mean: number; mean_error: number | null } | null;
  /** b − a, its percent of a, the 95 % error of the difference, and whether |Δ| is beyond it. */
  delta?: number;
  percent?: number;
  combinedError?: number;
  significant?: boolean;
}

/**
 * Two finished jobs side by side, as `simjob compare` pairs them: the main actor, then every profileset of the
 * summaries by name (A's ranking first, then those only B lists). A result without DPS: UsageError.
 */
export function compareResults(a: ResultRecord, b: ResultRecord): ComparedRow[] {
  for (const [side, r] of [
    ['A', a],
    ['B', b],
  ] as const) {
    if (!r.result.summary?.mainActor)
      throw new UsageError(`Result ${side} (job ${r.id}, ${r.status}) has no DPS to compare.`);
  }
  // The summaries' profilesets (a summary lists the top 200): the rest are in the job's JSON report.
  const setsOf = (r: ResultRecord) => {
    const sets = r.result.summary?.mainActor?.profilesets;
    return { sets: sets?.results ?? [], cut: (sets?.count ?? 0) > (sets?.results.length ?? 0) };
  };
  return compareRows(a as InnerResult, b as InnerResult, setsOf(a), setsOf(b)).map((row) => ({
    name: row.name,
    kind: row.kind,
    a: row.a,
    b: row.b,
    ...(row.delta !== undefined ? { delta: row.delta } : {}),
    ...(row.percent !== undefined ? { percent: row.percent } : {}),
    ...(row.combinedError !== undefined ? { combinedError: row.combinedError } : {}),
    ...(row.significant !== undefined ? { significant: row.significant } : {}),
  }));
}

/**
 * simc's JSON report (`json2=`) read into a result summary, as simjob makes it for a local job: the main actor,
 * its profilesets ranked (the top 200, with their count), the metric. `profile`: the profile that made it, so the
 * main actor and metric are the ones it names (default: the report's first player, dps).
 */
export function readReport(reportText: string, options: { profile?: string } = {}): Summary {
  const choice = options.profile ? mainActorChoice(analyzeProfile(options.profile)) : { index: 0, name: null };
  try {
    return summarize(parseReport(reportText), choice, { enabled: false, reason: null, stages: [] });
  } catch (error) {
    if (error instanceof ReportError)
      throw new SimjobError(`The report cannot be read: ${error.message}.`, ExitCode.USAGE);
    throw error;
  }
}
