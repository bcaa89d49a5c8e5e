// Setup of the stand-in simc: replays the option tuples in order (actor options go to the last declared
// actor, everything else to the sim), validates values, builds actors and profilesets.
// Follows the service's simc contract §1.2–1.6, §2, §3.2–3.3 (README.md). Written from scratch.

import { OptionDb, ChainError, chainOf, fail, nest } from './options.mjs';

export const MAX_LEVEL = 90;

export const CLASSES = {
  deathknight: { display: 'Death Knight', specs: ['blood', 'frost', 'unholy'] },
  demonhunter: { display: 'Demon Hunter', specs: ['havoc', 'vengeance', 'devourer'] },
  druid: { display: 'Druid', specs: ['balance', 'feral', 'guardian', 'restoration'] },
  evoker: { display: 'Evoker', specs: ['devastation', 'preservation', 'augmentation'] },
  hunter: { display: 'Hunter', specs: ['beast_mastery', 'marksmanship', 'survival'] },
  mage: { display: 'Mage', specs: ['arcane', 'fire', 'frost'] },
  monk: { display: 'Monk', specs: ['brewmaster', 'mistweaver', 'windwalker'] },
  paladin: { display: 'Paladin', specs: ['holy', 'protection', 'retribution'] },
  priest: { display: 'Priest', specs: ['discipline', 'holy', 'shadow'] },
  rogue: { display: 'Rogue', specs: ['assassination', 'outlaw', 'subtlety'] },
  shaman: { display: 'Shaman', specs: ['elemental', 'enhancement', 'restoration'] },
  warlock: { display: 'Warlock', specs: ['affliction', 'demonology', 'destruction'] },
  warrior: { display: 'Warrior', specs: ['arms', 'fury', 'protection'] },
};

/** Options that start a new actor scope (contract §1.6; profileset.cpp is_actor_scope). */
export const ACTOR_SCOPE = [
  ...Object.keys(CLASSES),
  'player_simplified',
  'enemy',
  'tank_dummy',
  'pet',
  'guardian',
  'copy',
  'armory',
  'local_json',
  'guild',
];

export const FIGHT_STYLES = {
  patchwerk: { name: 'Patchwerk', factor: 1.0 },
  castingpatchwerk: { name: 'CastingPatchwerk', factor: 0.97 },
  hecticaddcleave: { name: 'HecticAddCleave', factor: 1.35 },
  dungeonslice: { name: 'DungeonSlice', factor: 1.2, maxTime: 360, optimalRaid: 0 },
  dungeonroute: { name: 'DungeonRoute', factor: 1.25 },
  cleaveadd: { name: 'CleaveAdd', factor: 1.1 },
  cleave_add: { name: 'CleaveAdd', factor: 1.1 },
  lightmovement: { name: 'LightMovement', factor: 0.96 },
  heavymovement: { name: 'HeavyMovement', factor: 0.86 },
  beastlord: { name: 'Beastlord', factor: 1.15, deprecated: true },
  helterskelter: { name: 'HelterSkelter', factor: 0.9, deprecated: true },
  helter_skelter: { name: 'HelterSkelter', factor: 0.9, deprecated: true },
  ultraxion: { name: 'Ultraxion', factor: 0.9, deprecated: true, maxTime: 366 },
};

/** Profileset metrics: abbreviation → long name (long names unverified, see README). */
export const METRICS = {
  dps: 'Damage per Second',
  dpse: 'Damage per Second (Effective)',
  hps: 'Healing per Second',
  hpse: 'Healing per Second (Effective)',
  aps: 'Absorb per Second',
  haps: 'Healing + Absorb per Second',
  dpsp: 'Damage per Second to Priority Target/Boss',
  dtps: 'Damage Taken per Second',
  dmg_taken: 'Damage Taken',
  htps: 'Healing Taken per Second',
  deaths: 'Deaths',
  time: 'Fight Length',
  raid_dps: 'Raid Damage per Second',
};

export const JSON_VERSIONS = ['3.0.0-alpha1', '2.0.0'];

