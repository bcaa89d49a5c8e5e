import type { Context } from '../../context.js';
import { UsageError } from '../../../errors.js';
import { readProfile, type ProfileInput } from '../../../core/jobs/submission.js';
import { CAPS, readStdin } from '../../../util/read-file.js';
import { hasGlob } from '../../submitting/globs.js';
import { checkFlags, submitProfiles } from '../../submitting/submit.js';
import type { SubmitCommandOptions } from './command.js';

export async function run(ctx: Context, args: string[], options: SubmitCommandOptions): Promise<number | void> {
  checkFlags(options);
  // A quoted glob ('profiles/*.simc'), or one the shell left alone, is expanded here.
  const { paths: sources, expanded } = args.some(hasGlob)
    ? await (await import('../../submitting/globs.js')).expandProfileArgs(args)
    : { paths: args, expanded: false };
  if (sources.filter((s) => s === '-').length > 1) throw new UsageError('Only one profile can come from stdin ("-").');
  const profiles: ProfileInput[] = [];
  for (const source of sources)
    profiles.push(await readProfile(source, () => readStdin(ctx.stdin, 'The profile on stdin', CAPS.profile)));
  // A pattern or several arguments name a batch: it stays one (an array with --json) even when one file matched.
  return submitProfiles(ctx, profiles, options, expanded || args.length > 1);
}
