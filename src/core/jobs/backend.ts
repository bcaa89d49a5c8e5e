import type { ArtifactSource } from '../api/download.js';
import type {
  Build,
  BuildList,
  CancelResponse,
  JobList,
  JobRecord,
  ResultRecord,
  StatusRecord,
  SubmitRequest,
  SubmitResponse,
  Usage,
} from '../resources/schemas.js';
import type { ProfileAnalysis } from '../../domain/profile/types.js';

/** A resource as the backend read it (`data`, typed) and exactly as it arrived (`raw`, for --json output). */
export interface Fetched<T> {
  data: T;
  raw: unknown;
}

export interface SubmitInput {
  request: SubmitRequest;
  /**
   * Sent with the submission and reused on its retries, so a retried submission never makes a second job. A remote
   * submission always has one (a fresh one per invocation unless --idempotency-key gives it); a local one only when
   * --idempotency-key gives it, as a local submission is never retried and nobody else knows a fresh key.
   */
  idempotencyKey?: string;
  /** Send the profile as text/plain with query parameters and headers (spec 2.1) instead of JSON. */
  plain: boolean;
  /** Local backend only: the simc binary to run (`submit --simc PATH`). */
  simc?: string;
  /** The profile's analysis when the caller already made it (preflight), so it is not made twice. */
  analysis?: ProfileAnalysis;
  /**
   * The caller waits for the job right away (`--wait`): a local backend that hosts its queue while waiting starts no
   * background worker for it (the wait runs it).
   */
  waited?: boolean;
}

export interface Submitted extends Fetched<SubmitResponse> {
  /** The service answered with the original job for this idempotency key (`X-Idempotent-Replay: true`). */
  replay: boolean;
}

export interface ListParams {
  limit?: number;
  cursor?: string;
}

/**
 * One interface, two implementations: the hosted service (remote.ts) and a local simc (local/backend.ts).
 * Commands talk to this and never know which one they have; both produce the records of spec §2.
 */
export interface JobBackend {
  readonly kind: 'remote' | 'local';
  submit(input: SubmitInput): Promise<Submitted>;
  job(id: string): Promise<Fetched<JobRecord>>;
  /** `once`: one attempt, no retries, for a wait loop that rides out failures on its own schedule (jobs/wait.ts). */
  status(id: string, options?: { once?: boolean }): Promise<Fetched<StatusRecord>>;
  result(id: string): Promise<Fetched<ResultRecord>>;
  /** simc's warnings from the job's report (`notifications`), where the backend keeps them apart (local only). */
  notifications?(id: string): Promise<string[]>;
  cancel(id: string): Promise<Fetched<CancelResponse>>;
  list(params: ListParams): Promise<Fetched<JobList>>;
  /** A fresh download URL for an artifact (remote: GET /v1/sim/artifacts/{id}/url; local: a file: URL). */
  artifactUrl(artifactId: string): Promise<string>;
  /** Where that job's artifacts may be read from (api/download.ts checks every URL against it). */
  artifactSource(jobId: string): ArtifactSource;
  usage(): Promise<Fetched<Usage>>;
  build(id: string): Promise<Fetched<Build>>;
  builds(): Promise<Fetched<BuildList>>;
}
