// Reports of the stand-in simc: json (report_version 2.0.0 / 3.0.0-alpha1), text, html.
// Key names and nesting follow the real json2 fixture and contract §4; the numbers are synthetic.

import { METRICS, CLASSES } from './setup.mjs';

export const STAND_IN_NOTICE =
  'SYNTHETIC NUMBERS from the stand-in simc (simjob test/fake-simc) - this is NOT a SimulationCraft simulation result.';

// ---------------------------------------------------------------- JSON writer (RapidJSON-like)

/** A double: written with a trailing ".0" when integral, like RapidJSON. */
export class Dbl {
  constructor(x) {
    this.x = x;
  }
}
/** A literal written verbatim (uint64 seed). */
export class Raw {
  constructor(text) {
    this.text = text;
  }
}
export const d = (x) => new Dbl(x);

export class WriterError extends Error {}

function fmtDouble(x) {
  if (!Number.isFinite(x)) throw new WriterError('JSON Writer did not accept document.');
  if (Number.isInteger(x) && Math.abs(x) < 1e17) return x.toFixed(1);
  return String(x).replace('e+', 'e');
}

function str(s) {
  return JSON.stringify(s);
}

/** Serialize; compact (one line) unless pretty (4-space indent, like RapidJSON's PrettyWriter). */
export function serialize(value, pretty = false, indent = '') {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Dbl) return fmtDouble(value.x);
  if (value instanceof Raw) return value.text;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new WriterError('JSON Writer did not accept document.');
    return Number.isInteger(value) ? String(value) : fmtDouble(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return str(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => serialize(v, pretty, inner));
    return pretty ? `[\n${items.map((i) => inner + i).join(',\n')}\n${indent}]` : `[${items.join(',')}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  const items = entries.map(([k, v]) => `${str(k)}:${pretty ? ' ' : ''}${serialize(v, pretty, inner)}`);
  return pretty ? `{\n${items.map((i) => inner + i).join(',\n')}\n${indent}}` : `{${items.join(',')}}`;
}

// ---------------------------------------------------------------- sample objects

/** Basic sample {sum,count,mean,min,max}; `withMinMax=false` → {sum,count,mean} (simc "simple" samples). */
function basic(a, withMinMax = true) {
  const o = { sum: d(a.sum), count: a.count, mean: d(a.mean) };
  if (withMinMax) Object.assign(o, { min: d(a.min), max: d(a.max) });
  return o;
}
function extended(a) {
  return {
    ...basic(a),
    median: d(a.median),
    variance: d(a.variance),
    std_dev: d(a.std_dev),
    mean_variance: d(a.mean_variance),
    mean_std_dev: d(a.mean_std_dev),
  };
}
/** add_non_zero: leave the sample out when its mean is 0. */
function nz(obj, key, a, fn) {
  if (a && a.mean !== 0) obj[key] = fn(a);
}

// ---------------------------------------------------------------- pieces

function dbcJson(vinfo, ptr) {
  return {
    Live: {
      build_level: vinfo.build,
      wow_version: vinfo.wowVersion,
      hotfix_date: '2026-03-10',
      hotfix_build: vinfo.build,
      hotfix_hash: 'standin0000000000000000000000000000000000000000000000000000000000',
    },
    PTR: {
      build_level: vinfo.build,
      wow_version: vinfo.wowVersion,
      hotfix_date: '2026-03-10',
      hotfix_build: vinfo.build,
      hotfix_hash: 'standin0000000000000000000000000000000000000000000000000000000000',
    },
    version_used: ptr ? 'PTR' : 'Live',
  };
}

const RESOURCE_BY_CLASS = {
  mage: ['mana', 5000],
  priest: ['mana', 5000],
  warlock: ['mana', 5000],
  shaman: ['mana', 5000],
  druid: ['mana', 5000],
  paladin: ['mana', 5000],
  evoker: ['mana', 5000],
  monk: ['energy', 10],
  rogue: ['energy', 10],
  hunter: ['focus', 5],
  deathknight: ['rune', 0],
  demonhunter: ['fury', 0],
  warrior: ['rage', 0],
};

function timeline(rng, mean, noise, seconds) {
  const data = [];
  for (let i = 0; i < seconds; i++) data.push(d(Math.max(0, mean * (1 + 3 * noise * (rng() * 2 - 1)))));
  const vals = data.map((x) => x.x);
  const m = vals.reduce((a, b) => a + b, 0) / Math.max(1, vals.length);
  const sd = Math.sqrt(vals.reduce((a, b) => a + (b - m) * (b - m), 0) / Math.max(1, vals.length));
  // reduce, not Math.min(...vals): a spread of a long timeline overflows the stack (Node 24 has the smaller margin).
  const min = vals.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
  const max = vals.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  return { mean: d(m), mean_std_dev: d(sd), min: d(min), max: d(max), data };
}

function gearJson(actor) {
  const gear = {};
  for (const { slot, value } of actor.gear) {
    const parts = value.split(',');
    const ilevel = Number(/(?:^|,)ilevel=(\d+)/.exec(value)?.[1] ?? 250);
    gear[slot] = { name: parts[0] || 'empty', encoded_item: value.replace(/^,/, ''), ilevel };
  }
  return gear;
}

function playerJson(ctx, actor, res, { enemy = false } = {}) {
  const { sim, vinfo } = ctx;
  const get = (n) => actor.options?.find((o) => o.name === n)?.value;
  const p = {
    name: actor.name,
    race: enemy ? 'humanoid' : actor.race,
    level: enemy ? actor.level : actor.level,
    role: enemy ? 'auto' : actor.role,
    specialization: enemy ? 'Unknown' : actor.specialization,
    profile_source: get('source') === 'blizzard' ? 'blizzard' : 'default',
    talents: enemy ? '' : actor.talents,
    party: 0,
    ready_type: 0,
    bugs: true,
    valid_fight_style: true,
    scale_player: true,
    potion_used: false,
    timeofday: /^day/i.test(get('timeofday') ?? '') ? 'DAY_TIME' : 'NIGHT_TIME',
    zandalari_loa: 'paku',
    vulpera_tricks: 'corrosive',
    earthen_mineral: 'ruby',
  };
  if (enemy) Object.assign(p, { death_pct: d(0), height: d(0), combat_reach: d(4) });
  Object.assign(p, {
    invert_scaling: 0,
    reaction_offset: d(0.1),
    reaction_max: d(1.4000000000000001),
    reaction_mean: d(0.25),
    reaction_stddev: d(0.05),
    reaction_nu: d(0.15),
    world_lag: d(0.1),
    world_lag_stddev: d(0.01),
    brain_lag: d(0),
    brain_lag_stddev: d(0),
    dbc: dbcJson(vinfo, sim.ptr),
  });
  const resource = enemy ? null : RESOURCE_BY_CLASS[actor.cls];
  if (resource && resource[1] > 0) p[`base_${resource[0]}_regen_per_second`] = d(resource[1]);
  Object.assign(p, {
    potion: get('potion') ?? '',
    flask: get('flask') ?? '',
    food: get('food') ?? '',
    augmentation: get('augmentation') ?? '',
    temporary_enchant: get('temporary_enchant') ?? '',
  });
  if (!enemy && res.scaleFactors) {
    p.scale_factors = Object.fromEntries(Object.entries(res.scaleFactors).map(([k, v]) => [k, d(v)]));
    p.scale_factors_all = { dps: p.scale_factors };
    const deltaOf = (k) => res.scaleDeltas ?? (k === 'Int' || k === 'Agi' || k === 'Str' ? 1500 : 1000);
    p.scale_deltas = Object.fromEntries(Object.keys(res.scaleFactors).map((k) => [k, d(deltaOf(k))]));
  }

  const cd = {};
  if (enemy) {
    nz(cd, 'fight_length', res.len, basic);
    cd.buffed_stats = { attribute: {}, resources: { health: d(1e9) }, stats: { armor: d(42857) } };
  } else {
    const m = res.metrics;
    nz(cd, 'fight_length', res.len, basic);
    nz(cd, 'executed_foreground_actions', res.actions, basic);
    const dmg = res.dmg;
    nz(cd, 'dmg', dmg, basic);
    nz(cd, 'compound_dmg', dmg, basic);
    if (m.dps && m.dps.mean !== 0)
      cd.timeline_dmg = timeline(res.rand, m.dps.mean, res.noise, Math.ceil(res.len.max || 0));
    if (sim.desired_targets > 1) nz(cd, 'prioritydps', m.dps, extended);
    nz(cd, 'dps', m.dps, extended);
    nz(cd, 'dpse', m.dps, basic);
    if (actor.role === 'tank' || actor.role === 'heal') {
      const zero = {
        sum: 0,
        count: res.len.count,
        mean: 0,
        min: 0,
        max: 0,
        median: 0,
        variance: 0,
        std_dev: 0,
        mean_variance: 0,
        mean_std_dev: 0,
      };
      const hps = m.hps ?? zero;
      if (actor.role === 'tank') {
        cd.dtps = extended(m.dtps ?? zero);
        cd.timeline_dmg_taken = timeline(res.rand, (m.dtps ?? zero).mean, res.noise, Math.ceil(res.len.max || 0));
        cd.deaths = extended(zero);
        cd.max_spike_amount = extended(zero);
      }
      cd.heal = basic({
        ...hps,
        sum: hps.sum * res.len.mean,
        mean: hps.mean * res.len.mean,
        min: hps.min * res.len.mean,
        max: hps.max * res.len.mean,
      });
      cd.compound_heal = cd.heal;
      cd.hps = extended(hps);
      cd.hpse = basic(hps);
      cd.absorb = basic(m.aps ?? zero);
      cd.compound_absorb = cd.absorb;
      cd.aps = extended(m.aps ?? zero);
      if (actor.role === 'tank') {
        cd.htps = extended(hps);
        cd.heal_taken = basic(hps);
        cd.timeline_healing_taken = timeline(res.rand, hps.mean, res.noise, Math.ceil(res.len.max || 0));
        cd.atps = extended(m.aps ?? zero);
        cd.absorb_taken = basic(m.aps ?? zero);
      }
    }
    if (sim.target_error > 0 && m.dps && m.dps.count > 0) cd.target_metric = extended(m.dps);
    const primary = /mage|priest|warlock|evoker/.test(actor.cls)
      ? 'intellect'
      : /rogue|hunter|monk|demonhunter/.test(actor.cls)
        ? 'agility'
        : 'strength';
    cd.buffed_stats = {
      attribute: {
        strength: d(primary === 'strength' ? 2100 : 270),
        agility: d(primary === 'agility' ? 2100 : 423),
        stamina: d(14149),
        intellect: d(primary === 'intellect' ? 2100 : 500),
      },
      stats: {
        crit_rating: d(271),
        crit_pct: d(0.1389),
        haste_rating: d(365),
        haste_pct: d(0.1605),
        mastery_rating: d(605),
        mastery_pct: d(0.4184),
        versatility_rating: d(316),
        versatility_pct: d(0.1191),
        armor: d(388),
        dodge: d(0.03),
      },
    };
  }
  if (sim.report_details && !enemy && res.metrics.dps) {
    const [rname] = RESOURCE_BY_CLASS[actor.cls] ?? ['mana'];
    const lost = {
      ...res.actions,
      sum: res.actions.sum * 1500,
      mean: res.actions.mean * 1500,
      min: res.actions.min * 1500,
      max: res.actions.max * 1500,
    };
    cd.resource_lost = { [rname]: basic(lost) };
    cd.resource_overflowed = {
      [rname]: basic({
        ...lost,
        sum: lost.sum * 0.02,
        mean: lost.mean * 0.02,
        min: lost.min * 0.02,
        max: lost.max * 0.02,
      }),
    };
    cd.combat_end_resource = {
      [rname]: basic({ ...res.len, sum: res.len.count * 1000, mean: 1000, min: 1000, max: 1000 }),
    };
    cd.resource_timelines = { [rname]: timeline(res.rand, 1000, res.noise, Math.ceil(res.len.max || 0)) };
    const resources = { [rname]: d(1000) };
    cd.action_sequence_precombat = [];
    cd.action_sequence = [0, 1.5, 3].map((time) => ({
      time: d(time),
      id: 1,
      name: 'synthetic_attack',
      target: ctx.targets[0]?.name ?? 'Fluffy_Pillow',
      spell_name: 'Synthetic Attack (stand-in)',
      queue_failed: false,
      resources,
      resources_max: resources,
    }));
  }
  p.collected_data = cd;
  if (sim.report_details) {
    p.buffs = [];
    p.buffs_constant = [];
    p.procs = [];
    p.gains = [];
    p.stats =
      enemy || !res.metrics.dps
        ? []
        : [
            {
              id: 1,
              spell_name: 'Synthetic Attack (stand-in)',
              name: 'synthetic_attack',
              school: 'physical',
              type: 'damage',
              num_executes: basic(res.actions),
              compound_amount: d(res.dmg.mean),
            },
          ];
    p.stats_pets = {};
  }
  p.gear = enemy ? {} : gearJson(actor);
  p.custom = enemy ? {} : { stand_in_simc: STAND_IN_NOTICE, true_dps: d(res.trueDps ?? 0) };
  return p;
}

/** Numbers of one profileset metric from its analysed samples. */
export function metricData(res, metric) {
  const m = res.metrics;
  switch (metric) {
    case 'dps':
    case 'dpse':
    case 'dpsp':
      return m.dps;
    case 'hps':
    case 'hpse':
      return m.hps;
    case 'aps':
      return m.aps;
    case 'haps':
      return m.hps && m.aps
        ? {
            ...m.hps,
            mean: m.hps.mean + m.aps.mean,
            min: m.hps.min + m.aps.min,
            max: m.hps.max + m.aps.max,
            median: m.hps.median + m.aps.median,
            q1: m.hps.q1 + m.aps.q1,
            q3: m.hps.q3 + m.aps.q3,
          }
        : m.hps;
    case 'dtps':
    case 'htps':
      return metric === 'dtps' ? m.dtps : m.hps && m.dtps ? m.hps : undefined;
    case 'dmg_taken':
      return m.dtps
        ? {
            ...m.dtps,
            mean: m.dtps.mean * res.len.mean,
            min: m.dtps.min * res.len.mean,
            max: m.dtps.max * res.len.mean,
            median: m.dtps.median * res.len.mean,
            q1: m.dtps.q1 * res.len.mean,
            q3: m.dtps.q3 * res.len.mean,
            std_dev: m.dtps.std_dev * res.len.mean,
            mean_std_dev: m.dtps.mean_std_dev * res.len.mean,
          }
        : undefined;
    case 'time':
      return res.len;
    case 'raid_dps':
      return res.raidDps;
    default:
      return undefined; // deaths etc. → 0
  }
}

function resultEntry(a, ce, iterations, withIterations, metricName) {
  const z = a ?? { mean: 0, min: 0, max: 0, std_dev: 0, mean_std_dev: 0, median: 0 };
  const o = {};
  if (metricName) o.metric = metricName;
  Object.assign(o, {
    mean: d(z.mean),
    min: d(z.min),
    max: d(z.max),
    stddev: d(z.std_dev),
    mean_stddev: d(z.mean_std_dev),
    mean_error: d(z.mean_std_dev * ce),
  });
  if (z.median !== 0) Object.assign(o, { median: d(z.median), first_quartile: d(z.q1), third_quartile: d(z.q3) });
  if (withIterations) o.iterations = iterations;
  return o;
}

function profilesetsJson(ctx, v3) {
  const { sim, profilesetResults } = ctx;
  const ce = ctx.confidenceEstimator;
  const metrics = sim.profileset_metric;
  if (v3) {
    return {
      results: profilesetResults.map((ps) => ({
        name: ps.name,
        metrics: metrics.map((k) => resultEntry(metricData(ps.res, k), ce, ps.iterations, true, METRICS[k])),
      })),
    };
  }
  const results = [];
  for (const ps of profilesetResults) {
    const primary = metricData(ps.res, metrics[0]);
    if (!primary || primary.mean === 0) continue; // add nothing for a zero mean (profileset_json2)
    const o = { name: ps.name, ...resultEntry(primary, ce, ps.iterations, true) };
    if (metrics.length > 1) {
      o.additional_metrics = metrics.slice(1).map((k) => resultEntry(metricData(ps.res, k), ce, 0, false, METRICS[k]));
    }
    results.push(o);
  }
  return { metric: METRICS[metrics[0]], results };
}

/** The whole report document for one json= entry. */
export function buildJson(ctx, entry) {
  const { sim, vinfo, base } = ctx;
  const v3 = entry.version.startsWith('3');
  const doc = {};
  if (v3) doc.$id = `https://www.simulationcraft.org/reports/${entry.version}.schema.json`;
  Object.assign(doc, {
    version: vinfo.simcVersion,
    report_version: entry.version,
    ptr_enabled: 1,
    beta_enabled: 0,
    build_date: 'Mar 10 2026',
    build_time: '10:07:14',
    timestamp: Math.floor(Date.now() / 1000),
    git_revision: vinfo.gitRevision,
    git_branch: vinfo.gitBranch,
  });
  const s = {};
  const optimal = sim.optimal_raid ? 1 : 0;
  s.options = {
    debug: false,
    max_time: d(sim.max_time),
    expected_iteration_time: d(Math.round(sim.max_time * 826) / 1000),
    vary_combat_length: d(sim.vary_combat_length),
    iterations: base.totalIterations,
    target_error: d(sim.target_error),
    threads: sim.threads,
    seed: new Raw(sim.seed.toString()),
    single_actor_batch: Boolean(sim.single_actor_batch),
    queue_lag: d(0.005),
    queue_lag_stddev: d(0.001),
    gcd_lag: d(0.15),
    gcd_lag_stddev: d(0.037),
    channel_lag: d(0.25),
    channel_lag_stddev: d(0.062),
    queue_gcd_reduction: d(0.1),
    strict_gcd_queue: false,
    confidence: d(sim.confidence),
    confidence_estimator: d(ctx.confidenceEstimator),
    world_lag: d(0.1),
    world_lag_stddev: d(0.01),
    travel_variance: d(0),
    default_skill: d(1),
    reaction_time: d(0.5),
    regen_periodicity: d(0.25),
    ignite_sampling_delta: d(0.2),
    fixed_time: Boolean(sim.fixed_time),
    optimize_expressions: 2,
    optimal_raid: sim.optimal_raid,
    log: 0,
    debug_each: 0,
    stat_cache: 1,
    max_aoe_enemies: 20,
    enemy_death_pct: d(0),
    challenge_mode: false,
    timewalk: -1,
    pvp_mode: false,
    rng: { name: 'xoshiro256+' },
    deterministic: sim.deterministic,
    average_range: 1,
    average_gauss: 0,
    fight_style: sim.fight_style,
    desired_targets: sim.desired_targets,
    default_aura_delay: d(0.03),
    default_aura_delay_stddev: d(0.005),
    profileset_metric: sim.profileset_metric[0],
    profileset_multiactor_base_name: sim.profileset_multiactor_base_name,
    dbc: dbcJson(vinfo, sim.ptr),
  };
  if (sim.calculate_scale_factors) {
    s.options.scaling = { calculate_scale_factors: true, normalize_scale_factors: false };
    const scaleOnly = ctx.base.players.find((bp) => bp.res.scaleOnly)?.res.scaleOnly;
    if (scaleOnly) s.options.scaling.scale_only = scaleOnly;
  }
  const ov = {};
  if (optimal || sim.fight_style === 'DungeonSlice') {
    Object.assign(ov, { arcane_intellect: 1, battle_shout: 1, power_word_fortitude: 1 });
  }
  if (optimal) Object.assign(ov, { chaos_brand: 1, mystic_touch: 1, mortal_wounds: 1, bleeding: 1 });
  if (optimal || sim.fight_style === 'DungeonSlice') ov.bloodlust = 1;
  s.overrides = ov;
  s.players = base.players.map((pl) => playerJson(ctx, pl.actor, pl.res));
  if (ctx.profilesetResults.length > 0) s.profilesets = profilesetsJson(ctx, v3);
  s.statistics = {
    elapsed_cpu_seconds: d(ctx.elapsedCpu),
    elapsed_time_seconds: d(ctx.elapsedWall),
    init_time_seconds: d(ctx.initTime),
    merge_time_seconds: d(0.0013),
    analyze_time_seconds: d(0.0003),
    simulation_length: extended(base.simLength),
    total_events_processed: Math.round(base.totalIterations * 4163.3),
  };
  nz(s.statistics, 'raid_dps', base.raidDps, extended);
  nz(s.statistics, 'total_dmg', base.raidDmg, (a) => basic(a, false));
  if (sim.report_details) {
    s.targets = ctx.targets.map((t) => playerJson(ctx, t, { len: base.simLength }, { enemy: true }));
    s.sim_auras = [];
  }
  doc.sim = s;
  if (ctx.sim.notifications.length > 0) doc.notifications = [...ctx.sim.notifications];
  return doc;
}

