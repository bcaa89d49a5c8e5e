/**
 * Types of the profile analysis module (`src/domain/profile/`). Kept in one file so other modules can
 * `import type { ... } from './types.js'` without loading any code.
 */
import type { MultiStageReason } from '../../core/resources/enums.js';

/** Where a directive sits in the source text. Offsets are UTF-16 indices into the analysed string. */
export interface SourceSpan {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column of the token's first character (quotes included). */
  readonly column: number;
  readonly start: number;
  readonly end: number;
}

export type ActorKind =
  | 'player' // <class>=<name>
  | 'copy' // copy=<name>[,<source>]
  | 'armory' // armory=... (one directive, possibly several players)
  | 'local_json' // local_json=<file>
  | 'guild' // guild=... (imports an unknown number of players)
  | 'player_simplified'
  | 'enemy'
  | 'tank_dummy'
  | 'pet'
  | 'guardian';

/**
 * One actor-creating directive, in input order. `index` is what `profileset_main_actor_index` counts
 * (simc counts every actor-scope directive: players, copies, imports, enemies, pets).
 */
export interface ActorInfo extends SourceSpan {
  readonly index: number;
  readonly kind: ActorKind;
  /** The directive as written, e.g. `warrior`, `copy`, `armory`. */
  readonly directive: string;
  /** Class for `player` actors; for copies, the class of the resolved source; otherwise `null`. */
  readonly class: string | null;
  /** Declared name with quotes removed (armory/guild: the first name or the raw value). */
  readonly name: string;
  /** The raw value after `=` (after template expansion). */
  readonly value: string;
  /** True for actors that are players (simc `player_no_pet_list`): not enemies, pets or guardians. */
  readonly isPlayer: boolean;
  /** Players this directive creates: 1 for players/copies, one per name for `armory=`, `null` for `guild=`. */
  readonly playerCount: number | null;
  /** For `copy=` only: where it copies from. */
  readonly copySource?: CopySource;
  /** Names for `armory=` with several characters. */
  readonly names?: readonly string[];
}

export interface CopySource {
  /** Source actor name, or `null` when no actor was active (simc: "No active player as source ..."). */
  readonly name: string | null;
  /** `copy=<new>,<source>` (true) or implicit "currently active actor" (false). */
  readonly explicit: boolean;
  /** Line of the source actor's declaration when it is in this text. */
  readonly line: number | null;
}

/** Directives that only take effect in the final stage of a staged run; earlier stages run without them. */
export const FINAL_ONLY_DIRECTIVES = [
  'calculate_scale_factors',
  'scale_delta_multiplier',
  'center_scale_delta',
  'dps_plot_stats',
  'report_details',
  'scale_only',
] as const;

/** Sim options this module knows about (all are sim-level in simc, so their position does not matter). */
export const SIM_OPTIONS_OF_INTEREST = [
  'iterations',
  'target_error',
  'deterministic',
  'seed',
  'threads',
  'single_actor_batch',
  'profileset_main_actor_index',
  'profileset_report_player_index',
  'profileset_metric',
  'profileset_work_threads',
  'profileset_init_threads',
  ...FINAL_ONLY_DIRECTIVES,
  'normalize_scale_factors',
  'strict_parsing',
  'fight_style',
  'max_time',
  'desired_targets',
  'vary_combat_length',
  'optimal_raid',
] as const;
export type SimOptionKey = (typeof SIM_OPTIONS_OF_INTEREST)[number];

export const isFinalOnly = (key: SimOptionKey): boolean => (FINAL_ONLY_DIRECTIVES as readonly string[]).includes(key);

/** One occurrence of a sim option at the top level (not inside a profileset). */
export interface SimOptionOccurrence extends SourceSpan {
  readonly key: SimOptionKey;
  readonly value: string;
  /** Parsed number (empty value = 0, as simc's numeric options do), `null` when not numeric. */
  readonly numeric: number | null;
  readonly append: boolean;
}

