/**
 * `simjob topgear`: read the addon export, build the gear combinations, and submit them as one profileset job
 * through submit's own machinery (preflight, dry run, remote or local, --wait).
 */
import type { Context } from '../../context.js';
import { writeProfileFile } from '../profile-file.js';
import { UsageError } from '../../../errors.js';
import { MAX_PROFILE_BYTES } from '../../../core/resources/schemas.js';
import type { AddonExport } from '../../../domain/addon/export.js';
import { readAddonExport } from '../addon-input.js';
import { planTopGear, type TopGearPlan } from '../../../domain/topgear/combinations.js';
import { DEFAULT_MAX_COMBOS, parseSlots, type Group } from '../../../domain/topgear/groups.js';
import { suggestSlots } from '../../../domain/topgear/limit.js';
import { topGearProfile, topGearSubmitCommand } from '../../../domain/topgear/profile.js';
import { EXPORT_META_KEY, EXPORT_UNCHECKED, TOPGEAR_KIND, TOPGEAR_META_KEY } from '../../../domain/job-kind.js';
import { formatNumber } from '../../../util/format.js';
import { noun } from '../../../util/plural.js';
import { terminalSafe } from '../../../util/safe.js';
import { shellWord } from '../../../util/shell-word.js';
import type { TopGearOptions } from './command.js';
import { checkFlags, submitProfiles } from '../../submitting/submit.js';
import { MIN_TARGET_ERROR } from '../../../domain/profile/precision.js';

export async function run(ctx: Context, [source = '-']: string[], options: TopGearOptions): Promise<number | void> {
  checkFlags(options);
  if (options.targetError !== undefined && !(options.targetError > 0)) {
    throw new UsageError(
      `--target-error must be above 0, e.g. ${MIN_TARGET_ERROR} (simc reads target_error=0 as "no error target").`,
    );
  }
  const slots = readSlots(options.slots);
  const { exp, label } = await readAddonExport(ctx, source);

  const plan = planTopGear(exp, { slots, talents: options.talents });
  reportCounts(ctx, exp, plan);
  if (plan.count < 2) {
    throw new UsageError(
      `${label} offers nothing to swap in${options.slots ? ` for --slots ${options.slots}` : ''}: the equipped set is the only combination.`,
      options.slots ? 'Name other slot groups in --slots, or drop it.' : nothingToSwapHint(exp),
    );
  }
  const max = options.maxCombos ?? DEFAULT_MAX_COMBOS;
  if (plan.count > max) throw tooMany(plan, max, options.talents);

  // A raised --max-combos must not build a profile the service would refuse: each profileset is a line of at least
  // MIN_SET_BYTES, so a count whose lines alone pass 2 MB is refused before any is written.
  if (!options.local && !options.output) checkServiceSize((plan.count - 1) * MIN_SET_BYTES, plan, true);
  const profile = topGearProfile(exp, plan, source === '-' ? 'stdin' : source, { targetError: options.targetError });
  if (options.output) return writeProfile(ctx, options.output, profile.text, plan);
  if (!options.local) checkServiceSize(Buffer.byteLength(profile.text), plan);

  const meta = [...options.meta];
  for (const key of [TOPGEAR_META_KEY, EXPORT_META_KEY]) {
    if (!meta.some((m) => m.startsWith(`${key}=`))) continue;
    throw new UsageError(
      `--meta ${key}= is set by topgear itself (it marks the job for \`simjob result\`).`,
      'Use another key.',
    );
  }
  if (options.plain)
    ctx.out.warn(
      '--plain sends no metadata, so `simjob result` will not know this is a top gear job (the profileset names still say what each one swaps in).',
    );
  else {
    meta.push(`${TOPGEAR_META_KEY}=${TOPGEAR_KIND}`);
    if (exp.checksum.state === 'missing') meta.push(`${EXPORT_META_KEY}=${EXPORT_UNCHECKED}`);
  }
  return submitProfiles(ctx, [{ source, text: profile.text }], { ...options, meta });
}

