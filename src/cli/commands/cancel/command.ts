/** `simjob cancel`: its argument and help (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples } from '../define.js';

export const defineCancel = (parent: AnyCommand) =>
  examples(parent.command('cancel <id>').description('Cancel a queued or running job.'), [
    'simjob cancel 519253542012420096',
    'simjob jobs --json | jq -r \'.jobs[] | select(.status == "queued") | .id\' | xargs -n1 simjob cancel',
  ]);
