/**
 * Profile analysis: read simc profile text well enough for input checks, multistage eligibility, staged local
 * runs and `--dry-run`. Pure functions on strings; no I/O and no dependencies, so `submit` can load it cheaply.
 */
export { tokenize, splitOption, expandTemplates } from './tokenize.js';
export type { Token, SourceLine, LineKind, TokenizedProfile, OptionParts, Expansion } from './tokenize.js';
export {
  analyzeProfile,
  analyzeTokens,
  disallowedCategory,
  isActorDirective,
  parseSimcNumber,
  CLASS_DIRECTIVES,
  MAX_ITERATIONS,
  MIN_TARGET_ERROR,
} from './analyze.js';
export {
  multistageEligibility,
  planStages,
  findStageSensitiveDirectives,
  MIN_MULTISTAGE_CANDIDATES,
  DEFAULT_STAGE_TARGET_ERRORS,
  DEFAULT_FINAL_TARGET_ERROR,
  FINAL_ONLY_DIRECTIVES,
  MULTISTAGE_REASONS,
} from './multistage.js';
export type { MultistageOptions, StageSensitiveDirective } from './multistage.js';
export { rewriteForStage, formatSimcNumber } from './rewrite.js';
export type { StageRewriteOptions } from './rewrite.js';
export * from './types.js';
