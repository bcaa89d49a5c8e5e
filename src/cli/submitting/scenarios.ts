/**
 * Scenarios: the same profile run under other simc options (`--scenario fight_style=Patchwerk,DungeonSlice`,
 * `--scenarios raid`). Each scenario is a list of global options appended to the profile; later global options win
 * in simc, so the scenario's values override the profile's own.
 */
import { UsageError } from '../../errors.js';
import { MAX_METADATA_BYTES, MAX_METADATA_ENTRIES, MAX_METADATA_VALUE } from '../../core/resources/schemas.js';
import { disallowedCategory, isActorDirective } from '../../domain/profile/analyze.js';
import { PRESETS, type Scenario } from './scenario-presets.js';

/** simc's fight styles (sim_t::fight_style), matched case-insensitively and sent in simc's spelling. */
const FIGHT_STYLES = [
  'Patchwerk',
  'CastingPatchwerk',
  'LightMovement',
  'HeavyMovement',
  'DungeonSlice',
  'DungeonRoute',
  'HecticAddCleave',
  'HelterSkelter',
  'Ultraxion',
  'CleaveAdd',
  'Beastlord',
];

/** Besides actors and what the service refuses (the profile analysis's lists), options that belong to the profile. */
const PROFILE_ONLY = new Set([
  'profileset',
  'raid_events',
  'input',
  'wowhead',
  'xml',
  'csv',
  'actor',
  'death_knight',
  'demon_hunter',
]);

/** Options that are not global sim options (actors, profilesets, files, machine settings): refused with the reason. */
function isNotGlobal(key: string): boolean {
  const name = key.toLowerCase();
  return isActorDirective(name) || disallowedCategory(name) !== null || PROFILE_ONLY.has(name);
}

const MAX_SCENARIOS = 50;

const positiveInteger = (v: string) => /^[1-9]\d*$/.test(v);
const positiveNumber = (v: string) => /^(\d+(\.\d*)?|\.\d+)$/.test(v) && Number(v) > 0;

/** Checks (and the canonical spelling) of the values of the options the issue names; others must be one simc token. */
const VALUE_RULES: Record<string, { ok: (v: string) => boolean; want: string; canonical?: (v: string) => string }> = {
  fight_style: {
    ok: (v) => FIGHT_STYLES.some((s) => s.toLowerCase() === v.toLowerCase()),
    want: `one of ${FIGHT_STYLES.join(', ')}`,
    canonical: (v) => FIGHT_STYLES.find((s) => s.toLowerCase() === v.toLowerCase()) ?? v,
  },
  desired_targets: {
    ok: (v) => positiveInteger(v) && Number(v) <= 100,
    want: 'a whole number of targets from 1 to 100',
  },
  max_time: { ok: positiveNumber, want: 'a number of seconds above 0' },
  target_error: { ok: positiveNumber, want: 'a percentage above 0, e.g. 0.2' },
  iterations: { ok: positiveInteger, want: 'a whole number above 0' },
  vary_combat_length: { ok: (v) => /^(0|1|0?\.\d+|1\.0*)$/.test(v), want: 'a fraction from 0 to 1' },
};

/** `--scenario KEY=V1,V2` (repeatable) and `--scenarios NAME` (repeatable): every combination, in the order given. */
export function expandScenarios(axes: readonly string[], presets: readonly string[]): Scenario[] {
  const dimensions: Scenario[][] = [];
  if (presets.length) dimensions.push(presets.flatMap(presetScenarios));
  const seenKeys = new Set<string>();
  for (const axis of axes) {
    const { key, values } = parseAxis(axis);
    if (seenKeys.has(key))
      throw new UsageError(`--scenario ${key} is given twice.`, `Give every value once: --scenario ${key}=A,B,C.`);
    seenKeys.add(key);
    dimensions.push(values.map((value) => ({ label: `${key}=${value}`, options: [[key, value]] })));
  }
  if (dimensions.length === 0) return [];
  // Counted before any combination is built: one axis of a million values must not be crossed with the rest first.
  const count = dimensions.reduce((n, d) => n * d.length, 1);
  if (count > MAX_SCENARIOS) {
    throw new UsageError(
      `These scenarios make more than ${MAX_SCENARIOS} combinations per profile.`,
      'Give fewer values, or split the run into several commands.',
    );
  }
  let product: Scenario[] = [{ label: '', options: [] }];
  for (const dimension of dimensions) {
    product = product.flatMap((left) =>
      dimension.map((right) => ({
        label: [left.label, right.label].filter(Boolean).join(' '),
        options: [...left.options, ...right.options],
      })),
    );
  }
  const labels = new Set<string>();
  for (const s of product) {
    if (labels.has(s.label))
      throw new UsageError(`The scenario "${s.label}" is given twice.`, 'Give each preset and each value once.');
    labels.add(s.label);
  }
  return product;
}

