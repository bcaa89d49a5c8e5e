import type { ResultRecord } from '../../../core/resources/schemas.js';
import type { RankedProfileset } from '../../../domain/report/profileset-list.js';
import { isTopGearJob } from '../../../domain/job-kind.js';
import type { StatWeights } from '../../../domain/statweights/weights.js';

/** One job as the report shows it. */
export interface ReportJob {
  record: ResultRecord;
  /** Ranked best first: every profileset when the JSON report was read, else the summary's top. */
  profilesets: RankedProfileset[];
  /** How many profilesets the job had (the summary's count), which may exceed those listed. */
  count: number;
  /** Where the record came from, for the page's footer: "the service", "a local job", "file results.json". */
  origin: string;
  /** A stat-weights job's weights (statweights/), charted above its profilesets. */
  statWeights?: StatWeights;
}

/** Metadata keys `submit --scenario` sets on each job of a scenario matrix. */
export const SCENARIO_KEY = 'scenario';
export const PROFILE_KEY = 'profile';

export function metadataString(job: ReportJob, key: string): string | undefined {
  const value = job.record.metadata?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export interface ScenarioMatrix {
  scenarios: string[];
  profiles: string[];
  cell(scenario: string, profile: string): ReportJob | undefined;
}

/**
 * The jobs as a scenario × profile matrix, when every job names its scenario (`submit --scenario`); rows and
 * columns keep the order the jobs were given in. A job without a `profile` key stands for its actor.
 */
export function scenarioMatrix(jobs: ReportJob[]): ScenarioMatrix | undefined {
  if (jobs.length < 2 || !jobs.every((j) => metadataString(j, SCENARIO_KEY))) return undefined;
  const cells = new Map<string, ReportJob>();
  const scenarios: string[] = [];
  const profiles: string[] = [];
  for (const job of jobs) {
    const scenario = metadataString(job, SCENARIO_KEY)!;
    const profile = profileLabel(job);
    if (!scenarios.includes(scenario)) scenarios.push(scenario);
    if (!profiles.includes(profile)) profiles.push(profile);
    cells.set(JSON.stringify([scenario, profile]), job);
  }
  return { scenarios, profiles, cell: (s, p) => cells.get(JSON.stringify([s, p])) };
}

/** What a job is called beside the others: its profile file, else its actor, else its id. */
export function profileLabel(job: ReportJob): string {
  return metadataString(job, PROFILE_KEY) ?? job.record.result.summary?.mainActor?.name ?? job.record.id;
}

export function isTopGear(job: ReportJob): boolean {
  return isTopGearJob(job.record.metadata);
}
