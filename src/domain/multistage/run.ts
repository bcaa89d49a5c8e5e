/**
 * Staged (multistage) runs: every profileset at coarse precision, cull the ones that cannot be the best
 * (cull.ts), re-run the survivors at finer precision, and report each profileset with the numbers of the highest
 * stage it reached (service notes §15, interface §2.4).
 *
 * Each stage is a separate simc run of the original profile rewritten by `rewriteForStage`: only the surviving
 * profilesets, the stage's target_error, the iterations cap (the profile's, else the 250,000 safety cap) and, in
 * non-final stages, the final-only directives stripped and `report_details=0` appended (stripping `report_details`
 * alone would bring back simc's default of 1, and the detailed report of a coarse stage is of no use).
 *
 * How a pass is run is injected (`runPass`), so the local job runner, the bench and the tests drive the same code.
 * Profiles that cannot be staged run once, unchanged, with the reason from `multistageEligibility`.
 */
import type { MultiStageReason, StageLabel } from '../profile/types.js';
import {
  analyzeProfile,
  mainActorChoice,
  multistageEligibility,
  planStages,
  rewriteForStage,
} from '../profile/index.js';
import { cullCandidates, type CullResult } from './cull.js';
import {
  rankRows,
  readStageReport,
  type MainActorChoice,
  type RankedRow,
  type StageReport,
  type StageRow,
} from '../report/report-rows.js';

export type { RankedRow };

/** One simc run the orchestrator asks for. */
export interface StagePass {
  /** The profile text to run. */
  readonly profile: string;
  /** 1-based; 1 for a single pass. */
  readonly stage: number;
  readonly totalStages: number;
  /** `initial` / `intermediate` / `final`; null for a single pass. */
  readonly label: StageLabel | null;
  /** The last pass: the one whose HTML report (if asked for) is kept. */
  readonly final: boolean;
  /** True when this pass is a stage of a staged run (artifacts then carry their stage). */
  readonly staged: boolean;
  /** Profilesets in this pass's input. */
  readonly profilesets: number;
  /** Progress within this pass, 0–100 (e.g. from simc's `progressbar_type=1` lines). */
  readonly onProgress: (percent: number) => void;
  readonly signal?: AbortSignal;
}

/** A file a pass produced (JSON report, HTML report, logs). */
export interface PassArtifact {
  readonly kind: string;
  readonly path: string;
  readonly mimeType?: string;
}

export interface PassOutput {
  /** simc's JSON report of the pass, parsed. */
  readonly report: unknown;
  readonly artifacts?: readonly PassArtifact[];
}

export type RunPass = (pass: StagePass) => Promise<PassOutput>;

export interface StageProgressInfo {
  readonly current: number;
  readonly total: number;
  readonly label: StageLabel | null;
  /** Of the current stage, 0–100. */
  readonly percent: number;
}

export interface StagedProgress {
  /** Of the whole job, 0–100; never goes back. */
  readonly percent: number;
  /** The stage running now; null for a single pass. */
  readonly stage: StageProgressInfo | null;
}

export interface StagedRunOptions {
  /** The profile as submitted. */
  readonly profile: string;
  /** `runtime.multiStage`: the user asked for a staged run. */
  readonly multiStage: boolean;
  readonly runPass: RunPass;
  readonly onProgress?: (progress: StagedProgress) => void;
  readonly signal?: AbortSignal;
  /** Culling error rate per round (cull.ts); the default is the tested one. */
  readonly alpha?: number;
  /** Which player is the baseline; by default the profile's main actor. */
  readonly mainActor?: MainActorChoice;
}

/** `summary.multiStage.stages[]` entry. */
export interface StageEntry {
  readonly stage: number;
  readonly label: StageLabel;
  /** Profilesets run in this stage. */
  readonly profilesets: number;
  /** Dropped at the end of this stage; 0 for the last one. */
  readonly culled: number;
}

export interface MultiStageBlock {
  readonly enabled: boolean;
  readonly reason: MultiStageReason;
  readonly stages: StageEntry[];
}

export interface StagedArtifact extends PassArtifact {
  /** 1-based stage for a staged run's artifacts, null for a single pass. */
  readonly stage: number | null;
}

export interface PassRecord {
  readonly stage: number;
  readonly label: StageLabel | null;
  readonly targetError: number | null;
  readonly profilesets: number;
  readonly culled: number;
  /** Iterations this pass ran (baseline + every profileset). */
  readonly iterations: number;
  readonly durationMs: number;
  /** The culling decision after this pass (absent after the last one). */
  readonly cull?: CullResult;
}

export interface StagedRunResult {
  readonly multiStage: MultiStageBlock;
  /** The baseline as the last pass measured it. */
  readonly baseline: StageRow;
  /** Every profileset that produced a result, best first, each with its highest stage's numbers. */
  readonly profilesets: RankedRow[];
  readonly passes: PassRecord[];
  readonly artifacts: StagedArtifact[];
  /** Iterations over all passes. */
  readonly iterations: number;
  /** Some pass's report came from the stand-in simc. */
  readonly synthetic: boolean;
}

const NON_FINAL_DETAILS = 'report_details=0';

function withNonFinalDetails(text: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const sep = text.length === 0 || text.endsWith('\n') ? '' : eol;
  return `${text}${sep}# simjob: coarse stage, detailed report only in the final stage${eol}${NON_FINAL_DETAILS}${eol}`;
}

