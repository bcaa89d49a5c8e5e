// Synthetic "simulation" of the stand-in simc: seeded RNG, per-iteration samples, target_error stopping,
// progress lines (contract §1.4, §3.4; progress_bar.cpp formats). Nothing here simulates World of Warcraft.

import { FIGHT_STYLES } from './setup.mjs';
import { ARMOR_SLOTS, CLASS_ARMOR, ITEMS, PRIMARY_SLOT_SHARE, itemIdOf, primaryOf, slotName } from './facts.mjs';

// ---------------------------------------------------------------- hashing / true DPS

/** FNV-1a 64-bit of a UTF-8 string, as a BigInt. */
export function fnv1a64(text) {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h;
}

/** splitmix64 finalizer: every input bit affects every output bit. */
export function mix64(z) {
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  return z ^ (z >> 31n);
}

/** Stable 64-bit hash of a text (FNV-1a-64, then the splitmix64 finalizer). */
export function hash64(text) {
  return mix64(fnv1a64(text));
}

/** Hash → uniform [0, 1). */
export function unitFromHash(text) {
  return Number(hash64(text) >> 11n) / 2 ** 53;
}

export const DPS_MIN = 40000;
export const DPS_SPAN = 20000;
export const PROFILESET_SPREAD = 0.06;

/** Options the stand-in values by rule rather than by hash: added stats and consumables (see README, "Game facts"). */
const RULED_OPTIONS = new Set(['flask', 'food', 'augmentation', 'potion']);

function optionName(line) {
  const cut = line.indexOf('=');
  const name = cut < 0 ? line : line.slice(0, cut);
  return name.endsWith('+') ? name.slice(0, -1) : name;
}

/**
 * Canonical text of an actor's option lines: what its hash-made DPS depends on. The `fake.*` knobs are not part of
 * it, nor the options valued by rule (stat points and consumables), so that those change the DPS by their rule alone.
 */
export function actorCanon(actor) {
  return actor.lines
    .filter((line) => !STAT_OPTIONS.has(optionName(line)) && !RULED_OPTIONS.has(optionName(line)))
    .join('\n');
}

function parseDps(raw, where) {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`fake.dps must be a non-negative number (${where}): '${raw}'`);
  return n;
}

/** The hash-made part of an actor's true DPS: the override, else 40k–60k from its lines, times the style factor. */
export function actorHashPart(sim, actor) {
  const raw = actor.fake.dps ?? sim.fake.dps;
  if (raw !== undefined) return parseDps(raw, actor.name);
  const u = unitFromHash(actorCanon(actor));
  return Math.round((DPS_MIN + DPS_SPAN * u) * styleFactor(sim) * 10) / 10;
}

/** What the game's rules make of a hash-made part: gear primary stat and armour, consumables, added stats. */
export function ruledDps(sim, actor, hashPart) {
  const ruled = hashPart * gearFactor(actor) * consumableFactor(actor);
  return Math.round(ruled * 10) / 10 + statBonus(weightsFor(sim, actor), actor);
}

/** True DPS of a base-sim actor. */
export function actorTrueDps(sim, actor) {
  return ruledDps(sim, actor, actorHashPart(sim, actor));
}

// ---------------------------------------------------------------- game rules (facts.mjs)

/** Share of an actor's DPS that comes from the primary stat on its gear. */
export const GEAR_PRIMARY_SHARE = 0.3;
/** Armour specialisation: +5 % primary stat when every armour piece is of the class's type. */
export const ARMOR_BONUS = 0.05;

/**
 * The gear's effect on the hash-made DPS, 1 for gear that all carries the spec's primary stat and is all of the
 * class's armour type: an item without the spec's primary stat loses its slot's share of the primary, and one
 * armour piece of another type loses the armour bonus. Unknown item ids are taken as on-type with the primary.
 */
