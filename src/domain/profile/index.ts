/**
 * Profile analysis: read simc profile text well enough for input checks, multistage eligibility, staged local
 * runs and `--dry-run`. Pure functions on strings; no I/O and no dependencies, so `submit` can load it cheaply.
 */
export { analyzeProfile, mainActorChoice, summaryMetricOf, type SummaryMetric } from './analyze.js';
export { multistageEligibility, planStages } from './multistage.js';
export { rewriteForStage } from './rewrite.js';
export type { StageRewriteOptions } from './rewrite.js';
export * from './types.js';
export { looksLikeProfile, NOT_A_PROFILE } from './looks-like-profile.js';
