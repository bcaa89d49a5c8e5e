/**
 * `simjob statweights`: read a simc profile or a /simc export per character, make the stat-weights profile (one
 * profileset per stat, or simc's scale factors), and submit it through submit's own machinery (preflight, dry run,
 * remote or local, --wait, batches, scenarios). The weights are read where the job's result is shown
 * (cli/show-job/statweights.ts).
 */
import type { Context } from '../../context.js';
import { writeProfileFile } from '../profile-file.js';
import { UsageError } from '../../../errors.js';
import { readProfile, type ProfileInput } from '../../../core/jobs/submission.js';
import { STATWEIGHTS_META_KEY, statWeightsMeta, TOPGEAR_META_KEY } from '../../../domain/job-kind.js';
import { formatNumber } from '../../../util/format.js';
import { terminalSafe } from '../../../util/safe.js';
import { shellWord } from '../../../util/shell-word.js';
import { readCharacter, type Character } from '../../../domain/statweights/character.js';
import { amountNote, DEFAULT_AMOUNT } from '../../../domain/statweights/precision.js';
import { DEFAULT_TARGET_ERROR } from '../../../domain/profile/precision.js';
import { statWeightsProfile, type Method, type StatWeightsPlan } from '../../../domain/statweights/profile.js';
import { DEFAULT_STATS, parseStats, primaryStat } from '../../../domain/statweights/stats.js';
import { CAPS, readStdin } from '../../../util/read-file.js';
import { checkFlags, submitProfiles } from '../../submitting/submit.js';
import { hasGlob } from '../../submitting/globs.js';
import type { StatWeightsCommandOptions } from './command.js';

export type StatWeightsOptions = StatWeightsCommandOptions;

export async function run(ctx: Context, args: string[], options: StatWeightsOptions): Promise<number | void> {
  checkFlags(options);
  const method = options.method ?? 'profilesets';
  checkOwnFlags(options, method);
  // A quoted glob ('roster/*.simc') is expanded here, as submit does.
  const { paths: sources, expanded } = args.some(hasGlob)
    ? await (await import('../../submitting/globs.js')).expandProfileArgs(args)
    : { paths: args, expanded: false };
  if (sources.filter((s) => s === '-').length > 1) {
    throw new UsageError('Only one profile or export can come from stdin ("-").');
  }
  if (options.output && sources.length > 1) {
    throw new UsageError('-o writes one profile; give one profile or export with it.');
  }

  const profiles: ProfileInput[] = [];
  for (const source of sources) {
    const input = await readProfile(source, () => {
      if (ctx.stdin.isTTY) ctx.out.notice('Paste the profile or the /simc text, then press Ctrl-D.');
      return readStdin(ctx.stdin, 'The input on stdin', CAPS.profile);
    });
    const label = source === '-' ? 'The input on stdin' : source;
    const character = readCharacter(input.text, label);
    for (const warning of character.warnings) ctx.out.warn(`${label}: ${warning}`);
    const plan = planFor(character, method, options);
    ctx.out.notice(terminalSafe(describePlan(character, plan)));
    const note = plan.amount ? amountNote(character.level, plan.amount, options.amount !== undefined) : undefined;
    if (note) ctx.out.notice(note);
    const text = statWeightsProfile(character, plan, source === '-' ? 'stdin' : source);
    if (options.output) return writeProfile(ctx, options.output, text);
    profiles.push({ source, text, meta: statWeightsMeta(plan, character.className, character.spec) });
  }
  return submitProfiles(ctx, profiles, options, expanded || args.length > 1);
}

function checkOwnFlags(options: StatWeightsOptions, method: Method): void {
  if (options.amount !== undefined && method === 'scale') {
    throw new UsageError(
      '--amount is the points each profileset adds; simc picks its own scale delta.',
      'Drop --amount, or use --method profilesets.',
    );
  }
  const keys = new Set(options.meta.map((p) => p.slice(0, Math.max(0, p.indexOf('=')))));
  for (const key of [TOPGEAR_META_KEY, STATWEIGHTS_META_KEY]) {
    if (!keys.has(key)) continue;
    throw new UsageError(
      `--meta ${key}= is set by statweights itself (it marks the job for \`simjob result\`).`,
      'Use another key.',
    );
  }
}

function planFor(character: Character, method: Method, options: StatWeightsOptions): StatWeightsPlan {
  const stats = parseStats(options.stats ?? DEFAULT_STATS, primaryStat(character.className, character.spec), method);
  return {
    method,
    stats,
    ...(method === 'profilesets' ? { amount: options.amount ?? DEFAULT_AMOUNT } : {}),
    targetError: options.targetError ?? DEFAULT_TARGET_ERROR,
  };
}

function describePlan(character: Character, plan: StatWeightsPlan): string {
  const who = `${character.name} (${[character.spec, character.className].filter(Boolean).join(' ')})`;
  const stats = plan.stats.map((s) => s.label).join(', ');
  const how =
    plan.method === 'profilesets'
      ? `the baseline and ${plan.stats.length} profilesets adding ${formatNumber(plan.amount!)} points each`
      : "simc's scale factors";
  // Iterations grow as 1/target_error² (domain/statweights/precision.ts): say what the precision costs against
  // simc's default 0.2%.
  const cost = (0.2 / plan.targetError) ** 2;
  const runs = plan.stats.length + 1;
  const times = formatNumber(cost, cost < 10 ? 1 : 0);
  const each = cost > 1.05 ? ` Each of the ${runs} runs takes about ${times}× the iterations of a default sim.` : '';
  return `${who}: weighing ${stats} by ${how}, target_error ${plan.targetError}.${each}`;
}

async function writeProfile(ctx: Context, file: string, text: string): Promise<number> {
  await writeProfileFile(file, text);
  if (ctx.out.json) ctx.out.printJson({ output: file, bytes: Buffer.byteLength(text) });
  else ctx.out.notice(`Wrote ${file}. Run it with: simjob submit ${shellWord(file)}`);
  return 0;
}