export function gearFactor(actor) {
  const primary = primaryOf(actor.cls, actor.spec);
  const ownArmor = CLASS_ARMOR[actor.cls];
  let total = 0;
  let withPrimary = 0;
  let armorBonus = true;
  for (const { slot: raw, value } of actor.gear ?? []) {
    const slot = slotName(raw);
    const item = ITEMS.get(itemIdOf(value));
    if (ARMOR_SLOTS.includes(slot) && item?.armor && item.armor !== ownArmor) armorBonus = false;
    const share = PRIMARY_SLOT_SHARE[slot];
    if (!share) continue;
    total += share;
    if (!item || item.primary.includes(primary)) withPrimary += share;
  }
  const onPrimary = total > 0 ? withPrimary / total : 1;
  const full = 1 - GEAR_PRIMARY_SHARE + GEAR_PRIMARY_SHARE * (1 + ARMOR_BONUS);
  const own = 1 - GEAR_PRIMARY_SHARE + GEAR_PRIMARY_SHARE * onPrimary * (armorBonus ? 1 + ARMOR_BONUS : 1);
  return own / full;
}

/** What each consumable is worth; `<name>=disabled` (or none) gives it up, as in simc. */
export const CONSUMABLE_VALUE = { flask: 0.03, food: 0.015, augmentation: 0.01, potion: 0.015 };

export function consumableFactor(actor) {
  let factor = 1;
  for (const [name, value] of Object.entries(CONSUMABLE_VALUE)) {
    const given = actor.options?.find((o) => o.name === name)?.value;
    if (given !== undefined && ['disabled', 'none', '0', ''].includes(given.trim().toLowerCase())) factor *= 1 - value;
  }
  return factor;
}

// ---------------------------------------------------------------- stat weights

/**
 * Stats the stand-in can add, by the key `fake.weights` uses (simc's `scale_only` names): the player options that
 * add points (`enchant_<stat>`, `gear_<stat>`) and the key of the JSON report's `scale_factors`.
 */
export const WEIGHABLE_STATS = {
  str: { enchant: 'enchant_strength', gear: 'gear_strength', report: 'Str' },
  agi: { enchant: 'enchant_agility', gear: 'gear_agility', report: 'Agi' },
  int: { enchant: 'enchant_intellect', gear: 'gear_intellect', report: 'Int' },
  crit: { enchant: 'enchant_crit_rating', gear: 'gear_crit_rating', report: 'Crit' },
  haste: { enchant: 'enchant_haste_rating', gear: 'gear_haste_rating', report: 'Haste' },
  mastery: { enchant: 'enchant_mastery_rating', gear: 'gear_mastery_rating', report: 'Mastery' },
  vers: { enchant: 'enchant_versatility_rating', gear: 'gear_versatility_rating', report: 'Vers' },
};

const STAT_OPTIONS = new Set(Object.values(WEIGHABLE_STATS).flatMap((s) => [s.enchant, s.gear]));

/**
 * True DPS per point of each stat as given: `# fake.weights=int:3,crit:1.6,…` (sim-wide), or FAKE_SIMC_WEIGHTS in the
 * same form; null when neither is given.
 */
export function trueWeights(sim) {
  const raw = sim.fake.weights ?? sim.env?.FAKE_SIMC_WEIGHTS;
  if (raw === undefined || String(raw).trim() === '') return null;
  const weights = {};
  for (const part of String(raw).split(',')) {
    const [key, value] = part.split(':').map((x) => x.trim().toLowerCase());
    if (!Object.hasOwn(WEIGHABLE_STATS, key) || !Number.isFinite(Number(value))) {
      const keys = Object.keys(WEIGHABLE_STATS).join(', ');
      throw new Error(`fake.weights wants stat:dps_per_point pairs of ${keys}: '${part}'`);
    }
    weights[key] = Number(value);
  }
  return weights;
}

/** DPS per point of the spec's primary stat when no weights are given. */
export const PRIMARY_WEIGHT = 3;
/** The secondaries' weights as fractions of the primary's, best first; each spec's order comes from a hash. */
export const SECONDARY_FRACTIONS = [0.7, 0.6, 0.52, 0.45];

/** Plausible weights of a spec: its primary stat first, its secondaries in a spec-fixed order below it. */
export function defaultWeights(cls, spec) {
  const weights = { [primaryOf(cls, spec)]: PRIMARY_WEIGHT };
  const order = ['crit', 'haste', 'mastery', 'vers'].sort((a, b) =>
    hash64(`${cls}/${spec}/${a}`) < hash64(`${cls}/${spec}/${b}`) ? -1 : 1,
  );
  order.forEach((stat, i) => (weights[stat] = Math.round(PRIMARY_WEIGHT * SECONDARY_FRACTIONS[i] * 100) / 100));
  return weights;
}

