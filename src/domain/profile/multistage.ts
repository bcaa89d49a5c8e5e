/**
 * Multistage eligibility and stage planning (service notes §15, service interface §2.4).
 *
 * A multistage run sims every profileset candidate at coarse precision, culls the ones outside the error band
 * of the leaders, and re-sims the survivors at finer precision. This module decides whether an input can be
 * run that way and with which stages; `rewrite.ts` produces each stage's input.
 */
import { MAX_ITERATIONS } from './analyze.js';
import { DEFAULT_TARGET_ERROR, MIN_TARGET_ERROR } from './precision.js';
import { isFinalOnly } from './types.js';
import { plural } from '../../util/plural.js';
import type {
  DeferredDirective,
  MultiStageEligibility,
  MultiStageReason,
  PlannedStage,
  ProfileAnalysis,
  SimOptionKey,
  StageLabel,
  StagePlan,
} from './types.js';

/** Fewer candidates than this fall back to a single run (`below_min_candidates`). */
const MIN_MULTISTAGE_CANDIDATES = 4;

/** Target errors of the default stages, coarse to fine (service notes §15). */
const DEFAULT_STAGE_TARGET_ERRORS: readonly number[] = [1.0, 0.2, DEFAULT_TARGET_ERROR];

/** Sim options that, set inside a profileset, make that profileset stage-sensitive. */
const PROFILESET_STAGE_SENSITIVE: readonly SimOptionKey[] = ['target_error', 'iterations', 'deterministic'];

/** One stage-sensitive directive found in the input. */
export interface StageSensitiveDirective {
  readonly line: number;
  /** e.g. `target_error`, `deterministic`. */
  readonly directive: SimOptionKey;
  /** Profileset that sets it, `null` at the top level. */
  readonly profileset: string | null;
  /** One-line explanation for a user. */
  readonly why: string;
}

/**
 * Find the **stage-sensitive** directives of an input.
 *
 * Definition: a directive is stage-sensitive when a staged run cannot honour it without either failing or
 * ranking candidates whose precision differs from the stage's, i.e. when the stage's own precision settings
 * (appended by `rewriteForStage`) would not decide how precisely every candidate is simulated. Concretely:
 *
 * 1. **A profileset that sets its own `target_error` or `iterations`.** simc applies a profileset's options at
 *    the end of the main actor's block (`profileset.cpp` `create_sim_options`), i.e. after — and therefore
 *    over — the stage's precision lines. That candidate would run at its own precision in every stage, so its
 *    error band is not comparable with the others' when culling, and the early stages save nothing on it.
 * 2. **`deterministic=1`**, at the top level or inside a profileset. simc refuses `deterministic=1` with a
 *    non-zero `target_error` ("deterministic=1 cannot be used with non-zero target_error values!", contract
 *    §1.3), and every stage is defined by a non-zero target_error.
 *
 * Deliberately **not** stage-sensitive:
 * - `seed=`: profileset sims always reset the seed (fresh random seed per set, contract §2), and a fixed
 *   baseline seed only makes the baseline reproducible across stages; the culling is unaffected.
 * - `single_actor_batch=1`: only changes scheduling when there are several actors; multi-actor inputs are
 *   rejected anyway (`unsupported_multi_actor`), and with one player it is a no-op.
 * - Top-level `iterations` / `target_error`: the stage plan consumes them (the cap applies to every stage, the
 *   target error sets the final stage).
 * - The final-only directives (scale factors, plots, `report_details`): deferred to the final stage, not blocking.
 */