// ---------------------------------------------------------------- text report

export function textReport(ctx) {
  const { sim, base } = ctx;
  const lines = [];
  lines.push('');
  lines.push(`*** ${STAND_IN_NOTICE} ***`);
  const players = base.players.filter((p) => p.res.metrics.dps);
  if (sim.report_details) {
    lines.push('', 'DPS Ranking:');
    lines.push(`${base.raidDps.mean.toFixed(0).padStart(7)} 100.0%  Raid`);
    for (const pl of [...players].sort((a, b) => b.res.metrics.dps.mean - a.res.metrics.dps.mean)) {
      const m = pl.res.metrics.dps.mean;
      const pct = base.raidDps.mean ? (100 * m) / base.raidDps.mean : 0;
      lines.push(`${m.toFixed(0).padStart(7)}  ${pct.toFixed(1).padStart(4)}%  ${pl.actor.name}`);
    }
  }
  for (const pl of [...base.players].sort((a, b) => (a.actor.name < b.actor.name ? -1 : 1))) {
    const a = pl.actor;
    lines.push('', `Player: ${a.name} ${a.race} ${a.cls} ${a.spec} ${a.level}`);
    for (const [label, key] of [
      ['DPS', 'dps'],
      ['HPS', 'hps'],
      ['DTPS', 'dtps'],
    ]) {
      const s = pl.res.metrics[key];
      if (!s || s.sum <= 0) continue;
      const err = s.mean_std_dev * ctx.confidenceEstimator;
      const range = (s.max - s.min) / 2;
      lines.push(
        `  ${label}=${s.mean} ${label}-Error=${err}/${((err * 100) / s.mean).toFixed(2)}% ${label}-Range=${range}/${((range * 100) / s.mean).toFixed(2)}%`,
      );
    }
    lines.push('');
    if (a.talents) lines.push(`  Talents: ${a.talents}`);
  }
  if (ctx.profilesetResults.length > 0) {
    lines.push('', '', `Profilesets (median ${METRICS[sim.profileset_metric[0]]}):`);
    const sorted = [...ctx.profilesetResults].sort((x, y) => {
      const a = metricData(x.res, sim.profileset_metric[0])?.median ?? 0;
      const b = metricData(y.res, sim.profileset_metric[0])?.median ?? 0;
      return a === b ? (x.name < y.name ? -1 : 1) : b - a;
    });
    for (const ps of sorted) {
      const med = metricData(ps.res, sim.profileset_metric[0])?.median ?? 0;
      lines.push(`    ${med.toFixed(3).padStart(10)} : ${ps.name}`);
    }
  }
  lines.push('', 'Baseline Performance:');
  lines.push(`  TotalEvents   = ${Math.round(base.totalIterations * 4163.3)}`);
  lines.push(`  Iterations    = ${base.totalIterations}`);
  lines.push(`  TargetError   = ${sim.target_error.toFixed(3)}%`);
  lines.push(`  SimSeconds    = ${base.simLength.sum.toFixed(3)}`);
  lines.push(`  WallSeconds   = ${ctx.elapsedWall.toFixed(3)}`);
  lines.push('', `*** ${STAND_IN_NOTICE} ***`, '');
  return lines.join('\n');
}