/**
 * An actor's true weights: the given ones, else its spec's defaults. Either way a primary stat that is not the
 * spec's is worth nothing (simc gives an Intellect spec nothing for Agility).
 */
export function weightsFor(sim, actor) {
  const weights = { ...(trueWeights(sim) ?? defaultWeights(actor.cls, actor.spec)) };
  const primary = primaryOf(actor.cls, actor.spec);
  for (const stat of ['str', 'agi', 'int']) if (stat !== primary) weights[stat] = 0;
  return weights;
}

/** Points of each stat the actor's `enchant_<stat>=` and `gear_<stat>=` options add (the last value of each). */
function statPoints(actor) {
  const points = {};
  const given = {};
  for (const line of actor.lines) {
    const [name, value] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
    for (const [key, stat] of Object.entries(WEIGHABLE_STATS)) {
      if (name === stat.enchant || name === stat.gear) given[name] = [key, Number(value) || 0];
    }
  }
  for (const [key, n] of Object.values(given)) points[key] = (points[key] ?? 0) + n;
  return points;
}

function statBonus(weights, actor) {
  const points = statPoints(actor);
  return Object.entries(points).reduce((sum, [key, n]) => sum + (weights[key] ?? 0) * n, 0);
}

/** simc's scale delta at level 90 (scale_factor_control.cpp: rating per point × 0.035, rounded). */
export const SCALE_DELTA = 154;

export function styleFactor(sim) {
  const style = FIGHT_STYLES[sim.fight_style.toLowerCase()];
  const targets = Math.max(1, sim.desired_targets);
  return (style?.factor ?? 1) * (1 + 0.35 * Math.log2(targets));
}

/**
 * True DPS of a profileset. Its hash-made part: its own fake_dps if it sets one; else the baseline main actor's when
 * the set leaves the actor's hashed lines unchanged; else that × (1 + δ), δ ∈ [−6 %, +6 %) from a hash of the set's
 * option strings. Then the game's rules, as for any actor (gear, consumables, added stats).
 */
export function profilesetTrueDps(sim, baseHashPart, baseActor, psActor, psTuples, options) {
  const own = psTuples.filter((t) => t.directive && t.name === 'fake.dps').pop();
  let hashPart;
  if (own) hashPart = parseDps(own.value, 'profileset');
  else if (actorCanon(baseActor) === actorCanon(psActor)) hashPart = baseHashPart;
  else {
    const delta = (unitFromHash(options.join('\n')) * 2 - 1) * PROFILESET_SPREAD;
    hashPart = Math.round(baseHashPart * (1 + delta) * 10) / 10;
  }
  return ruledDps(sim, psActor, hashPart);
}

// ---------------------------------------------------------------- RNG (splitmix64 seeding, sfc32 stream)

