/**
 * `simjob droptimizer`: for each addon export, one profileset per drop of the chosen raids or dungeons and slot it
 * fits, submitted through submit's own machinery (preflight, dry run, remote or local, --wait). Several exports are
 * a roster: one job per character, run as a batch, ending in one character × item matrix.
 */
import type { Context } from '../../context.js';
import { writeProfileFile } from '../profile-file.js';
import { UsageError } from '../../../errors.js';
import { readAddonExport } from '../addon-input.js';
import { planDrops } from '../../../domain/droptimizer/plan.js';
import { droptimizerProfile } from '../../../domain/droptimizer/profile.js';
import { selectDrops, type Selection } from '../../../domain/droptimizer/sources.js';
import { DROPTIMIZER_KIND, EXPORT_META_KEY, EXPORT_UNCHECKED, TOPGEAR_META_KEY } from '../../../domain/job-kind.js';
import { formatNumber } from '../../../util/format.js';
import { terminalSafe } from '../../../util/safe.js';
import { shellWord } from '../../../util/shell-word.js';
import { noun } from '../../../util/plural.js';
import type { SubmitOptions } from '../../submitting/send.js';
import type { DroptimizerCommandOptions } from './command.js';
import type { CharacterRun } from './roster.js';
import { checkFlags, submitProfiles } from '../../submitting/submit.js';
import { hasGlob } from '../../submitting/globs.js';
import type { ReportTarget } from '../../output/reports/spec.js';

export type DroptimizerOptions = DroptimizerCommandOptions;

export async function run(ctx: Context, args: string[], options: DroptimizerOptions): Promise<number | void> {
  const reports = options.report ?? [];
  checkFlags({ ...options, report: [] });
  if (reports.length && !options.wait)
    throw new UsageError('--report writes what the jobs ended with; it needs --wait.', 'Add --wait, or drop --report.');
  // The check reads only each target's path and names its format: csv is as good a name as junit.
  if (reports.length)
    await (await import('../../output/reports/files.js')).checkReportTargets(reports as unknown as ReportTarget[]);
  const { loadCatalog } = await import('../../../core/catalog/load.js');
  const catalog = await loadCatalog(options.catalog, {
    env: ctx.env,
    signal: ctx.signal,
    // Never silent: a warning whatever --quiet says, and why under --debug (a TLS failure may be an attack).
    onCachedCopy: (url, reason) => {
      const why = ctx.debugLevel > 0 ? '' : ' --debug shows why.';
      ctx.out.warn(`Cannot fetch the catalog ${url} now; using the copy fetched before.${why}`);
      if (ctx.debugLevel > 0) ctx.out.err(`${ctx.out.ce.dim(terminalSafe(`catalog ${url}: ${reason}`))}\n`);
    },
  });
  const selection = selectDrops(catalog, { ...options, instances: options.instance });
  if (selection.drops.length === 0)
    throw new UsageError(
      `The ${catalog.title} catalog has no drops for ${selection.description}.`,
      'Choose other instances, or another --difficulty or --keystone.',
    );

  const { paths, expanded } = args.some(hasGlob)
    ? await (await import('../../submitting/globs.js')).expandProfileArgs(args)
    : { paths: args.length ? args : ['-'], expanded: false };
  if (paths.filter((p) => p === '-').length > 1) throw new UsageError('Only one export can come from stdin ("-").');
  const characters: CharacterRun[] = [];
  for (const source of paths) characters.push(await prepareCharacter(ctx, source, selection, options.allItems));
  ctx.out.notice(
    `Drops of ${terminalSafe(selection.description)}. Each takes the enchant and gems of the item it replaces ` +
      '(gems only where the drop has a socket).',
  );
  for (const c of characters) reportCounts(ctx, c);

  if (options.output) return writeProfile(ctx, options.output, characters);

  const meta = [...options.meta];
  if (meta.some((m) => m.startsWith(`${TOPGEAR_META_KEY}=`))) {
    throw new UsageError(
      `--meta ${TOPGEAR_META_KEY}= is set by droptimizer itself (it marks the job for \`simjob result\`).`,
      'Use another key.',
    );
  }
  if (options.plain)
    ctx.out.warn(
      '--plain sends no metadata, so `simjob result` will not know this is a droptimizer job ' +
        '(the profileset names still say what drops where).',
    );
  else meta.push(`${TOPGEAR_META_KEY}=${DROPTIMIZER_KIND}`);
  const submit: SubmitOptions = { ...options, meta, report: [] };
  const profiles = characters.map((c) => c.profile);
  const roster = characters.length > 1 || expanded || reports.length > 0;
  if (!roster) return submitProfiles(ctx, profiles, submit);
  const { presentRoster } = await import('./roster.js');
  return submitProfiles(ctx, profiles, submit, true, (outcomes) => presentRoster(ctx, characters, outcomes, reports));
}