const TANK_SPECS = new Set(['blood', 'vengeance', 'guardian', 'brewmaster', 'protection']);
export const GEAR_SLOTS = [
  'head',
  'neck',
  'shoulders',
  'shirt',
  'chest',
  'waist',
  'legs',
  'feet',
  'wrists',
  'hands',
  'finger1',
  'finger2',
  'trinket1',
  'trinket2',
  'back',
  'main_hand',
  'off_hand',
  'tabard',
  'ranged',
];
const SLOT_ALIASES = { shoulder: 'shoulders', wrist: 'wrists', mainhand: 'main_hand', offhand: 'off_hand' };

// Actor options the stand-in knows by name (anything containing '.' is accepted too, e.g. actions.x,
// midnight.foo). Others given while an actor is active fall through to the sim table.
const ACTOR_OPTIONS = new Set([
  'spec',
  'level',
  'race',
  'role',
  'position',
  'talents',
  'class_talents',
  'spec_talents',
  'hero_talents',
  'talent_override',
  'professions',
  'profession',
  'potion',
  'flask',
  'food',
  'augmentation',
  'rune',
  'temporary_enchant',
  'source',
  'origin',
  'region',
  'server',
  'thumbnail',
  'id',
  'timeofday',
  'zandalari_loa',
  'vulpera_tricks',
  'earthen_mineral',
  'set_bonus',
  'bugs',
  'ready_trigger',
  'skill',
  'distance',
  'quiet',
  'sleeping',
  'scale_player',
  'invert_scaling',
  'save',
  'save_gear',
  'save_talents',
  'save_actions',
  'actions',
  'items',
  'world_lag',
  'world_lag_stddev',
  'brain_lag',
  'brain_lag_stddev',
  'reaction_time',
  'target',
  'use_item_verification',
  'stat_timelines',
  'dps_plot',
  'covenant',
  'soulbind',
  'renown',
  'azerite_override',
  'shadowlands',
  'dragonflight',
  'thewarwithin',
  'midnight',
  'apl_variable',
  'enchant_strength',
  'enchant_agility',
  'enchant_stamina',
  'enchant_intellect',
  'enchant_crit_rating',
  'enchant_haste_rating',
  'enchant_mastery_rating',
  'enchant_versatility_rating',
  'gear_strength',
  'gear_agility',
  'gear_stamina',
  'gear_intellect',
  'gear_crit_rating',
  'gear_haste_rating',
  'gear_mastery_rating',
  'gear_versatility_rating',
  'gear_armor',
  'gear_leech_rating',
  'gear_speed_rating',
  'gear_avoidance_rating',
  'meta_gem',
  'cooldowns',
  'health',
  'name',
  'major_power',
  'minor_power',
  ...GEAR_SLOTS,
  ...Object.keys(SLOT_ALIASES),
]);