class ProgressRelay {
  private best = 0;

  constructor(private readonly sink: ((p: StagedProgress) => void) | undefined) {}

  report(stage: StageProgressInfo | null, current: number, total: number, percentOfStage: number): void {
    if (!this.sink) return;
    const within = Math.max(0, Math.min(100, percentOfStage));
    this.best = Math.max(this.best, ((current - 1 + within / 100) / total) * 100);
    this.sink({
      percent: Math.round(this.best * 10) / 10,
      stage: stage ? { ...stage, percent: Math.round(within * 10) / 10 } : null,
    });
  }
}

/** Run a job's profile: staged when asked for and eligible, otherwise in one pass. */
export async function runStaged(opts: StagedRunOptions): Promise<StagedRunResult> {
  const analysis = analyzeProfile(opts.profile);
  const eligibility = multistageEligibility(analysis, { requested: opts.multiStage });
  const mainActor = opts.mainActor ?? mainActorChoice(analysis);
  const progress = new ProgressRelay(opts.onProgress);

  if (!eligibility.enabled) {
    const started = performance.now();
    const out = await opts.runPass({
      profile: opts.profile,
      stage: 1,
      totalStages: 1,
      label: null,
      final: true,
      staged: false,
      profilesets: analysis.profilesets.length,
      onProgress: (p) => progress.report(null, 1, 1, p),
      signal: opts.signal,
    });
    const report = readStageReport(out.report, mainActor);
    progress.report(null, 1, 1, 100);
    return {
      multiStage: { enabled: false, reason: eligibility.reason, stages: [] },
      baseline: report.baseline,
      profilesets: rankRows(report.profilesets.map((r) => ({ ...r, stage: 1 }))),
      passes: [
        {
          stage: 1,
          label: null,
          targetError: null,
          profilesets: analysis.profilesets.length,
          culled: 0,
          iterations: report.iterations,
          durationMs: Math.round(performance.now() - started),
        },
      ],
      artifacts: (out.artifacts ?? []).map((a) => ({ ...a, stage: null })),
      iterations: report.iterations,
      synthetic: report.synthetic,
    };
  }

  const plan = eligibility.plan ?? planStages(analysis);
  const total = plan.stages.length;
  let alive = analysis.profilesets.map((p) => p.name);
  const latest = new Map<string, RankedRow>();
  const entries: StageEntry[] = [];
  const passes: PassRecord[] = [];
  const artifacts: StagedArtifact[] = [];
  let last: StageReport | undefined;
  let synthetic = false;

  for (const planned of plan.stages) {
    opts.signal?.throwIfAborted();
    const rewritten = rewriteForStage(opts.profile, {
      keepProfilesets: new Set(alive),
      targetError: planned.targetError,
      iterations: plan.iterations,
      deferFinalOnly: planned.deferFinalOnly,
    });
    const info: StageProgressInfo = { current: planned.stage, total, label: planned.label, percent: 0 };
    progress.report(info, planned.stage, total, 0);
    const started = performance.now();
    const out = await opts.runPass({
      profile: planned.final ? rewritten : withNonFinalDetails(rewritten),
      stage: planned.stage,
      totalStages: total,
      label: planned.label,
      final: planned.final,
      staged: true,
      profilesets: alive.length,
      onProgress: (p) => progress.report(info, planned.stage, total, p),
      signal: opts.signal,
    });
    const report = readStageReport(out.report, mainActor);
    last = report;
    synthetic ||= report.synthetic;
    for (const a of out.artifacts ?? []) artifacts.push({ ...a, stage: planned.stage });

    const inStage = new Set(alive);
    for (const row of report.profilesets)
      if (inStage.has(row.name)) latest.set(row.name, { ...row, stage: planned.stage });

    let cull: CullResult | undefined;
    if (!planned.final) {
      const measured = new Map(report.profilesets.map((r) => [r.name, r]));
      cull = cullCandidates({
        // A profileset the report left out (simc drops zero-mean results) has no estimate: it stays.
        candidates: alive.map((name) => {
          const r = measured.get(name);
          return {
            name,
            mean: r?.mean ?? Number.NaN,
            meanStdDev: r?.meanStdDev ?? null,
            iterations: r?.iterations ?? null,
          };
        }),
        baseline: { name: report.baseline.name, mean: report.baseline.mean, meanStdDev: report.baseline.meanStdDev },
        finalTargetError: plan.finalTargetError,
        alpha: opts.alpha,
      });
    }
    const culled = cull ? cull.culled.length : 0;
    entries.push({ stage: planned.stage, label: planned.label, profilesets: alive.length, culled });
    passes.push({
      stage: planned.stage,
      label: planned.label,
      targetError: planned.targetError,
      profilesets: alive.length,
      culled,
      iterations: report.iterations,
      durationMs: Math.round(performance.now() - started),
      ...(cull ? { cull } : {}),
    });
    progress.report(info, planned.stage, total, 100);
    if (cull) alive = cull.survivors;
  }

  if (!last) throw new Error('a staged run always has a final stage');
  return {
    multiStage: { enabled: true, reason: eligibility.reason, stages: entries },
    baseline: last.baseline,
    profilesets: rankRows(latest.values()),
    passes,
    artifacts,
    iterations: passes.reduce((sum, p) => sum + p.iterations, 0),
    synthetic,
  };
}
