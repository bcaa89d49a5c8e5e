import type { Output } from '../io.js';

/** One job of `submit --local --dry-run`: the simc run it would make. */
export interface LocalDryRun {
  /** The profile as named (a path, or - for stdin). */
  source: string;
  simc: { path: string; source: string };
  /** simc's arguments; null for a staged (--multistage) job, whose every stage has files of its own. */
  args: string[] | null;
  /** The job's folder, where simc runs (the id is made at submission). */
  cwd: string;
  warnings: string[];
  multiStage: unknown;
  idempotencyKey?: string;
  /** The request's settings, without the profile. */
  job: Record<string, unknown>;
  /** The profile as simc reads it. */
  input: { file: string; text: string };
}

/** --json: the runs as data (an array for a batch); else each run's simc, arguments and folder, then its profile. */
export function printLocalDryRuns(out: Output, runs: LocalDryRun[], batch: boolean): void {
  if (out.json) {
    out.printJson(batch ? runs : runs[0]);
    return;
  }
  out.notice('Dry run: the local run is valid; nothing was run or written.');
  runs.forEach((run, i) => {
    if (i > 0) out.line();
    out.keyValues([
      ['Profile', run.source === '-' ? 'stdin' : run.source],
      ['simc', `${run.simc.path} (from ${run.simc.source})`],
      ['Arguments', run.args ? run.args.join(' ') : 'one simc run per stage (--multistage), each on its own files'],
      ['Folder', run.cwd],
      ['Idempotency key', run.idempotencyKey],
    ]);
    out.line(out.c.dim(`${run.input.file}:`));
    for (const line of run.input.text.replace(/\n$/, '').split('\n')) out.line(line);
  });
}