export function findStageSensitiveDirectives(analysis: ProfileAnalysis): StageSensitiveDirective[] {
  const out: StageSensitiveDirective[] = [];
  const det = analysis.simOptions.deterministic;
  if (det !== undefined && det.numeric !== null && det.numeric !== 0) {
    out.push({
      line: det.line,
      directive: 'deterministic',
      profileset: null,
      why: `deterministic=${det.value} (line ${det.line}) cannot run with a stage target_error; simc rejects deterministic=1 with a non-zero target_error`,
    });
  }
  for (const ps of analysis.profilesets) {
    for (const key of PROFILESET_STAGE_SENSITIVE) {
      const o = ps.simOptions[key];
      if (o === undefined) continue;
      if (key === 'deterministic' && (o.numeric === null || o.numeric === 0)) continue;
      out.push({
        line: o.line,
        directive: key,
        profileset: ps.name,
        why:
          key === 'deterministic'
            ? `profileset "${ps.name}" sets deterministic=${o.value} (line ${o.line}), which cannot run with a stage target_error`
            : `profileset "${ps.name}" sets its own ${key}=${o.value} (line ${o.line}), which would override every stage's precision`,
      });
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

export interface MultistageOptions {
  /** The user asked for multistage (`runtime.multiStage=true`). */
  readonly requested: boolean;
}

function result(enabled: boolean, reason: MultiStageReason, detail: string): MultiStageEligibility {
  return { enabled, reason, detail };
}

/**
 * Decide whether a multistage run applies, with the service's reason values.
 *
 * Order of checks (first match wins). It is the order in which the service's API reference lists the enum
 * values — identical in every published version (1.1 … 1.19) and reading like an evaluation order — so that
 * `--dry-run` predicts the reason the service will report:
 *
 * 1. `disabled_by_option` — multistage not requested. Nothing else matters.
 * 2. `unsupported_stage_sensitive_directive` — see {@link findStageSensitiveDirectives}. A property of the
 *    directives themselves: the user must change the input whatever its shape or candidate count.
 * 3. Variant shape (multistage ranks profilesets; `copy=`/`set=` variants are extra actors of one sim and
 *    cannot be split into stages):
 *    - `copy=`/`set=` without `profileset.*` → `unsupported_copy_set_only`;
 *    - `profileset.*` together with `copy=`/`set=` → `unsupported_mixed_profileset_copy_set`;
 *    - neither → `no_variants_in_input`.
 *    This comes before the actor count because copies are players too: a copy-only file would otherwise be
 *    reported as multi-actor, which hides the actual cause.
 * 4. `unsupported_multi_actor` — more than one player (class lines, `armory=` names, imports; not enemies or
 *    pets), or a `guild=` import whose size is unknown.
 * 5. `no_profileset_candidates` — `profileset.*` directives exist but none yields a set with options (names
 *    containing `.`, empty names, only empty values).
 * 6. `below_min_candidates` — fewer than 4 candidates.
 * 7. `eligible_profileset_only`.
 *
 * Only the text given is inspected; included files (`input=`, bare names) are not read, which `detail` says
 * when it matters.
 */
export function multistageEligibility(analysis: ProfileAnalysis, opts: MultistageOptions): MultiStageEligibility {
  const includeNote =
    analysis.includes.length > 0 ? ` (${plural(analysis.includes.length, 'included file')} not inspected)` : '';

  if (!opts.requested) {
    return result(false, 'disabled_by_option', 'multistage was not requested; the job runs as a single pass');
  }

  const sensitive = findStageSensitiveDirectives(analysis);
  const first = sensitive[0];
  if (first !== undefined) {
    const more = sensitive.length > 1 ? ` (+${sensitive.length - 1} more)` : '';
    return result(false, 'unsupported_stage_sensitive_directive', `${first.why}${more}`);
  }

  const copies = analysis.actors.filter((a) => a.kind === 'copy');
  const sets = analysis.setBlocks;
  const copySet = copies.length + sets.length;
  const copySetText = [
    copies.length > 0 ? plural(copies.length, 'copy= line') : '',
    sets.length > 0 ? plural(sets.length, 'set= line') : '',
  ]
    .filter((s) => s !== '')
    .join(' and ');
  const psDirectives = analysis.profilesetDirectives.length;

  if (psDirectives === 0 && copySet > 0) {
    return result(
      false,
      'unsupported_copy_set_only',
      `the input's variants are ${copySetText} (one multi-actor sim), which cannot be split into stages; use profileset.* instead`,
    );
  }
  if (copySet > 0) {
    return result(
      false,
      'unsupported_mixed_profileset_copy_set',
      `the input mixes profileset.* with ${copySetText}; multistage needs profilesets only`,
    );
  }
  if (psDirectives === 0) {
    return result(
      false,
      'no_variants_in_input',
      `the input has no profileset.* directives, so there is nothing to rank in stages${includeNote}`,
    );
  }

  const players = analysis.actors.filter((a) => a.isPlayer);
  if (analysis.playerCount === null || analysis.playerCount > 1) {
    const listed = players
      .slice(0, 3)
      .map((a) => `${a.directive}="${a.name}" (line ${a.line})`)
      .join(', ');
    const count =
      analysis.playerCount === null
        ? 'an unknown number of players (guild= import)'
        : `${analysis.playerCount} players`;
    return result(
      false,
      'unsupported_multi_actor',
      `the input declares ${count}: ${listed}${players.length > 3 ? ', …' : ''}; multistage supports one player`,
    );
  }

  const candidates = analysis.profilesetCandidates;
  if (candidates === 0) {
    const bad = analysis.profilesetDirectives.find((d) => d.problem !== null);
    const why = bad !== undefined ? `; e.g. line ${bad.line}: ${bad.problem}` : '; every profileset is empty';
    return result(
      false,
      'no_profileset_candidates',
      `${plural(psDirectives, 'profileset directive')} resolved to no candidate${why}`,
    );
  }
  if (candidates < MIN_MULTISTAGE_CANDIDATES) {
    return result(
      false,
      'below_min_candidates',
      `${plural(candidates, 'profileset candidate')}; multistage needs at least ${MIN_MULTISTAGE_CANDIDATES}, so a single pass runs`,
    );
  }

  const plan = planStages(analysis);
  const targets = plan.stages.map((s) => `${s.label} ${s.targetError}`).join(', ');
  return {
    ...result(
      true,
      'eligible_profileset_only',
      `${candidates} profileset candidates run in ${plural(plan.stages.length, 'stage')} (${targets})${includeNote}`,
    ),
    plan,
  };
}

/**
 * The stages a staged run would use.
 *
 * Rules:
 * - Default stages: target errors 1.0, 0.2, 0.05.
 * - Final target error: the profile's top-level `target_error` (last occurrence), raised to 0.01 if lower;
 *   0.05 when the profile sets none (or sets `target_error=0`, simc's "no error target").
 * - A default stage is kept only if its target error is strictly **greater** than the final one (a stage at or
 *   below the final precision is already "satisfied" by the final stage); the final stage always runs.
 *   Examples: 0.1 → 1.0, 0.2, 0.1 · 0.2 → 1.0, 0.2 · 0.3 → 1.0, 0.3 (0.2 would be finer than required) ·
 *   0.005 → 1.0, 0.2, 0.01 (floored) · 1.5 → 1.5 alone.
 * - Labels: the last stage is `final`; before it, the first is `initial` and a second is `intermediate`.
 * - Iterations: the profile's top-level `iterations` caps **every** stage (the behaviour the service's staging
 *   docs describe); above 250,000 it is clamped, and without one every stage runs under the 250,000 safety cap.
 * - The final-only directives found in the profile are listed in `deferred`; non-final stages have
 *   `deferFinalOnly: true` so `rewriteForStage` strips them.
 */
export function planStages(analysis: ProfileAnalysis): StagePlan {
  const te = analysis.simOptions.target_error;
  let finalTargetError = DEFAULT_TARGET_ERROR; // the final stage's, when the profile sets none
  let finalTargetErrorSource: StagePlan['finalTargetErrorSource'] = 'default';
  if (te !== undefined && te.numeric !== null && te.numeric > 0) {
    if (te.numeric < MIN_TARGET_ERROR) {
      finalTargetError = MIN_TARGET_ERROR;
      finalTargetErrorSource = 'profile_floored';
    } else {
      finalTargetError = te.numeric;
      finalTargetErrorSource = 'profile';
    }
  }

  const it = analysis.simOptions.iterations;
  let iterations = MAX_ITERATIONS;
  let iterationsSource: StagePlan['iterationsSource'] = 'safety_cap';
  // simc reads iterations as a whole number: a value under 1 (iterations=.1) is no cap at all.
  if (it !== undefined && it.numeric !== null && it.numeric >= 1) {
    if (it.numeric > MAX_ITERATIONS) {
      iterationsSource = 'profile_clamped';
    } else {
      iterations = Math.floor(it.numeric);
      iterationsSource = 'profile';
    }
  }

  const coarse = DEFAULT_STAGE_TARGET_ERRORS.slice(0, -1);
  const kept = coarse.filter((t) => t > finalTargetError);
  const skippedTargetErrors = coarse.filter((t) => t <= finalTargetError);
  const targets = [...kept, finalTargetError];
  const labelFor = (i: number): StageLabel =>
    i === targets.length - 1 ? 'final' : i === 0 ? 'initial' : 'intermediate';
  const stages: PlannedStage[] = targets.map((targetError, i) => ({
    stage: i + 1,
    label: labelFor(i),
    targetError,
    iterations,
    final: i === targets.length - 1,
    deferFinalOnly: i !== targets.length - 1,
  }));

  const deferred: DeferredDirective[] = analysis.simOptionOccurrences
    .filter((o) => isFinalOnly(o.key))
    .map((o) => ({ key: o.key, value: o.value, line: o.line }));

  return {
    stages,
    finalTargetError,
    finalTargetErrorSource,
    iterations,
    iterationsSource,
    skippedTargetErrors,
    deferred,
  };
}
