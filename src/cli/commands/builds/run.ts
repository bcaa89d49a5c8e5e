import type { Build } from '../../../core/resources/schemas.js';
import type { Context } from '../../context.js';
import type { BuildsOptions } from './command.js';
import { UsageError } from '../../../errors.js';
import { formatTime } from '../../../util/format.js';
import { printTable } from '../../output/table.js';

export async function run(ctx: Context, [id]: string[], options: BuildsOptions): Promise<void> {
  const backend = await ctx.backend(options.local);
  if (id !== undefined) {
    if (options.local) throw new UsageError('`builds --local` lists the local binaries; it takes no id.');
    const build = await backend.build(id);
    if (ctx.out.json) return ctx.out.printJson(build.raw);
    return printBuild(ctx, build.data);
  }
  const list = await backend.builds();
  if (ctx.out.json) return ctx.out.printJson(list.raw);
  if (options.local) return printLocalBuilds(ctx, list.data.builds);
  printTable(ctx.out, list.data.builds, [
    { header: 'Channel', value: (b) => b.channel ?? '' },
    { header: 'Commit', value: (b) => b.commit?.slice(0, 10) ?? '' },
    { header: 'Version', value: (b) => b.simcVersion ?? '' },
    { header: 'CI', value: (b) => b.ci?.status ?? '' },
    { header: 'Created', value: (b) => formatTime(b.createdAt) ?? '' },
    { header: 'ID', value: (b) => b.id, shrinkable: true },
  ]);
}

function printBuild(ctx: Context, b: Build): void {
  const checks = b.ci?.checks;
  ctx.out.keyValues([
    ['ID', b.id],
    ['Channel', b.channel ?? undefined],
    ['Branch', b.gitBranch ?? undefined],
    ['Repository', b.repo ?? undefined],
    ['Commit', b.commit ?? undefined],
    ['simc version', b.simcVersion ?? undefined],
    ['Created', formatTime(b.createdAt)],
    [
      'CI',
      b.ci
        ? `${b.ci.status ?? 'unknown'}${checks ? ` (${checks.passed ?? 0}/${checks.total ?? 0} checks passed)` : ''}`
        : undefined,
    ],
    ['CI failures', b.ci?.failures?.length ? b.ci.failures.join(', ') : undefined],
    ['Bundled profiles', b.profiles?.manifest ? String(b.profiles.manifest.length) : undefined],
  ]);
}

/** Local binaries: where each was found, what its version line says, and where it is. */
function printLocalBuilds(ctx: Context, builds: Build[]): void {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  printTable(ctx.out, builds, [
    { header: 'Source', value: (b) => text(b.source) },
    { header: 'Version', value: (b) => b.simcVersion ?? (text(b.error) ? 'not runnable' : '') },
    { header: 'Branch', value: (b) => b.gitBranch ?? '' },
    { header: 'Commit', value: (b) => b.commit ?? '' },
    { header: 'Path', value: (b) => text(b.path), shrinkable: true },
  ]);
  for (const b of builds) if (text(b.error)) ctx.out.warn(`${text(b.path)}: ${text(b.error)}`);
}