// Sim options accepted silently (no effect on the stand-in). The rest of the sim table is in SIM_OPTIONS.
const SIM_IGNORED = new Set([
  'analyze_error_interval_max',
  'process_priority',
  'thread_priority',
  'cleanup_threads',
  'target_error_role',
  'queue_lag',
  'queue_lag_stddev',
  'gcd_lag',
  'gcd_lag_stddev',
  'channel_lag',
  'channel_lag_stddev',
  'queue_gcd_reduction',
  'strict_gcd_queue',
  'world_lag',
  'world_lag_stddev',
  'travel_variance',
  'default_skill',
  'reaction_time',
  'regen_periodicity',
  'ignite_sampling_delta',
  'optimize_expressions',
  'stat_cache',
  'max_aoe_enemies',
  'enemy_death_pct',
  'challenge_mode',
  'timewalk',
  'pvp_mode',
  'rng',
  'average_range',
  'average_gauss',
  'default_aura_delay',
  'default_aura_delay_stddev',
  'raid_events',
  'target_health',
  'target_level',
  'target_race',
  'target_name',
  'bloodlust_percent',
  'bloodlust_time',
  'display_build',
  'show_hotfixes',
  'show_bonus_ids',
  'decorated_tooltips',
  'chart_show_relative_difference',
  'chart_boxplot_percentile',
  'report_precision',
  'report_pets_separately',
  'report_targets',
  'report_raw_abilities',
  'report_rng',
  'statistics_level',
  'separate_stats_by_actions',
  'report_raid_summary',
  'monitor_cpu',
  'apikey',
  'apitoken',
  'default_actions',
  'default_region',
  'default_server',
  'http_clear_cache',
  'cache_players',
  'cache_items',
  'buff_uptime_timeline',
  'buff_stack_uptime_timeline',
  'talent_format',
  'proxy',
  'item_db_source',
  'allow_potions',
  'allow_food',
  'allow_flasks',
  'allow_augmentations',
  'solo_raid',
  'normalize_scale_factors',
  'scale_only',
  'scale_over',
  'scale_delta_multiplier',
  'positive_scale_delta',
  'center_scale_delta',
  'scale_lag',
  'dps_plot_stat',
  'dps_plot_points',
  'dps_plot_step',
  'dps_plot_iterations',
  'dps_plot_target_error',
  'reforge_plot_stat',
  'reforge_plot_amount',
  'reforge_plot_step',
  'reforge_plot_iterations',
  'reforge_plot_output_file',
  'save_prefix',
  'save_suffix',
  'save_talent_str',
  'save_raid_summary',
  'save_profiles',
  'save_profile_with_actions',
  'maximize_reporting',
  'report_iteration_data',
  'ilevel_raid_report',
  'distance_targeting_enabled',
  'enable_dps_healing',
  'scaling_normalized',
  'global_item_upgrade_level',
  'spell_query_xml_output_file',
  'spell_query_level',
  'auto_ready_trigger',
  'use_optimal_buffs_and_debuffs',
  'fixed_time_health',
  'ignore_invulnerable_targets',
  'enemy_health',
  'desired_targets_max',
  'profileset_output_data',
  'profileset_init_threads',
  'party',
  'active',
  'log',
  'debug',
  'debug_each',
  'debug_seed',
  'hosted_html',
  'json_full_states',
  'reference_player',
  'raid_events+',
]);

const SIM_PREFIXES = ['override.', 'bfa.', 'shadowlands.', 'dragonflight.', 'thewarwithin.', 'midnight.', 'legion.'];

// ------------------------------------------------------------------------------------------------
// value converters, with simc's messages

function toInt(v) {
  if (v === '') return 0;
  const m = /^\s*[+-]?\d+/.exec(v);
  if (!m) throw fail('stoi');
  return Number.parseInt(m[0], 10);
}
function toFloat(v) {
  if (v === '') return 0;
  const m = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(v);
  if (!m) throw fail('stod');
  return Number.parseFloat(m[0]);
}
function toUint64(v) {
  if (v === '') return 0n;
  const m = /^\s*\+?\d+/.exec(v);
  if (!m) throw fail('stoull');
  const n = BigInt(m[0].trim());
  if (n > 0xffffffffffffffffn) throw fail('stoull');
  return n;
}
function toBool(name, v) {
  if (v !== '0' && v !== '1') throw fail(`Acceptable values for '${name}' are '1' or '0'`);
  return v === '1' ? 1 : 0;
}
function checkRange(name, raw, n, min, max) {
  if (n < min || n > max) {
    const fmt = (x) => (x === Infinity ? 'inf' : String(x));
    throw fail(`Option '${name}' with value '${raw}' not within valid boundaries [${fmt(min)}..${fmt(max)}]`);
  }
  return n;
}