/** One option string inside a profileset (`profileset.<name>=<option>` / `+=<option>`). */
export interface ProfilesetOption {
  readonly line: number;
  /** `=` resets the set's option list; `+=` appends. */
  readonly op: '=' | '+=';
  /** The option string, e.g. `talents=ABC` (after template expansion, quotes removed). */
  readonly option: string;
  /** Option name (`talents`), `''` when the option has no `=` (simc then includes it as a file). */
  readonly key: string;
  readonly value: string;
}

export interface ProfilesetSimOption {
  readonly key: SimOptionKey;
  readonly value: string;
  readonly numeric: number | null;
  readonly line: number;
}

export interface ProfilesetInfo {
  readonly name: string;
  /** Line of the first directive of this set. */
  readonly line: number;
  /** Every line with a directive of this set (ascending, unique). */
  readonly lines: readonly number[];
  /** Every directive token of this set (for rewriting). */
  readonly spans: readonly SourceSpan[];
  /** Effective option list after `=` resets, in order (what simc applies to the main actor). */
  readonly options: readonly ProfilesetOption[];
  /** Sim options of interest this set sets for itself (last one wins), e.g. its own `target_error`. */
  readonly simOptions: Partial<Record<SimOptionKey, ProfilesetSimOption>>;
  /** True when the set has at least one option, i.e. it is a real variant of the baseline. */
  readonly isCandidate: boolean;
}

/** Every token whose option name starts with `profileset.`, valid or not. */
export interface ProfilesetDirective extends SourceSpan {
  /** Resolved set name, or `null` when simc would not accept the directive as a profileset. */
  readonly name: string | null;
  readonly op: '=' | '+=';
  readonly option: string;
  /** Why simc would not treat it as a profileset (name with `.`, empty name). */
  readonly problem: string | null;
}

export interface SetBlock extends SourceSpan {
  readonly value: string;
  readonly text: string;
}

export interface ArmoryLine extends SourceSpan {
  readonly value: string;
  readonly names: readonly string[];
  readonly region: string | null;
  readonly server: string | null;
  readonly text: string;
}

export type IncludeKind = 'input' | 'bare' | 'stdin';

export interface IncludeRef extends SourceSpan {
  readonly kind: IncludeKind;
  /** File name as simc would open it (after template expansion); `-` for stdin. */
  readonly file: string;
  /** The name has a directory part (`/`, `\`, `~`, `..`): outside any bundled `profiles/` tree. */
  readonly isPath: boolean;
  /** The token starts with `#`: almost certainly an inline comment that simc reads as a file name. */
  readonly looksLikeComment: boolean;
  /** Set when the include is an option inside a profileset. */
  readonly profileset: string | null;
}

export interface TemplateVariable {
  readonly name: string;
  readonly value: string;
  readonly line: number;
}

export type DisallowedCategory =
  'output' | 'file_read' | 'network' | 'secret' | 'compute' | 'output_format' | 'json_bloat' | 'plot';

/** A directive the hosted service rejects with 422 `input_sanitized_rejected` (service notes §9). */
export interface DisallowedDirective {
  readonly line: number;
  /** The whole source line, trimmed (what the service reports in `meta.blocked[].text`). */
  readonly text: string;
  /** Option name that matched, as written (`json2`, `save_prefix`). */
  readonly directive: string;
  readonly category: DisallowedCategory;
  /** Set when the directive is an option inside a profileset. */
  readonly profileset: string | null;
}

export type PrecisionWarningKind = 'iterations_clamped' | 'target_error_floored';

/** The service's `warnings[]` item for out-of-range precision (service notes §9). */
export interface PrecisionWarning {
  readonly kind: PrecisionWarningKind;
  readonly line: number;
  readonly requested: number;
  readonly applied: number;
  readonly message: string;
}

export type DiagnosticSeverity = 'error' | 'warning';