async function prepareCharacter(
  ctx: Context,
  source: string,
  selection: Selection,
  allItems = false,
): Promise<CharacterRun> {
  const { exp, label } = await readAddonExport(ctx, source, true, 'droptimizer');
  const plan = planDrops(exp, selection.drops, { allItems });
  if (plan.sets.length === 0) {
    const slotRules = plan.leftOut.length ? `left out: ${plan.leftOut.join('; ')}` : undefined;
    const reasons = [plan.notUsable, slotRules].filter(Boolean);
    const why = reasons.length ? ` (${reasons.join('; ')})` : '';
    throw new UsageError(
      `${label}: nothing in ${selection.description} fits ${exp.characterName}'s class and slots${why}.`,
      plan.notUsable && !allItems
        ? 'Choose other instances or sources, or add --all-items.'
        : 'Choose other instances or sources.',
    );
  }
  const profile = droptimizerProfile(exp, plan, source === '-' ? 'stdin' : source, selection.description);
  // An export without its checksum marks its own job, so the answer says so (a roster's other jobs stay unmarked).
  const meta = exp.checksum.state === 'missing' ? [`${EXPORT_META_KEY}=${EXPORT_UNCHECKED}`] : undefined;
  return { source, exp, plan, profile: { source, text: profile, ...(meta ? { meta } : {}) } };
}

/** On stderr: how many drops and profilesets per character, and what was left out and why. */
function reportCounts(ctx: Context, c: CharacterRun): void {
  const who = `${c.exp.characterName} (${[c.exp.spec, c.exp.className].filter(Boolean).join(' ')})`;
  const items = c.plan.items;
  const n = c.plan.sets.length;
  ctx.out.notice(
    terminalSafe(
      `${who}: ${formatNumber(items)} ${noun(items, 'drop')} in ${formatNumber(n)} ${noun(n, 'profileset')}.`,
    ),
  );
  if (c.plan.notUsable) ctx.out.notice(terminalSafe(`${c.plan.notUsable.replace(/^l/, 'L')}.`));
  if (c.plan.leftOut.length)
    ctx.out.notice(ctx.out.ce.dim(`${c.plan.notUsable ? 'Also left out' : 'Left out'}: ${c.plan.leftOut.join('; ')}.`));
}

async function writeProfile(ctx: Context, file: string, characters: CharacterRun[]): Promise<number> {
  if (characters.length > 1)
    throw new UsageError(
      '-o writes the profile of one export; a roster makes one per character.',
      'Name one export, or drop -o.',
    );
  const [one] = characters as [CharacterRun];
  await writeProfileFile(file, one.profile.text);
  const sets = one.plan.sets.length;
  if (ctx.out.json) ctx.out.printJson({ output: file, profilesets: sets, bytes: Buffer.byteLength(one.profile.text) });
  else
    ctx.out.notice(
      `Wrote ${file} (${formatNumber(sets)} profilesets). Run it with: simjob submit ${shellWord(file)} --multistage`,
    );
  return 0;
}