function presetScenarios(name: string): readonly Scenario[] {
  const preset = PRESETS[name.toLowerCase()];
  if (!preset)
    throw new UsageError(
      `--scenarios ${name} is not a preset.`,
      `Use one of ${Object.keys(PRESETS).join(', ')}, or --scenario KEY=V1,V2.`,
    );
  return preset;
}

function parseAxis(axis: string): { key: string; values: string[] } {
  const eq = axis.indexOf('=');
  if (eq <= 0 || eq === axis.length - 1)
    throw new UsageError(
      `--scenario must be KEY=V1,V2,… (got "${axis}").`,
      'For example: --scenario fight_style=Patchwerk,DungeonSlice',
    );
  const key = axis.slice(0, eq).trim();
  if (!/^[a-z][a-z0-9_]*$/i.test(key))
    throw new UsageError(
      `--scenario ${key}: not a simc option name.`,
      'Options are words like fight_style, desired_targets, max_time.',
    );
  if (isNotGlobal(key))
    throw new UsageError(
      `--scenario ${key}: only global sim options can make a scenario.`,
      'Put actor, profileset and file options in the profile itself.',
    );
  const rule = VALUE_RULES[key.toLowerCase()];
  const values = axis
    .slice(eq + 1)
    .split(',')
    .map((v) => v.trim());
  const seen = new Set<string>();
  return {
    key: key.toLowerCase(),
    values: values.map((value) => {
      if (!value)
        throw new UsageError(
          `--scenario ${key} has an empty value.`,
          `Separate values with single commas: --scenario ${key}=A,B.`,
        );
      if (!/^[^\s#"=]+$/.test(value))
        throw new UsageError(`--scenario ${key}=${value}: a value is one word without spaces, quotes, # or =.`);
      if (rule && !rule.ok(value)) throw new UsageError(`--scenario ${key}=${value}: want ${rule.want}.`);
      const canonical = rule?.canonical ? rule.canonical(value) : value;
      if (seen.has(canonical)) throw new UsageError(`--scenario ${key}: ${canonical} is given twice.`);
      seen.add(canonical);
      return canonical;
    }),
  };
}

/** The profile with the scenario's options appended, under a comment that names the scenario. */
export function applyScenario(text: string, scenario: Scenario): string {
  const lines = scenario.options.map(([key, value]) => `${key}=${value}`);
  return `${text.endsWith('\n') ? text : `${text}\n`}\n# simjob scenario: ${scenario.label}\n${lines.join('\n')}\n`;
}

/**
 * The `--meta` pairs of one job of a batch: the user's own, plus `profile` (the file as given, or `stdin`) and, for a
 * scenario, `scenario` (its label), so results, `compare` and reports can tell the jobs apart. Checked against the
 * service's metadata bounds here, with errors that say what simjob added.
 */
export function batchMeta(userMeta: readonly string[], profile: string, scenario: Scenario | undefined): string[] {
  const userKeys = new Set(userMeta.map((p) => p.slice(0, Math.max(0, p.indexOf('=')))));
  for (const key of ['profile', 'scenario']) {
    if (userKeys.has(key))
      throw new UsageError(
        `--meta ${key}=… clashes with the ${key} simjob records on every job of a batch.`,
        'Use another key.',
      );
  }
  const ours = [`profile=${profile}`, ...(scenario ? [`scenario=${scenario.label}`] : [])];
  const pairs = [...userMeta, ...ours];
  if (pairs.length > MAX_METADATA_ENTRIES) {
    throw new UsageError(
      `--meta was given ${userMeta.length} times; simjob adds ${ours.length} more (${ours.map((p) => p.split('=')[0]).join(', ')}) and the service keeps at most ${MAX_METADATA_ENTRIES}.`,
      `Drop ${pairs.length - MAX_METADATA_ENTRIES} --meta.`,
    );
  }
  if (profile.length > MAX_METADATA_VALUE)
    throw new UsageError(
      `The profile path ${profile.slice(0, 40)}… is longer than the ${MAX_METADATA_VALUE} characters a metadata value may have.`,
      'Run from a folder nearer the profiles.',
    );
  const record = Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  const bytes = Buffer.byteLength(JSON.stringify(record));
  if (bytes > MAX_METADATA_BYTES) {
    throw new UsageError(
      `The metadata of "${profile}${scenario ? ` [${scenario.label}]` : ''}" adds up to ${bytes} bytes with the profile and scenario simjob records; the service keeps at most 1 KB.`,
      'Shorten your --meta values or the profile path.',
    );
  }
  return pairs;
}