// ---------------------------------------------------------------- html report

const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export function htmlReport(ctx) {
  const { sim, base, vinfo } = ctx;
  const rows = base.players
    .filter((p) => p.res.metrics.dps)
    .map((p) => {
      const s = p.res.metrics.dps;
      const err = s.mean_std_dev * ctx.confidenceEstimator;
      return `<tr><td>${esc(p.actor.name)}</td><td>${esc(p.actor.specialization)}</td><td>${s.mean.toFixed(1)}</td><td>&plusmn;${err.toFixed(1)} (${((100 * err) / s.mean).toFixed(2)}%)</td><td>${s.count}</td></tr>`;
    })
    .join('\n');
  const psRows = ctx.profilesetResults
    .map((ps) => {
      const a = metricData(ps.res, sim.profileset_metric[0]);
      return `<tr><td>${esc(ps.name)}</td><td>${a ? a.median.toFixed(1) : '0'}</td><td>${a ? a.mean.toFixed(1) : '0'}</td><td>${ps.iterations}</td></tr>`;
    })
    .join('\n');
  const notes = sim.notifications.map((n) => `<li>${esc(n)}</li>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>STAND-IN simc report (synthetic numbers)</title>
<style>
body { font-family: sans-serif; margin: 2em; color: #222; }
.standin { border: 4px solid #c00; background: #fee; padding: 1em; font-size: 1.3em; font-weight: bold; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #999; padding: .3em .8em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
</style>
</head>
<body>
<div class="standin">${esc(STAND_IN_NOTICE)}<br>Produced by simjob's test stand-in for SimulationCraft; nothing here was simulated.</div>
<h1>Stand-in simc report</h1>
<p>${esc(vinfo.line)} &mdash; imitated by the stand-in.</p>
<p>fight_style=${esc(sim.fight_style)}, max_time=${sim.max_time}, iterations=${base.totalIterations}, threads=${sim.threads}, target_error=${sim.target_error}, seed=${sim.seed}</p>
<h2>Players (synthetic DPS)</h2>
<table><tr><th>Name</th><th>Spec</th><th>DPS</th><th>Error</th><th>Samples</th></tr>
${rows}
</table>
${
  ctx.profilesetResults.length
    ? `<h2>Profile sets (synthetic ${esc(METRICS[sim.profileset_metric[0]])})</h2>
<table><tr><th>Name</th><th>Median</th><th>Mean</th><th>Iterations</th></tr>
${psRows}
</table>`
    : ''
}
${notes ? `<h2>Notifications</h2><ul>${notes}</ul>` : ''}
<div class="standin">${esc(STAND_IN_NOTICE)}</div>
</body>
</html>
`;
}

export { CLASSES };
