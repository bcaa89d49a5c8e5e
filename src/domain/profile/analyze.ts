/**
 * Static analysis of simc profile text: what simc would do with it (actors, options, profilesets, includes,
 * template variables) and what the hosted service would say about it (disallowed directives, precision
 * warnings). Pure: no I/O; included files are listed, not read.
 *
 * Sources: `/work/shared/simc/contract.md` §1.3, §1.5, §1.6, §2 and simc's `option.cpp`, `sim.cpp`,
 * `profileset.cpp`; `/work/shared/spec/service-notes.md` §9.
 */
import { MIN_TARGET_ERROR } from './precision.js';
import { expandTemplates, splitOption, tokenize, type Token, type TokenizedProfile } from './tokenize.js';
import {
  SIM_OPTIONS_OF_INTEREST,
  type ActorInfo,
  type ActorKind,
  type ArmoryLine,
  type DisallowedCategory,
  type DisallowedDirective,
  type IncludeRef,
  type PrecisionWarning,
  type ProfileAnalysis,
  type ProfileDiagnostic,
  type ProfilesetDirective,
  type ProfilesetInfo,
  type ProfilesetOption,
  type ProfilesetSimOption,
  type SetBlock,
  type SimOptionKey,
  type SimOptionOccurrence,
  type SourceSpan,
  type TemplateVariable,
} from './types.js';
import { SIMC_CLASSES } from './classes.js';

/** Class names that declare a player (`<class>=<name>`). */
const CLASS_DIRECTIVES: ReadonlySet<string> = new Set(SIMC_CLASSES);

const OTHER_ACTOR_DIRECTIVES: ReadonlyMap<string, ActorKind> = new Map<string, ActorKind>([
  ['copy', 'copy'],
  ['armory', 'armory'],
  ['local_json', 'local_json'],
  ['guild', 'guild'],
  ['player_simplified', 'player_simplified'],
  ['enemy', 'enemy'],
  ['tank_dummy', 'tank_dummy'],
  ['pet', 'pet'],
  ['guardian', 'guardian'],
]);

/**
 * Actor-creating ("actor scope") directives: the contract's list (§1.6) plus `player_simplified`, which
 * simc's `profileset.cpp` `is_actor_scope` also counts.
 */
export function isActorDirective(key: string): boolean {
  return CLASS_DIRECTIVES.has(key) || OTHER_ACTOR_DIRECTIVES.has(key);
}

/** Service iteration bound (notes §9). */
export const MAX_ITERATIONS = 250_000;
const SIM_OPTION_SET: ReadonlySet<string> = new Set<string>(SIM_OPTIONS_OF_INTEREST);
function isSimOptionOfInterest(key: string): key is SimOptionKey {
  return SIM_OPTION_SET.has(key);
}

const DISALLOWED_EXACT: ReadonlyMap<string, DisallowedCategory> = new Map<string, DisallowedCategory>([
  ['output', 'output'],
  ['html', 'output'],
  ['json', 'output'],
  ['json2', 'output'],
  ['log', 'output'],
  ['save', 'output'],
  ['debug_seed', 'output'],
  ['debug_each', 'output'],
  ['spell_query_xml_output_file', 'output'],
  ['reforge_plot_output_file', 'output'],
  ['local_json', 'file_read'],
  ['proxy', 'network'],
  ['http_clear_cache', 'network'],
  ['guild', 'network'],
  ['apikey', 'secret'],
  ['api_key', 'secret'],
  ['threads', 'compute'],
  ['profileset_work_threads', 'compute'],
  ['profileset_init_threads', 'compute'],
  ['process_priority', 'compute'],
  ['progressbar_type', 'output_format'],
  ['full_states', 'json_bloat'],
]);
const DISALLOWED_PREFIX: ReadonlyArray<readonly [string, DisallowedCategory]> = [
  ['save_', 'output'],
  ['dps_plot_', 'plot'],
  ['reforge_plot_', 'plot'],
];

/**
 * The category under which the service rejects an option name (service notes §9), or `null` when allowed.
 * Matched case-insensitively (`apiKey` and `apikey` are both listed).
 */
