/**
 * simjob as a library: `import { createClient } from 'simjob'`. Documented in docs/library.md; the exported names
 * and types are pinned by etc/simjob.api.d.ts (test/unit/library-api.test.ts), so a change to them is deliberate.
 */
export {
  createClient,
  createLocalClient,
  type Client,
  type ClientOptions,
  type DownloadOptions,
  type EnvironmentOptions,
  type LocalClientOptions,
  type RemoteClientOptions,
  type SubmitOptions,
  type Submitted,
  type WaitOptions,
} from './core/client.js';
export {
  compareResults,
  droptimizerAnswer,
  planStatWeights,
  planTopGear,
  readReport,
  statWeights,
  topGearAnswer,
  type CharacterInfo,
  type CharacterSummary,
  type ComparedRow,
  type DroptimizerAnswer,
  type DropResult,
  type PlannedProfile,
  type SourceSummary,
  type StatWeight,
  type StatWeights,
  type StatWeightsOptions,
  type TopGearAnswer,
  type TopGearOptions,
} from './domain/index.js';
export { planDroptimizer, type DroptimizerOptions } from './core/plan-droptimizer.js';
export {
  ApiError,
  AuthError,
  ExitCode,
  InterruptedError,
  JobUnsuccessfulError,
  LocalError,
  NetworkError,
  SimjobError,
  UsageError,
  WaitTimeoutError,
  type ApiErrorDetails,
} from './errors.js';
export { FileExists } from './core/api/download.js';
export type * from './core/resources/types.js';