// semver helpers for json=...,version=<range>
function parseVer(v) {
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?$/.exec(v);
  if (!m) return null;
  return {
    major: +m[1],
    minor: m[2] === undefined ? null : +m[2],
    patch: m[3] === undefined ? null : +m[3],
    pre: m[4] ?? '',
  };
}
function cmpVer(a, b) {
  for (const k of ['major', 'minor', 'patch']) {
    const d = (a[k] ?? 0) - (b[k] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (a.pre === b.pre) return 0;
  if (a.pre === '') return 1;
  if (b.pre === '') return -1;
  return a.pre < b.pre ? -1 : 1;
}
function satisfies(version, range) {
  const v = parseVer(version);
  return range
    .trim()
    .split(/\s+/)
    .every((part) => {
      const m = /^(>=|<=|>|<|=|\^|~)?v?(.+)$/.exec(part);
      if (!m) return false;
      const op = m[1] ?? '';
      const r = parseVer(m[2]);
      if (!r) return false;
      const partial = r.minor === null || r.patch === null;
      const c = cmpVer(v, r);
      switch (op) {
        case '>=':
          return c >= 0;
        case '>':
          return c > 0;
        case '<=':
          return c <= 0;
        case '<':
          return c < 0;
        case '^':
          return v.major === r.major && c >= 0;
        case '~':
          return v.major === r.major && v.minor === (r.minor ?? v.minor) && c >= 0;
        default:
          if (partial) return v.major === r.major && (r.minor === null || v.minor === r.minor);
          return c === 0;
      }
    });
}

function parseJsonReport(sim, value) {
  const parts = value.split(',');
  if (parts.length === 0 || parts[0] === '') {
    throw fail('Cannot generate JSON report with no destination. Please specify a value after json=');
  }
  const entry = { file: parts[0], version: '', pretty: false, fullStates: false, decimalPlaces: 0 };
  for (const part of parts.slice(1)) {
    const kv = part.split('=');
    if (kv.length !== 2) continue;
    const [k, v] = kv;
    if (k === 'version') entry.version = v;
    else if (k === 'full_states') entry.fullStates = toInt(v) !== 0;
    else if (k === 'pretty_print') entry.pretty = toInt(v) !== 0;
    else if (k === 'decimal_places') entry.decimalPlaces = toInt(v);
  }
  const requested = entry.version;
  const match = requested === '' ? JSON_VERSIONS[0] : JSON_VERSIONS.find((ver) => satisfies(ver, requested));
  if (!match) {
    throw fail(
      `Cannot generate JSON report with version ${requested}. Available non-deprecated versions: ${JSON_VERSIONS.join(' / ')}.`,
    );
  }
  entry.version = match;
  sim.jsonReports.push(entry);
  return true;
}

// name → handler(sim, name, value) returning true (ok) or false (function option rejected the value)
const SIM_OPTIONS = {
  iterations: (s, n, v) => ((s.iterations = toInt(v)), true),
  threads: (s, n, v) => ((s.threads = toInt(v)), true),
  target_error: (s, n, v) => ((s.target_error = toFloat(v)), true),
  analyze_error_interval: (s, n, v) => ((s.analyze_error_interval = toInt(v)), true),
  max_time: (s, n, v) => ((s.max_time = checkRange(n, v, toFloat(v), 0, Infinity)), true),
  fixed_time: (s, n, v) => ((s.fixed_time = toBool(n, v)), true),
  vary_combat_length: (s, n, v) => ((s.vary_combat_length = checkRange(n, v, toFloat(v), 0, 1)), true),
  confidence: (s, n, v) => ((s.confidence = checkRange(n, v, toFloat(v), 0, 1)), true),
  seed: (s, n, v) => ((s.seed = toUint64(v)), true),
  deterministic: (s, n, v) => ((s.deterministic = toInt(v)), true),
  strict_parsing: (s, n, v) => ((s.strict_parsing = toBool(n, v)), true),
  progressbar_type: (s, n, v) => ((s.progressbar_type = toInt(v)), true),
  report_progress: (s, n, v) => ((s.report_progress = toInt(v)), true),
  json: (s, n, v) => parseJsonReport(s, v),
  json2: (s, n, v) => parseJsonReport(s, `${v},version=2`),
  html: (s, n, v) => ((s.html_file = v), true),
  output: (s, n, v) => ((s.output_file = v), true),
  xml: undefined, // not an option on current builds (contract §1.2) → unknown-option path
  report_details: (s, n, v) => ((s.report_details = toBool(n, v)), true),
  single_actor_batch: (s, n, v) => ((s.single_actor_batch = toBool(n, v)), true),
  optimal_raid: (s, n, v) => ((s.optimal_raid = toInt(v)), true),
  desired_targets: (s, n, v) => ((s.desired_targets = checkRange(n, v, toInt(v), 1, 200)), true),
  calculate_scale_factors: (s, n, v) => ((s.calculate_scale_factors = toBool(n, v)), true),
  ptr: (s, n, v) => ((s.ptr = toInt(v) !== 0 ? 1 : 0), true),
  fight_style: (s, n, v) => {
    const style = FIGHT_STYLES[v.toLowerCase()];
    if (!style) throw fail(`Invalid fight style ${v}`);
    s.fight_style = style.name;
    return true;
  },
  profileset_main_actor_index: (s, n, v) => (
    (s.profileset_main_actor_index = checkRange(n, v, toInt(v), 0, 4294967295)),
    true
  ),
  profileset_report_player_index: (s, n, v) => (
    (s.profileset_report_player_index = checkRange(n, v, toInt(v), 0, 4294967295)),
    true
  ),
  profileset_multiactor_base_name: (s, n, v) => ((s.profileset_multiactor_base_name = v), true),
  profileset_work_threads: (s, n, v) => ((s.profileset_work_threads = toInt(v)), true),
  profileset_metric: (s, n, v) => {
    const list = [];
    for (const m of v.split(/[/:,]/)) {
      const key = m.toLowerCase();
      if (!(key in METRICS)) {
        s.warn(`Invalid profileset metric '${m}'`);
        return false;
      }
      list.push(key);
    }
    if (list.length === 0) return false;
    s.profileset_metric = list;
    return true;
  },
};

/** A fresh sim with simc's defaults (values the stand-in reports). */
export function createSim(env = process.env) {
  const sim = {
    iterations: 0,
    target_error: 0,
    threads: 0,
    analyze_error_interval: 100,
    max_time: 300,
    vary_combat_length: 0.2,
    fixed_time: 1,
    confidence: 0.95,
    seed: 0n,
    deterministic: 0,
    strict_parsing: 0,
    progressbar_type: 0,
    report_progress: 1,
    jsonReports: [],
    html_file: '',
    output_file: '',
    report_details: 1,
    single_actor_batch: 0,
    optimal_raid: 1,
    desired_targets: 1,
    calculate_scale_factors: 0,
    ptr: 0,
    fight_style: 'Patchwerk',
    profileset_main_actor_index: 0,
    profileset_report_player_index: 0,
    profileset_multiactor_base_name: 'Baseline',
    profileset_work_threads: 0,
    profileset_metric: ['dps'],
    /** @type {Map<string, string[]>} profileset name → option strings, in input order */
    profilesets: new Map(),
    actors: [],
    /** stand-in knobs (fake.*) given outside any actor block */
    fake: {},
    /** warnings, in order (JSON `notifications`) */
    notifications: [],
    warn(msg) {
      const line = msg.replace(/\n/g, '');
      this.notifications.push(line);
      this.onWarning?.(line);
    },
    env,
  };
  return sim;
}

// Per-actor stand-in knobs; every other fake.* key is sim-wide wherever it appears.
const ACTOR_DIRECTIVES = new Set(['dps', 'noise']);

function normalizeName(name) {
  return name.endsWith('+') ? { base: name.slice(0, -1), append: true } : { base: name, append: false };
}

function isActorOption(base) {
  return ACTOR_OPTIONS.has(base) || base.includes('.') || /^actions/.test(base);
}

function createActor(sim, kind, cls, name, tupleIndex) {
  if (/^[0-9]/.test(name)) throw fail(`Invalid actor name '${name}' - name cannot start with a digit.`);
  const actor = { kind, cls, name, options: [], fake: {}, lines: [`${cls}=${name}`], tupleIndex };
  sim.actors.push(actor);
  return actor;
}

/**
 * Replay option tuples. Throws ChainError (without the outer "Setup failure" context).
 * @param {{name: string, value: string, directive?: boolean}[]} tuples
 */
export function setup(tuples, { env = process.env, isProfileset = false, onWarning } = {}) {
  const sim = createSim(env);
  sim.onWarning = onWarning;
  sim.tuples = tuples;
  // strict_parsing is honoured for the whole input (stand-in choice, see README).
  for (const t of tuples)
    if (t.name === 'strict_parsing' && (t.value === '0' || t.value === '1')) sim.strict_parsing = +t.value;

  let active = null;
  tuples.forEach((t, index) => {
    const { name, value } = t;
    if (t.directive) {
      const key = name.slice('fake.'.length);
      if (active && ACTOR_DIRECTIVES.has(key)) active.fake[key] = value;
      else sim.fake[key] = value;
      return;
    }
    try {
      // profilesets: opt_map_list "profileset." — key is the text after the last '.'
      if (name.startsWith('profileset.')) {
        const { base, append } = normalizeName(name);
        const dot = base.lastIndexOf('.');
        const key = base.slice(dot + 1);
        if (dot === 'profileset'.length && key.length > 0) {
          if (isProfileset) return; // profileset options of a profileset sim are not replayed
          const list = append ? (sim.profilesets.get(key) ?? []) : [];
          if (value !== '') list.push(value);
          sim.profilesets.set(key, list);
          return;
        }
      }
      if (ACTOR_SCOPE.includes(name)) {
        active = parsePlayer(sim, name, value, active, index);
        return;
      }
      const { base, append } = normalizeName(name);
      if (active && isActorOption(base)) {
        applyActorOption(active, base, value, append);
        return;
      }
      const handler = Object.hasOwn(SIM_OPTIONS, base) ? SIM_OPTIONS[base] : undefined;
      if (handler) {
        if (!handler(sim, base, value)) throw fail(`Unknown option '${name}' with value '${value}'.`);
        return;
      }
      if (SIM_IGNORED.has(name) || SIM_IGNORED.has(base) || SIM_PREFIXES.some((p) => name.startsWith(p))) return;
      if (sim.strict_parsing) throw fail(`Unknown option '${name}' with value '${value}'.`);
      sim.warn(`Warning: Unknown option '${name}' with value '${value}', ignoring`);
    } catch (err) {
      if (err instanceof ChainError && err.chain[0]?.startsWith('Unknown option')) throw err;
      throw nest(`Option '${name}' with value '${value}'`, err);
    }
  });

  const players = sim.actors.filter((a) => a.kind === 'player');
  if (players.length === 0) throw fail('Nothing to sim!');

  // Duplicate names are renamed with a warning (sim_t::init_actors).
  let number = 1;
  for (let j = 0; j < players.length; j++) {
    for (let i = 0; i < players.length; i++) {
      if (i !== j && players[j].name === players[i].name) {
        sim.warn(
          `${players[j].name} has duplicate name, renaming to ${players[j].name}${number}. Please use unique names for all players in simulation.`,
        );
        players[j].name += String(number);
        number++;
      }
    }
  }

  const style = FIGHT_STYLES[sim.fight_style.toLowerCase()];
  if (style.deprecated) sim.warn(`Fight style ${style.name} is currently unsupported, use with caution!`);
  if (style.maxTime) sim.max_time = style.maxTime;
  if (style.optimalRaid !== undefined) sim.optimal_raid = style.optimalRaid;
  for (const p of players) finishActor(sim, p);
  return sim;
}

function parsePlayer(sim, name, value, active, index) {
  if (name === 'copy') {
    const cut = value.indexOf(',');
    const target = cut < 0 ? value : value.slice(0, cut);
    let source = active;
    if (cut < 0) {
      if (!source) throw fail('No active player as source for profile copy available - format is copy=target[,source]');
    } else {
      const srcName = value.slice(cut + 1);
      source = [...sim.actors].reverse().find((a) => a.name === srcName && a.kind === 'player');
      if (!source)
        throw fail(
          `Invalid source for profile copy - format is copy=target[,source]: Cannot find player '${srcName}'.`,
        );
    }
    const actor = createActor(sim, 'player', source.cls, target, index);
    actor.options = source.options.map((o) => ({ ...o }));
    actor.fake = { ...source.fake };
    actor.lines = [`${source.cls}=${target}`, ...source.lines.slice(1)];
    actor.copiedFrom = source.name;
    return actor;
  }
  if (name === 'pet' || name === 'guardian') {
    if (!active) throw fail(`Pet profile (${name}) needs a player preceding it.`);
    const cut = value.indexOf(',');
    return createActor(sim, 'pet', name, cut < 0 ? value : value.slice(cut + 1), index);
  }
  if (name === 'enemy' || name === 'tank_dummy') return createActor(sim, 'enemy', name, value, index);
  if (name === 'armory' || name === 'guild' || name === 'local_json' || name === 'player_simplified') {
    throw fail(`The stand-in simc cannot import characters ('${name}'): BCP API: Could not download player.`);
  }
  return createActor(sim, 'player', name, value, index);
}

function applyActorOption(actor, base, value, append) {
  const slot = SLOT_ALIASES[base] ?? base;
  if (slot === 'level') {
    const n = toInt(value);
    checkRange('level', value, n, 0, MAX_LEVEL);
  }
  actor.lines.push(`${base}${append ? '+' : ''}=${value}`);
  const existing = actor.options.find((o) => o.name === slot);
  if (existing && append) existing.value += value;
  else if (existing) existing.value = value;
  else actor.options.push({ name: slot, value });
}

function finishActor(sim, actor) {
  const get = (n) => actor.options.find((o) => o.name === n)?.value;
  const cls = CLASSES[actor.cls];
  const spec = (get('spec') ?? cls.specs[0]).toLowerCase();
  actor.spec = spec;
  actor.specialization = `${spec
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')} ${cls.display}`;
  actor.level = get('level') !== undefined ? toInt(get('level')) : MAX_LEVEL;
  actor.race = get('race') ?? 'none';
  actor.role = (get('role') ?? 'auto').toLowerCase();
  actor.talents = get('talents') ?? '';
  actor.isTankSpec = TANK_SPECS.has(spec);
  actor.gear = GEAR_SLOTS.filter((s) => get(s)).map((s) => ({ slot: s, value: get(s) }));
}

// ------------------------------------------------------------------------------------------------
// profilesets (profileset.cpp create_sim_options + validation)

function isActorScope(t) {
  return !t.directive && ACTOR_SCOPE.some((n) => n.toLowerCase() === t.name.toLowerCase());
}

function overridable(t) {
  return !/^(actions|items|raid_events|class_talents|spec_talents|hero_talents)/.test(t.name) && !t.value.includes('=');
}

/**
 * Build and validate every profileset sim. Returns [{ name, sim, psTuples }] in input order.
 * Throws ChainError "Profileset '<name>': ..." for the first bad one.
 */
export function buildProfilesets(base, { cwd, env }) {
  const original = base.tuples.filter((t) => !t.name.startsWith('profileset.'));
  const actorIdx = [];
  original.forEach((t, i) => {
    if (isActorScope(t)) actorIdx.push(i);
  });
  const out = [];
  for (const [name, opts] of base.profilesets) {
    let tuples;
    let psTuples;
    try {
      try {
        if (actorIdx.length === 0) throw fail('No start of player-scope defined for this simulation.');
        const main = base.profileset_main_actor_index;
        if (main >= actorIdx.length) {
          throw fail(`'profileset_main_actor_index=${main}' out of range, only ${actorIdx.length} actors are defined.`);
        }
        const db = new OptionDb({ cwd });
        db.parseArgs(opts);
        psTuples = db.tuples;
        const copy = original.map((t) => ({ ...t }));
        const start = actorIdx[main];
        const end = main + 1 < actorIdx.length ? actorIdx[main + 1] : copy.length;
        const appended = [];
        for (const t of psTuples) {
          if (isActorScope(t)) throw fail(`Profilesets cannot define additional actors '${t.name}=${t.value}'.`);
          if (!overridable(t)) {
            appended.push(t);
            continue;
          }
          let found = -1;
          for (let i = end - 1; i >= start; i--) {
            if (copy[i].name === t.name) {
              found = i;
              break;
            }
          }
          if (found >= 0) copy[found].value = t.value;
          else appended.push(t);
        }
        copy.splice(end, 0, ...appended);
        tuples = copy;
      } catch (err) {
        throw nest('Invalid profileset option', err);
      }
      const sim = setup(tuples, { env, isProfileset: true });
      out.push({ name, sim, psTuples, options: opts });
    } catch (err) {
      throw nest(`Profileset '${name}'`, err);
    }
  }
  return out;
}

export { chainOf };
