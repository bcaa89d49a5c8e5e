/** `simjob artifacts`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { collect } from '../flags.js';

export const defineArtifacts = (parent: AnyCommand) =>
  examples(
    parent
      .command('artifacts <id>')
      .description("List a job's artifacts, or download them (streamed to disk).")
      .option('--download', 'Download the artifacts (all, or those named by --kind).')
      .option('-k, --kind <kind>', 'Only artifacts of this kind, e.g. json_report (repeatable).', collect, [])
      .option('-o, --dir <folder>', 'Folder to download into (default: ./<job id>).')
      .option('--clobber', 'Overwrite files that already exist in the folder (default: stop, exit 2).')
      .option('--skip-existing', 'Keep files that already exist in the folder and download the rest.'),
    [
      'simjob artifacts 519253542012420096',
      'simjob artifacts 519253542012420096 --download --kind html_report -o reports/',
      'simjob artifacts 519253542012420096 --download --skip-existing',
    ],
  );
export type ArtifactsOptions = OptionsOf<ReturnType<typeof defineArtifacts>>;