/** Problems simc itself would report (errors) or that are almost certainly mistakes (warnings). */
export interface ProfileDiagnostic {
  readonly severity: DiagnosticSeverity;
  readonly code: string;
  readonly line: number | null;
  readonly message: string;
}

export interface ProfileAnalysis {
  /** Number of lines in the text. */
  readonly lineCount: number;
  readonly bom: boolean;
  readonly eol: '\n' | '\r\n';
  /** Actor-creating directives in input order. */
  readonly actors: readonly ActorInfo[];
  /** Players declared (copies and armory names count); `null` when a `guild=` import makes it unknown. */
  readonly playerCount: number | null;
  /**
   * The actor `profileset_main_actor_index` selects, counted over the actor directives of this text. Actors
   * declared in included files are not seen, so with an include before the actors this can be off.
   */
  readonly mainActor: ActorInfo | null;
  /** Last top-level occurrence of each sim option of interest. */
  readonly simOptions: Partial<Record<SimOptionKey, SimOptionOccurrence>>;
  /** Every top-level occurrence of the sim options of interest, in order. */
  readonly simOptionOccurrences: readonly SimOptionOccurrence[];
  /** `set=` directives: not a simc option, but the service counts them as variant blocks. */
  readonly setBlocks: readonly SetBlock[];
  /** Profilesets by resolved name, in order of first appearance. */
  readonly profilesets: readonly ProfilesetInfo[];
  readonly profilesetDirectives: readonly ProfilesetDirective[];
  /** Profilesets with at least one option (the candidates a multistage run would rank). */
  readonly profilesetCandidates: number;
  /** Profileset candidates + copies + set blocks: what the service's `maxSimcVariants` counts. */
  readonly variantCount: number;
  readonly armory: readonly ArmoryLine[];
  readonly includes: readonly IncludeRef[];
  readonly templateVariables: readonly TemplateVariable[];
  readonly disallowed: readonly DisallowedDirective[];
  readonly precisionWarnings: readonly PrecisionWarning[];
  readonly diagnostics: readonly ProfileDiagnostic[];
}

/** The reasons of `result.summary.multiStage.reason` (spec §2.4), defined once in core/resources/enums. */
export type { MultiStageReason };

export interface MultiStageEligibility {
  readonly enabled: boolean;
  readonly reason: MultiStageReason;
  /** One line a user can act on. */
  readonly detail: string;
  /** When enabled: the stages it would run (the plan the detail describes). */
  readonly plan?: StagePlan;
}

export type StageLabel = 'initial' | 'intermediate' | 'final';

export interface PlannedStage {
  /** 1-based, in run order. */
  readonly stage: number;
  readonly label: StageLabel;
  readonly targetError: number;
  /** Iteration cap for this stage (always set: the profile's value clamped to 250,000, or 250,000). */
  readonly iterations: number;
  readonly final: boolean;
  /** Final-only directives are stripped from this stage's input (true for every non-final stage). */
  readonly deferFinalOnly: boolean;
}

export interface DeferredDirective {
  readonly key: SimOptionKey;
  readonly value: string;
  readonly line: number;
}

export interface StagePlan {
  readonly stages: readonly PlannedStage[];
  readonly finalTargetError: number;
  /** `profile`: used as written; `profile_floored`: below 0.01, raised to it; `default`: none given, 0.05. */
  readonly finalTargetErrorSource: 'profile' | 'profile_floored' | 'default';
  readonly iterations: number;
  /** `profile`: as written; `profile_clamped`: above 250,000, lowered to it; `safety_cap`: none given. */
  readonly iterationsSource: 'profile' | 'profile_clamped' | 'safety_cap';
  /** Coarse default stages (1.0, 0.2) dropped because the final target error is at or above them. */
  readonly skippedTargetErrors: readonly number[];
  /** Final-only directives present in the profile (top level), deferred to the final stage. */
  readonly deferred: readonly DeferredDirective[];
}