function splitmix64(state) {
  let z = (state.s = (state.s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn);
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  return z ^ (z >> 31n);
}

export class Rng {
  /** @param {bigint} seed @param {string} stream label mixed into the seed */
  constructor(seed, stream = '') {
    const st = { s: (seed ^ fnv1a64(stream)) & 0xffffffffffffffffn };
    const a = splitmix64(st);
    const b = splitmix64(st);
    this.a = Number(a & 0xffffffffn) | 0;
    this.b = Number(a >> 32n) | 0;
    this.c = Number(b & 0xffffffffn) | 0;
    this.d = Number(b >> 32n) | 0;
    this.spare = null;
    for (let i = 0; i < 12; i++) this.next32();
  }

  next32() {
    // sfc32
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** uniform [0, 1) */
  real() {
    return (this.next32() * 2 ** 21 + (this.next32() >>> 11)) / 2 ** 53;
  }

  /** standard normal (Marsaglia polar) */
  gauss() {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    let u, v, s;
    do {
      u = this.real() * 2 - 1;
      v = this.real() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * Math.log(s)) / s);
    this.spare = v * m;
    return u * m;
  }
}

// ---------------------------------------------------------------- samples

export class Sample {
  constructor() {
    this.buf = new Float64Array(256);
    this.n = 0;
    this.sum = 0;
    this.sumsq = 0;
    this.min = Infinity;
    this.max = -Infinity;
  }

  add(x) {
    if (this.n === this.buf.length) {
      const nb = new Float64Array(this.buf.length * 2);
      nb.set(this.buf);
      this.buf = nb;
    }
    this.buf[this.n++] = x;
    this.sum += x;
    this.sumsq += x * x;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
  }

  get mean() {
    return this.n ? this.sum / this.n : 0;
  }

  /** Unbiased variance (simc divides by n − 1). */
  get variance() {
    if (this.n < 2) return 0;
    const m = this.mean;
    return Math.max(0, (this.sumsq - this.n * m * m) / (this.n - 1));
  }

  get meanStdDev() {
    return this.n > 1 ? Math.sqrt(this.variance / this.n) : 0;
  }

  /** Full analysis: extended-sample fields + quartiles. */
  analyze() {
    const n = this.n;
    if (n === 0)
      return {
        sum: 0,
        count: 0,
        mean: 0,
        min: 0,
        max: 0,
        median: 0,
        q1: 0,
        q3: 0,
        variance: 0,
        std_dev: 0,
        mean_variance: 0,
        mean_std_dev: 0,
      };
    const data = this.buf.slice(0, n);
    let sum = 0;
    for (const x of data) sum += x;
    const mean = sum / n;
    let v = 0;
    for (const x of data) v += (x - mean) * (x - mean);
    const variance = n > 1 ? v / (n - 1) : 0;
    const sorted = data.sort();
    const pct = (p) => sorted[Math.min(n - 1, Math.floor(p * (n - 1) + 0.5))];
    return {
      sum,
      count: n,
      mean,
      min: sorted[0],
      max: sorted[n - 1],
      median: pct(0.5),
      q1: pct(0.25),
      q3: pct(0.75),
      variance,
      std_dev: Math.sqrt(variance),
      mean_variance: variance / n,
      mean_std_dev: Math.sqrt(variance / n),
    };
  }
}

// ---------------------------------------------------------------- formatting (util::to_string, format_time)

/** simc util::to_string(double): integer if within 0.001 of its truncation, else 3 decimals. */
export function simcToString(f) {
  const t = Math.trunc(f);
  if (Math.abs(f - t) < 0.001) return String(t);
  return f.toFixed(3);
}

export function round(x, decimals) {
  const p = 10 ** decimals;
  return Math.round(x * p) / p;
}

/** progress_bar_t::format_time: "1d, 2h, 3m, 4s" (zero parts left out). */
export function formatTime(t) {
  let rem = t;
  const days = rem >= 86400 ? Math.trunc(rem / 86400) : 0;
  rem -= days * 86400;
  const hours = rem >= 3600 ? Math.trunc(rem / 3600) : 0;
  rem -= hours * 3600;
  const minutes = rem >= 60 ? Math.trunc(rem / 60) : 0;
  rem -= minutes * 60;
  let s = '';
  if (days > 0) s += `${days}d, `;
  if (hours > 0) s += `${hours}h, `;
  if (minutes > 0) s += `${minutes}m, `;
  return `${s}${Math.round(rem)}s`;
}

// ---------------------------------------------------------------- phase runner

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const tick = () => new Promise((r) => setImmediate(r));

/**
 * Progress state shared by all phases of one process (phase numbering, average phase time for the eta).
 */
export class ProgressBar {
  constructor(out, type, totalPhases) {
    this.out = out;
    this.type = type;
    this.totalPhases = totalPhases;
    this.workIndex = 0;
    this.phaseTimes = [];
    this.lines = 0;
    this.enabled = true;
    this.prevLen = 0;
  }

  averagePhaseTime() {
    return this.phaseTimes.length ? this.phaseTimes.reduce((a, b) => a + b, 0) / this.phaseTimes.length : 0;
  }

  /**
   * One update (progress_bar_t::update_simple / update_normal + output).
   * @param {{base: string, phase: string, cur: number, total: number, threads: number, targetError: number,
   *   mean: number, error: number, elapsed: number, finished: boolean, profilesetsKnown: boolean}} p
   */
  print(p) {
    if (!this.enabled) return false;
    let pct = p.total > 0 ? p.cur / p.total : 0;
    if (pct <= 0 && !p.finished) return false;
    if (p.finished) pct = 1;
    const current = p.elapsed;
    const remaining = current / pct - current;
    const wall = Math.max(p.elapsed, 1e-9);
    const ips = p.cur / wall / p.threads;
    const shownCur = p.finished ? p.total : p.cur;
    let eta = '';
    if (!p.finished && p.profilesetsKnown && this.totalPhases > 0) {
      const avg = this.averagePhaseTime();
      const phasesLeft = this.totalPhases - this.workIndex;
      const timeLeft = Math.max(0, avg - p.elapsed);
      const totalLeft = phasesLeft * avg + timeLeft;
      if (totalLeft > 0) eta = formatTime(totalLeft);
    }
    let line;
    if (this.type === 1) {
      const fields = [p.base];
      if (p.phase) fields.push(p.phase);
      fields.push(
        String(this.workIndex),
        String(this.totalPhases),
        String(shownCur),
        String(p.total),
        simcToString(ips),
      );
      if (p.targetError > 0) fields.push(simcToString(p.mean), simcToString(p.error));
      if (remaining > 0) fields.push(simcToString(round(remaining, 3)));
      else if (p.finished && current > 0) fields.push(simcToString(round(current, 3)));
      else fields.push('0.000');
      if (eta) fields.push(eta);
      line = `${fields.join('\t')}\n`;
    } else {
      const steps = 20;
      const len = Math.round(steps * pct);
      const bar = len >= 1 ? `[${'='.repeat(len - 1)}>${'.'.repeat(steps - len)}]` : `[${'.'.repeat(steps)}]`;
      let s = `${bar} ${shownCur}/${p.total} ${ips.toFixed(3)}`;
      if (p.targetError > 0) s += ` Mean=${p.mean.toFixed(0)} Error=${p.error.toFixed(3)}%`;
      const remSec = Math.trunc(remaining);
      const remMin = Math.trunc(remSec / 60);
      if (remMin > 0) s += ` ${remMin}min`;
      if (remSec - remMin * 60 > 0) s += ` ${remSec - remMin * 60}sec`;
      if (p.finished) {
        const totalMin = Math.trunc(current / 60);
        const totalSec = Math.trunc(current % 60);
        const msec = Math.trunc(1000 * (current - Math.trunc(current)));
        if (totalMin > 0) s += ` ${totalMin}min`;
        if (totalSec > 0) s += ` ${totalSec}${msec > 0 ? `.${msec}` : ''}sec`;
        else if (msec > 0) s += ` ${msec}msec`;
      }
      if (eta) s += ` (${eta})`;
      if (this.prevLen > s.length) s += ' '.repeat(this.prevLen - s.length);
      this.prevLen = s.length;
      const head = `Generating ${p.base}:${p.phase ? ` ${p.phase}` : ''} ${this.workIndex}/${this.totalPhases} `;
      line = `${head}${s}${p.finished ? '\n' : '\r'}`;
    }
    this.out(line);
    this.lines++;
    return true;
  }
}

/**
 * Run one phase: iterate until `iterations` or the target error is reached.
 * @param {object} o
 * @param {{truths: Record<string, number>, noise: number, label: string}[]} o.actors actors simulated together (truths.dps drives target_error)
 * @param {object} o.sim resolved sim settings (iterations cap, target_error, threads, max_time, ...)
 * @param {bigint} o.seed
 * @param {ProgressBar} o.bar
 * @param {string} o.base progress base ("Baseline" / "Profileset")
 * @param {string} o.phase phase label ('' for the baseline)
 * @param {object} o.control { iterUs, interrupted(): boolean, canceled(): boolean, onProgressLine(n): Promise<void> }
 */
export async function runPhase(o) {
  const { sim, actors, bar, control } = o;
  const cap = sim.iterations;
  const targetError = sim.target_error;
  const threads = Math.max(1, Math.min(sim.threads, cap));
  const warmup = cap === 1 ? 0 : threads; // first iteration of each thread is not collected
  const interval = sim.analyze_error_interval > 0 ? sim.analyze_error_interval : 100;
  const progressInterval = targetError > 0 ? interval : Math.max(1, Math.floor(cap / 100));
  const ce = sim.confidence_estimator;

  // one stream per actor and metric, so adding a metric never changes another metric's numbers
  const rngs = actors.map((a, i) =>
    Object.fromEntries(
      Object.keys(a.truths).map((k) => [k, new Rng(o.seed, `${o.base}/${o.phase}/${i}/${a.label}/${k}`)]),
    ),
  );
  const actRng = actors.map((a, i) => new Rng(o.seed, `${o.base}/${o.phase}/${i}/${a.label}/actions`));
  const lenRng = new Rng(o.seed, `${o.base}/${o.phase}/fight_length`);
  const samples = actors.map((a) => ({
    m: Object.fromEntries(Object.keys(a.truths).map((k) => [k, new Sample()])),
    len: new Sample(),
    actions: new Sample(),
  }));
  const simLength = new Sample();
  const raidDps = new Sample();
  const raidDmg = new Sample();

  let n = 0;
  let total = cap; // work-queue size, projected once the error is known
  let stopAt = cap;
  let currentError = 0;
  let currentMean = 0;
  let lastProgress = 0;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let stoppedBy = 'done';

  while (n < stopAt) {
    if (control.canceled()) {
      stoppedBy = 'canceled';
      break;
    }
    if (control.interrupted()) {
      stoppedBy = 'interrupted';
      break;
    }
    n++;
    control.onIteration?.(n);
    const fl = sim.max_time * (1 + sim.vary_combat_length * (2 * lenRng.real() - 1));
    const collect = n > warmup;
    let raid = 0;
    actors.forEach((a, i) => {
      const s = samples[i];
      for (const [k, truth] of Object.entries(a.truths)) {
        const v = Math.max(0, truth * (1 + a.noise * rngs[i][k].gauss()));
        if (collect) s.m[k].add(v);
        if (k === 'dps') raid += v;
      }
      const acts = Math.round(fl / 1.33 + actRng[i].gauss() * 4);
      if (collect) {
        s.len.add(fl);
        s.actions.add(acts);
      }
    });
    if (collect) {
      simLength.add(fl);
      raidDps.add(raid);
      raidDmg.add(raid * fl);
    }

    if (targetError > 0 && n % interval === 0 && stopAt === cap) {
      let maxErr = 0;
      let meanTotal = 0;
      let meanCount = 0;
      for (const s of samples) {
        const m = s.m.dps.mean;
        if (s.m.dps.n > 1 && m !== 0) {
          const err = (s.m.dps.meanStdDev * ce) / m;
          if (err > maxErr) maxErr = err;
          meanTotal += m;
          meanCount++;
        }
      }
      if (meanCount > 0) currentMean = meanTotal / meanCount;
      currentError = maxErr * 100;
      if (currentError > 0) {
        if (currentError < targetError) {
          // interrupt(): the other threads finish the iteration they are in
          stopAt = Math.min(cap, n + threads - 1);
          total = stopAt;
        } else {
          total = Math.min(
            cap,
            Math.max(n, Math.trunc(n * ((currentError * currentError) / (targetError * targetError)))),
          );
        }
      }
    }

    if (n - lastProgress >= progressInterval && n < stopAt && (targetError <= 0 || n >= interval)) {
      lastProgress = n;
      if (sim.report_progress) {
        const printed = bar.print({
          base: o.base,
          phase: o.phase,
          cur: n,
          total,
          threads,
          targetError,
          mean: currentMean,
          error: currentError,
          elapsed: elapsed(),
          finished: false,
          profilesetsKnown: o.profilesetsKnown,
        });
        if (printed) await control.onProgressLine(bar.lines);
      }
    }

    // pacing: FAKE_SIMC_ITER_US microseconds of wall time per iteration; yield regularly for signals
    const due = (n * control.iterUs) / 1000;
    const ahead = due - (performance.now() - started);
    if (ahead > 4) await sleep(ahead);
    else if (n % 512 === 0) await tick();
  }

  if (stoppedBy !== 'canceled' && sim.report_progress && n > 0) {
    bar.print({
      base: o.base,
      phase: o.phase,
      cur: n,
      total: n,
      threads,
      targetError,
      mean: currentMean,
      error: currentError,
      elapsed: elapsed(),
      finished: true,
      profilesetsKnown: o.profilesetsKnown,
    });
  }
  bar.phaseTimes.push(elapsed());

  return { iterations: n, threads, samples, simLength, raidDps, raidDmg, stoppedBy, elapsed: elapsed(), currentError };
}