/** A paste without its checksum line may have lost the bags to a cut; a whole one really lists none. */
function nothingToSwapHint(exp: AddonExport): string {
  if (exp.checksum.state === 'missing') {
    return (
      'The export has no "# Checksum:" line, so the paste may be cut short: copy the whole /simc text, ' +
      'down to its last line.'
    );
  }
  return 'Open your bags in game and run /simc again: it lists the gear they hold.';
}

function readSlots(list: string | undefined): Group[] | undefined {
  if (list === undefined) return undefined;
  return parseSlots(list);
}

/** On stderr: how many combinations, per slot group, and what was left out and why. */
function reportCounts(ctx: Context, exp: AddonExport, plan: TopGearPlan): void {
  const who = `${exp.characterName} (${[exp.spec, exp.className].filter(Boolean).join(' ')})`;
  const perGroup = plan.groups.map((g) => `${g.group} ${formatNumber(g.counts[0] + g.counts[1])}`);
  if (plan.loadouts.length > 1) perGroup.push(`talents ${plan.loadouts.length}`);
  const sets =
    plan.count === 1
      ? 'the equipped set only'
      : `the equipped set and ${formatNumber(plan.count - 1)} ${noun(plan.count - 1, 'profileset')}`;
  ctx.out.notice(
    terminalSafe(
      `${who}: ${formatNumber(plan.count)} ${noun(plan.count, 'combination')} (${sets})${perGroup.length ? `: ${perGroup.join(', ')}` : ''}.`,
    ),
  );
  if (plan.leftOut.length) ctx.out.notice(ctx.out.ce.dim(`Left out: ${plan.leftOut.join('; ')}.`));
}

function tooMany(plan: TopGearPlan, max: number, talents: 'active' | 'all' | undefined): UsageError {
  const suggestion = suggestSlots(plan, max);
  const fix = suggestion
    ? `--slots ${suggestion.slots.join(',')} would make ${formatNumber(suggestion.count)}`
    : talents === 'all'
      ? 'drop --talents all'
      : 'no --slots choice fits';
  return new UsageError(
    `${formatNumber(plan.count)} combinations is more than --max-combos ${formatNumber(max)}: ${fix} (or raise --max-combos).`,
  );
}

/** Names are never shortened, so a big run can outgrow the service's 2 MB; say which --slots would fit. */
/** `profileset."A (1) in neck"+=neck=,id=1` and its line break (39 bytes): no profileset line is shorter. */
const MIN_SET_BYTES = 36;

function checkServiceSize(bytes: number, plan: TopGearPlan, estimate = false): void {
  if (bytes <= MAX_PROFILE_BYTES) return;
  const suggestion = suggestSlots(plan, Math.floor((plan.count * MAX_PROFILE_BYTES) / bytes));
  const fix = suggestion
    ? `--slots ${suggestion.slots.join(',')} would make ${formatNumber(suggestion.count)} combinations`
    : 'fewer --slots would';
  throw new UsageError(
    `The profile for ${formatNumber(plan.count)} combinations is ${estimate ? 'at least ' : ''}${(bytes / 1024 / 1024).toFixed(1)} MB, over the service's 2 MB: ${fix} (or run it with --local).`,
  );
}

async function writeProfile(ctx: Context, file: string, text: string, plan: TopGearPlan): Promise<number> {
  await writeProfileFile(file, text);
  const bytes = Buffer.byteLength(text);
  if (ctx.out.json) ctx.out.printJson({ output: file, combinations: plan.count, profilesets: plan.count - 1, bytes });
  else
    ctx.out.notice(
      `Wrote ${file} (${formatNumber(plan.count - 1)} profilesets, ${formatNumber(Math.ceil(bytes / 1024))} KB). ` +
        `Run it and read the answer with: ${topGearSubmitCommand(shellWord(file))} (add --local, or --channel).`,
    );
  return 0;
}
