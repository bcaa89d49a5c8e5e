/**
 * What the service reads out of a SimC profile at submission (notes §9, §15): blocked directives, `armory=`,
 * bundled-profile references, the precision safety bounds, and the shape (actors, profilesets, copy=/set=) that
 * decides multistage eligibility.
 */
import type { SubmitWarning } from './types.js';

export const MAX_ITERATIONS = 250_000;
export const MIN_TARGET_ERROR = 0.01;
/** How many blocked lines `meta.blocked` samples. */
export const BLOCKED_SAMPLE = 10;

const BLOCKED_NAMES = new Set([
  'output',
  'html',
  'json',
  'json2',
  'log',
  'save',
  'debug_seed',
  'debug_each',
  'spell_query_xml_output_file',
  'reforge_plot_output_file',
  'local_json',
  'proxy',
  'http_clear_cache',
  'guild',
  'apiKey',
  'apikey',
  'api_key',
  'threads',
  'profileset_work_threads',
  'profileset_init_threads',
  'process_priority',
  'progressbar_type',
  'full_states',
]);
const BLOCKED_PREFIXES = ['save_', 'dps_plot_', 'reforge_plot_'];
const CLASSES = new Set([
  'warrior',
  'paladin',
  'hunter',
  'rogue',
  'priest',
  'deathknight',
  'shaman',
  'mage',
  'warlock',
  'monk',
  'druid',
  'demonhunter',
  'evoker',
]);

export interface Line {
  line: number;
  text: string;
}

export interface ProfileScan {
  blocked: Line[];
  armory: Line[];
  warnings: SubmitWarning[];
  /** Profile text with the safety bounds applied: what the sim runs. */
  applied: string;
  actors: string[];
  profilesets: string[];
  copyOrSet: boolean;
  /** Actors made by `copy=<name>[,source]`, in order. */
  copies: string[];
  /** First entry of the last `profileset_metric=` (lower case), or null. */
  profilesetMetric: string | null;
  mainActorIndex: number;
  targetError: number | undefined;
}

function isBlocked(name: string): boolean {
  return BLOCKED_NAMES.has(name) || BLOCKED_PREFIXES.some((p) => name.startsWith(p));
}