export function disallowedCategory(key: string): DisallowedCategory | null {
  const k = key.toLowerCase();
  const exact = DISALLOWED_EXACT.get(k);
  if (exact !== undefined) return exact;
  for (const [prefix, cat] of DISALLOWED_PREFIX) if (k.startsWith(prefix)) return cat;
  return null;
}

const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** simc numeric option value: empty means 0; anything else must look like a number. */
function parseSimcNumber(value: string): number | null {
  if (value === '') return 0;
  if (!NUMBER_RE.test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

const PROFILESET_PREFIX = 'profileset.';
const ARMORY_REGIONS: ReadonlySet<string> = new Set(['us', 'eu', 'kr', 'tw', 'cn']);

interface MutableProfileset {
  name: string;
  line: number;
  lines: number[];
  spans: SourceSpan[];
  options: ProfilesetOption[];
}

function spanOf(t: Token): SourceSpan {
  return { line: t.line, column: t.column, start: t.start, end: t.end };
}

function isPathLike(file: string): boolean {
  return /[\\/]/.test(file) || file.startsWith('~') || file.startsWith('..');
}

/** The metrics a result summary can be in (openapi 1.19.1 `summary.metric`). */
export type SummaryMetric = 'dps' | 'raid_dps';
const SUMMARY_METRICS: ReadonlySet<string> = new Set<SummaryMetric>(['dps', 'raid_dps']);

/**
 * The metric of the summary: the first of `profileset_metric`'s list (simc splits it on `/`, `:` and `,`; the first
 * ranks the profilesets), dps when absent. `unsupported` names a metric simc knows but a summary cannot be in.
 */
export function summaryMetricOf(
  analysis: ProfileAnalysis,
): { metric: SummaryMetric } | { unsupported: string; line: number } {
  const option = analysis.simOptions.profileset_metric;
  if (!option) return { metric: 'dps' };
  const first = option.value.split(/[/:,]/)[0]!.trim().toLowerCase();
  if (first === '') return { metric: 'dps' };
  return SUMMARY_METRICS.has(first) ? { metric: first as SummaryMetric } : { unsupported: first, line: option.line };
}

/**
 * The actor whose numbers headline a result: `profileset_main_actor_index` (0 when absent or not a whole number
 * ≥ 0), with that actor's name when the profile declares it (safer than the index: enemies and pets count too),
 * and the metric of the summary (dps when the profile asks for one a summary cannot be in: callers refuse those).
 */
export function mainActorChoice(analysis: ProfileAnalysis): {
  index: number;
  name: string | null;
  metric: SummaryMetric;
} {
  const index = analysis.simOptions.profileset_main_actor_index?.numeric;
  const metric = summaryMetricOf(analysis);
  return {
    index: typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : 0,
    name: analysis.mainActor?.name ?? null,
    metric: 'metric' in metric ? metric.metric : 'dps',
  };
}

/** Analyse profile text. Never throws; problems simc would report are in `diagnostics`. */
export function analyzeProfile(text: string): ProfileAnalysis {
  return analyzeTokens(tokenize(text));
}

/** {@link analyzeProfile} on text already tokenized (lets `rewrite.ts` tokenize once). */
export function analyzeTokens(tok: TokenizedProfile): ProfileAnalysis {
  const lineText = (line: number): string => (tok.lines[line - 1]?.text ?? '').trim();

  const vars = new Map<string, string>();
  const templateVariables: TemplateVariable[] = [];
  const actors: ActorInfo[] = [];
  const simOptionOccurrences: SimOptionOccurrence[] = [];
  const setBlocks: SetBlock[] = [];
  const profilesetMap = new Map<string, MutableProfileset>();
  const profilesetDirectives: ProfilesetDirective[] = [];
  const armory: ArmoryLine[] = [];
  const includes: IncludeRef[] = [];
  const disallowed: DisallowedDirective[] = [];
  const diagnostics: ProfileDiagnostic[] = [];

  const diag = (severity: ProfileDiagnostic['severity'], code: string, line: number | null, message: string): void => {
    diagnostics.push({ severity, code, line, message });
  };
  const expand = (s: string, line: number): string => {
    const e = expandTemplates(s, vars);
    if (e.error !== null) diag('error', 'template_syntax', line, e.error);
    for (const m of e.missing) diag('error', 'missing_template_variable', line, `Missing template variable: '${m}'`);
    return e.text;
  };
  const checkDisallowed = (key: string, line: number, profileset: string | null): void => {
    const category = disallowedCategory(key);
    if (category !== null) disallowed.push({ line, text: lineText(line), directive: key, category, profileset });
  };

  let active: ActorInfo | null = null;
  let includeSeen = false;

  if (tok.crOnlyLineBreaks) {
    diag(
      'warning',
      'cr_line_breaks',
      null,
      'The text has CR-only line breaks; simc splits lines on LF only, so those lines run together.',
    );
  }

  for (const t of tok.tokens) {
    const line = t.line;
    if (t.unclosedQuote)
      diag(
        'warning',
        'unclosed_quote',
        line,
        `Unclosed double quote in '${t.raw}'; the token runs to the end of the line.`,
      );

    if (t.text === '-') {
      includes.push({
        ...spanOf(t),
        kind: 'stdin',
        file: '-',
        isPath: false,
        looksLikeComment: false,
        profileset: null,
      });
      includeSeen = true;
      continue;
    }

    let parts = splitOption(t.text);
    if (parts === null) {
      // simc expands a token without '=' first: `$(x)` alone may become `k=v`.
      const expanded = expand(t.text, line);
      parts = splitOption(expanded);
      if (parts === null) {
        const looksLikeComment = expanded.startsWith('#');
        if (looksLikeComment) {
          diag(
            'warning',
            'inline_comment',
            line,
            `'${t.raw}' after an option is not a comment: simc has no inline comments and reads it as a file name.`,
          );
        }
        includes.push({
          ...spanOf(t),
          kind: 'bare',
          file: expanded,
          isPath: isPathLike(expanded),
          looksLikeComment,
          profileset: null,
        });
        includeSeen = true;
        continue;
      }
    }

    const value = expand(parts.value, line);

    // Template variable definition: $(name)=value
    if (parts.name.startsWith('$')) {
      const n = parts.name;
      if (n.length < 3 || n[1] !== '(' || !n.endsWith(')')) {
        diag('error', 'variable_syntax', line, `Variable syntax error: '${t.text}'`);
        continue;
      }
      const varName = expand(n.slice(2, -1), line);
      vars.set(varName, value);
      templateVariables.push({ name: varName, value, line });
      continue;
    }

    if (parts.name === 'input') {
      includes.push({
        ...spanOf(t),
        kind: 'input',
        file: value,
        isPath: isPathLike(value),
        looksLikeComment: false,
        profileset: null,
      });
      includeSeen = true;
      continue;
    }

    const name = expand(parts.name, line);
    const append = name.endsWith('+');
    const key = append ? name.slice(0, -1) : name;

    if (key === '') {
      diag(
        'warning',
        'empty_option_name',
        line,
        `'${t.raw}' has no option name; write key=value without spaces around '='.`,
      );
      continue;
    }

    checkDisallowed(key, line, null);

    if (key.startsWith(PROFILESET_PREFIX)) {
      handleProfileset(t, name, value);
      continue;
    }

    if (key === 'set') {
      setBlocks.push({ ...spanOf(t), value, text: lineText(line) });
      continue;
    }

    if (CLASS_DIRECTIVES.has(key) || OTHER_ACTOR_DIRECTIVES.has(key)) {
      const actor = makeActor(t, key, value);
      actors.push(actor);
      active = actor;
      continue;
    }

    if (isSimOptionOfInterest(key)) {
      simOptionOccurrences.push({ ...spanOf(t), key, value, numeric: parseSimcNumber(value), append });
    }
  }

  function makeActor(t: Token, key: string, value: string): ActorInfo {
    const base = { ...spanOf(t), index: actors.length, directive: key, value };
    const line = t.line;
    if (CLASS_DIRECTIVES.has(key)) {
      checkActorName(value, line);
      return { ...base, kind: 'player', class: key, name: value, isPlayer: true, playerCount: 1 };
    }
    const kind = OTHER_ACTOR_DIRECTIVES.get(key) as ActorKind;
    switch (kind) {
      case 'copy': {
        const comma = value.indexOf(',');
        const newName = comma === -1 ? value : value.slice(0, comma);
        const sourceName = comma === -1 ? null : value.slice(comma + 1);
        checkActorName(newName, line);
        let source: ActorInfo | null;
        if (sourceName !== null) {
          source = findPlayerByName(sourceName);
          if (source === null) {
            diag(
              includeSeen ? 'warning' : 'error',
              'copy_source_not_found',
              line,
              `Invalid source for profile copy - format is copy=target[,source]: Cannot find player '${sourceName}'.` +
                (includeSeen ? ' (It may be declared in an included file.)' : ''),
            );
          }
        } else {
          source = active;
          if (source === null) {
            diag(
              includeSeen ? 'warning' : 'error',
              'copy_without_source',
              line,
              'No active player as source for profile copy available - format is copy=target[,source]' +
                (includeSeen ? ' (an included file may declare it)' : '; load a base profile before this file'),
            );
          }
        }
        return {
          ...base,
          kind,
          class: source?.class ?? null,
          name: newName,
          isPlayer: true,
          playerCount: 1,
          copySource: {
            name: sourceName ?? source?.name ?? null,
            explicit: sourceName !== null,
            line: source?.line ?? null,
          },
        };
      }
      case 'armory': {
        const a = parseArmory(value);
        armory.push({ ...spanOf(t), value, names: a.names, region: a.region, server: a.server, text: lineText(line) });
        return {
          ...base,
          kind,
          class: null,
          name: a.names[0] ?? value,
          names: a.names,
          isPlayer: true,
          playerCount: Math.max(1, a.names.length),
        };
      }
      case 'local_json':
        return { ...base, kind, class: null, name: value.split(',')[0] ?? value, isPlayer: true, playerCount: 1 };
      case 'guild':
        return { ...base, kind, class: null, name: value, isPlayer: true, playerCount: null };
      case 'player_simplified':
        checkActorName(value, line);
        return { ...base, kind, class: null, name: value, isPlayer: true, playerCount: 1 };
      default:
        // enemy, tank_dummy, pet, guardian: actors, but not players.
        return { ...base, kind, class: null, name: value, isPlayer: false, playerCount: 0 };
    }
  }

  function checkActorName(name: string, line: number): void {
    if (/^[0-9]/.test(name))
      diag('error', 'actor_name_digit', line, `Invalid actor name '${name}' - name cannot start with a digit.`);
  }

  function findPlayerByName(name: string): ActorInfo | null {
    for (let i = actors.length - 1; i >= 0; i -= 1) {
      const a = actors[i] as ActorInfo;
      if (a.name === name || (a.names?.includes(name) ?? false)) return a;
    }
    return null;
  }

  function handleProfileset(t: Token, name: string, value: string): void {
    // simc's opt_map_list("profileset."): the set name is after the LAST '.', and the text before it must be
    // exactly "profileset." — so names containing '.' are not profilesets (unknown option).
    const append = name.endsWith('+');
    const bare = append ? name.slice(0, -1) : name;
    const dot = bare.lastIndexOf('.');
    const setName = bare.slice(dot + 1);
    const op = append ? '+=' : '=';
    let problem: string | null = null;
    if (bare.slice(0, dot + 1) !== PROFILESET_PREFIX) {
      problem = `profileset name '${bare.slice(PROFILESET_PREFIX.length)}' contains '.'; simc ignores it as an unknown option`;
      diag(
        'warning',
        'profileset_name_with_dot',
        t.line,
        `Profileset names must not contain '.': '${t.raw}' is not a profileset.`,
      );
    } else if (setName === '') {
      problem = 'empty profileset name';
      diag('error', 'profileset_empty_name', t.line, `Profileset directive without a name: '${t.raw}'.`);
    }
    const span = spanOf(t);
    profilesetDirectives.push({
      line: t.line,
      column: t.column,
      start: t.start,
      end: t.end,
      name: problem === null ? setName : null,
      op,
      option: value,
      problem,
    });
    if (problem !== null) return;

    let set = profilesetMap.get(setName);
    if (set === undefined) {
      set = { name: setName, line: t.line, lines: [], spans: [], options: [] };
      profilesetMap.set(setName, set);
    }
    if (!set.lines.includes(t.line)) set.lines.push(t.line);
    set.spans.push(span);
    if (!append) set.options = [];
    if (value === '') return;

    const opt = splitOption(value);
    const optKey = opt === null ? '' : opt.key;
    set.options.push({ line: t.line, op, option: value, key: optKey, value: opt === null ? '' : opt.value });

    if (opt === null) {
      includes.push({
        ...spanOf(t),
        kind: 'bare',
        file: value,
        isPath: isPathLike(value),
        looksLikeComment: false,
        profileset: setName,
      });
      return;
    }
    checkDisallowed(optKey, t.line, setName);
    if (isActorDirective(optKey.toLowerCase())) {
      diag(
        'error',
        'profileset_defines_actor',
        t.line,
        `Profilesets cannot define additional actors: ${value} (profileset '${setName}').`,
      );
    }
  }

  // ---- Post-processing -------------------------------------------------------------------------------

  const profilesets: ProfilesetInfo[] = [...profilesetMap.values()].map((s) => {
    const simOptions: Partial<Record<SimOptionKey, ProfilesetSimOption>> = {};
    for (const o of s.options) {
      if (isSimOptionOfInterest(o.key)) {
        simOptions[o.key] = { key: o.key, value: o.value, numeric: parseSimcNumber(o.value), line: o.line };
      }
    }
    return {
      name: s.name,
      line: s.line,
      lines: [...s.lines].sort((a, b) => a - b),
      spans: s.spans,
      options: s.options,
      simOptions,
      isCandidate: s.options.length > 0,
    };
  });

  const simOptions: Partial<Record<SimOptionKey, SimOptionOccurrence>> = {};
  for (const o of simOptionOccurrences) simOptions[o.key] = o;

  // Precision warnings (service notes §9): every occurrence out of bounds, top level and inside profilesets.
  // target_error=0 is simc's "no error target, run the iterations" and is not floored (the service's test double
  // treats it the same way); only 0 < target_error < 0.01 is.
  const precisionWarnings: PrecisionWarning[] = [];
  const precisionCheck = (key: string, numeric: number | null, line: number, where: string): void => {
    if (numeric === null) return;
    if (key === 'iterations' && numeric > MAX_ITERATIONS) {
      precisionWarnings.push({
        kind: 'iterations_clamped',
        line,
        requested: numeric,
        applied: MAX_ITERATIONS,
        message: `iterations=${numeric}${where} is above the service maximum; it runs at ${MAX_ITERATIONS}.`,
      });
    } else if (key === 'target_error' && numeric > 0 && numeric < MIN_TARGET_ERROR) {
      precisionWarnings.push({
        kind: 'target_error_floored',
        line,
        requested: numeric,
        applied: MIN_TARGET_ERROR,
        message: `target_error=${numeric}${where} is below the service minimum; it runs at ${MIN_TARGET_ERROR}.`,
      });
    }
  };
  const precisionItems: Array<{ key: string; numeric: number | null; line: number; where: string }> = [];
  for (const o of simOptionOccurrences)
    precisionItems.push({ key: o.key, numeric: o.numeric, line: o.line, where: '' });
  for (const d of profilesetDirectives) {
    if (d.name === null) continue;
    const opt = splitOption(d.option);
    if (opt !== null)
      precisionItems.push({
        key: opt.key,
        numeric: parseSimcNumber(opt.value),
        line: d.line,
        where: ` in profileset '${d.name}'`,
      });
  }
  precisionItems.sort((a, b) => a.line - b.line);
  for (const p of precisionItems) precisionCheck(p.key, p.numeric, p.line, p.where);

  for (const o of simOptionOccurrences) {
    if ((o.key === 'iterations' || o.key === 'target_error') && o.numeric === null) {
      diag('warning', 'not_a_number', o.line, `${o.key}=${o.value} is not a number.`);
    }
  }

  // Player count, main actor, actor-level checks.
  let playerCount: number | null = 0;
  for (const a of actors) {
    if (!a.isPlayer) continue;
    if (a.playerCount === null || playerCount === null) playerCount = null;
    else playerCount += a.playerCount;
  }

  const seen = new Map<string, number>();
  for (const a of actors) {
    if (!a.isPlayer || a.kind === 'guild') continue;
    const prev = seen.get(a.name);
    if (prev !== undefined) {
      diag(
        'warning',
        'duplicate_actor_name',
        a.line,
        `${a.name} has duplicate name (first on line ${prev}); simc renames it. Use unique names for all players.`,
      );
    } else seen.set(a.name, a.line);
  }

  const indexOpt = simOptions.profileset_main_actor_index;
  const mainIndex = indexOpt?.numeric ?? 0;
  const mainActor = Number.isInteger(mainIndex) && mainIndex >= 0 ? (actors[mainIndex] ?? null) : null;
  const hasProfilesets = profilesets.length > 0;
  if (hasProfilesets && actors.length === 0) {
    diag(
      includeSeen ? 'warning' : 'error',
      'profilesets_without_actor',
      profilesets[0]?.line ?? null,
      'Profilesets need an actor to apply to, and none is declared in this text' +
        (includeSeen ? ' (an included file may declare one).' : '.'),
    );
  } else if (hasProfilesets && mainActor === null) {
    diag(
      includeSeen ? 'warning' : 'error',
      'profileset_main_actor_out_of_range',
      indexOpt?.line ?? null,
      `Option profileset_main_actor_index=${indexOpt?.value ?? mainIndex} is out of range. Only ${actors.length} actors are defined` +
        (includeSeen ? ' in this text.' : '.'),
    );
  }
  if (actors.length === 0 && !includeSeen) {
    diag(
      'error',
      'nothing_to_sim',
      null,
      'No actor is declared and nothing is included: simc fails with "Nothing to sim!".',
    );
  }

  const det = simOptions.deterministic;
  const te = simOptions.target_error;
  if (
    det !== undefined &&
    det.numeric !== null &&
    det.numeric !== 0 &&
    te !== undefined &&
    te.numeric !== null &&
    te.numeric !== 0
  ) {
    diag(
      'error',
      'deterministic_with_target_error',
      det.line,
      'deterministic=1 cannot be used with non-zero target_error values!',
    );
  }

  const profilesetCandidates = profilesets.filter((p) => p.isCandidate).length;
  const copies = actors.filter((a) => a.kind === 'copy').length;

  return {
    lineCount: tok.lines.length,
    bom: tok.bom,
    eol: tok.eol,
    actors,
    playerCount,
    mainActor,
    simOptions,
    simOptionOccurrences,
    setBlocks,
    profilesets,
    profilesetDirectives,
    profilesetCandidates,
    variantCount: profilesetCandidates + copies + setBlocks.length,
    armory,
    includes,
    templateVariables,
    disallowed,
    precisionWarnings,
    diagnostics,
  };
}

/**
 * `armory=<region>,<server>,<name>[,<name>...]` or `armory=<name>,region=us,server=<realm>[,spec=...]`
 * (contract §1.5). A name may carry `|spec`; a leading `!` is the deprecated inactive-spec marker.
 */
function parseArmory(value: string): { names: string[]; region: string | null; server: string | null } {
  const parts = value.split(',').filter((p) => p !== '');
  const clean = (n: string): string => n.replace(/^!/, '').split('|')[0] ?? n;
  const kv = parts.filter((p) => p.includes('='));
  if (kv.length > 0) {
    const get = (k: string): string | null => {
      const hit = kv.find((p) => p.startsWith(`${k}=`));
      return hit === undefined ? null : hit.slice(k.length + 1);
    };
    return { names: parts.filter((p) => !p.includes('=')).map(clean), region: get('region'), server: get('server') };
  }
  const first = parts[0];
  if (parts.length >= 3 && first !== undefined && ARMORY_REGIONS.has(first.toLowerCase())) {
    return { names: parts.slice(2).map(clean), region: first, server: parts[1] ?? null };
  }
  return { names: parts.map(clean), region: null, server: null };
}
