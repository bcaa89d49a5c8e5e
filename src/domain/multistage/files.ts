/** Names of a staged local job's files (kept apart so the records module can name them without loading a runner). */

/** The JSON report of a non-final stage; the final stage's is the job's usual `report.json`. */
export function stageJsonFile(stage: number): string {
  return `report.stage${stage}.json`;
}
