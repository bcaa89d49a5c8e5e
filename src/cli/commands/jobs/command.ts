/** `simjob jobs`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { positiveInteger } from '../../../util/parse.js';

export const defineJobs = (parent: AnyCommand) =>
  examples(
    parent
      .command('jobs')
      .description('List recent jobs, newest first.')
      .option('-L, --limit <n>', 'Jobs per page, 1-100 (default 25).', positiveInteger('--limit'))
      .option('--cursor <cursor>', 'Continue from a page.nextCursor.')
      .option('--all', 'Follow every page.')
      .option('--local', 'List local jobs.'),
    ['simjob jobs', "simjob jobs --limit 100 --all --json | jq -r '.jobs[].id'", 'simjob jobs --local'],
  );
export type JobsOptions = OptionsOf<ReturnType<typeof defineJobs>>;