/** `name=value` / `name+=value` tokens of a line; quoted values keep their spaces. */
function tokens(text: string): Array<{ name: string; value: string; raw: string }> {
  const out: Array<{ name: string; value: string; raw: string }> = [];
  for (const raw of text.match(/(?:[^\s"]+|"[^"]*")+/g) ?? []) {
    const m = /^([^=+]+?)\+?=(.*)$/.exec(raw);
    out.push(m ? { name: m[1] ?? '', value: m[2] ?? '', raw } : { name: raw, value: '', raw });
  }
  return out;
}

const unquote = (s: string) => s.replace(/^"(.*)"$/, '$1');

/** Scan a profile. `manifest` is the bundled profiles of the build the channel points at. */
export function scanProfile(text: string, manifest: readonly string[]): ProfileScan {
  const scan: ProfileScan = {
    blocked: [],
    armory: [],
    warnings: [],
    applied: '',
    actors: [],
    profilesets: [],
    copyOrSet: false,
    copies: [],
    profilesetMetric: null,
    mainActorIndex: 0,
    targetError: undefined,
  };
  const profilesets = new Set<string>();
  const lines = text.split(/\r?\n/);
  const applied: string[] = [];
  lines.forEach((rawLine, index) => {
    const line = index + 1;
    const trimmed = rawLine.trim();
    let out = rawLine;
    if (trimmed === '' || trimmed.startsWith('#')) {
      applied.push(out);
      return;
    }
    const sample = { line, text: trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed };
    let blocked = false;
    for (const tok of tokens(trimmed)) {
      const { name, value } = tok;
      const ps = /^profileset\.("[^"]+"|[^=+.]+)$/.exec(name);
      if (ps) {
        profilesets.add(unquote(ps[1] ?? ''));
        const inner = /^([^=+]+?)\+?=/.exec(value);
        if (inner && isBlocked(inner[1] ?? '')) blocked = true;
        continue;
      }
      if (tok.value === '' && !tok.raw.includes('=')) {
        // a bare bundled-profile reference
        if (/\.simc$/.test(name) && !manifest.includes(name)) blocked = true;
        continue;
      }
      if (isBlocked(name)) blocked = true;
      else if (name === 'armory') scan.armory.push(sample);
      else if (name === 'input' && !manifest.includes(unquote(value))) blocked = true;
      else if (CLASSES.has(name)) scan.actors.push(unquote(value).split(',')[0] || name);
      else if (name === 'copy' || name === 'set') {
        scan.copyOrSet = true;
        if (name === 'copy') scan.copies.push(unquote(value).split(',')[0] || 'copy');
      } else if (name === 'profileset_metric')
        scan.profilesetMetric = value.split(/[/:,]/)[0]!.trim().toLowerCase() || null;
      else if (name === 'profileset_main_actor_index') scan.mainActorIndex = Number(value) || 0;
      else if (name === 'iterations' && Number(value) > MAX_ITERATIONS) {
        scan.warnings.push(warning('iterations_clamped', line, Number(value), MAX_ITERATIONS));
        out = out.replace(tok.raw, `${tok.raw.split('=')[0]}=${MAX_ITERATIONS}`);
      } else if (name === 'target_error') {
        const requested = Number(value);
        // 0 means "no target error" to SimC (run on iterations), so only positive values below the floor move
        if (requested > 0 && requested < MIN_TARGET_ERROR) {
          scan.warnings.push(warning('target_error_floored', line, requested, MIN_TARGET_ERROR));
          out = out.replace(tok.raw, `${tok.raw.split('=')[0]}=${MIN_TARGET_ERROR}`);
          scan.targetError = MIN_TARGET_ERROR;
        } else if (Number.isFinite(requested)) scan.targetError = requested;
      }
    }
    if (blocked) scan.blocked.push(sample);
    applied.push(out);
  });
  scan.profilesets = [...profilesets];
  scan.applied = applied.join('\n');
  return scan;
}

function warning(kind: SubmitWarning['kind'], line: number, requested: number, applied: number): SubmitWarning {
  const message =
    kind === 'iterations_clamped'
      ? `iterations=${requested} is above the platform safety cap; the job runs with iterations=${applied}.`
      : `target_error=${requested} is below the platform safety floor; the job runs with target_error=${applied}.`;
  return { kind, line, requested, applied, message };
}

/** Why multistage does or does not run (spec 2.4 `multiStage.reason`), and how many stages. */
export function multiStagePlan(
  requested: boolean,
  scan: ProfileScan,
  candidates: number,
): { enabled: boolean; reason: string; stages: number } {
  const no = (reason: string) => ({ enabled: false, reason, stages: 1 });
  if (!requested) return no('disabled_by_option');
  const hasProfilesets = scan.profilesets.length > 0 || candidates > 0;
  if (scan.copyOrSet && !hasProfilesets) return no('unsupported_copy_set_only');
  if (scan.copyOrSet) return no('unsupported_mixed_profileset_copy_set');
  if (scan.actors.length > 1) return no('unsupported_multi_actor');
  if (!hasProfilesets) return no('no_variants_in_input');
  if (candidates === 0) return no('no_profileset_candidates');
  if (candidates < 4) return no('below_min_candidates');
  const target = scan.targetError;
  // stage target errors 1.0, 0.2, then the profile's (default 0.05): a stage that already meets it ends the run
  const stages = target !== undefined && target >= 1 ? 1 : target !== undefined && target >= 0.2 ? 2 : 3;
  return { enabled: true, reason: 'eligible_profileset_only', stages };
}
