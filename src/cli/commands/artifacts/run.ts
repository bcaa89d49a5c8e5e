import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import type { ArtifactsOptions } from './command.js';
import { UsageError } from '../../../errors.js';
import { checkJobId } from '../../../core/jobs/ids.js';
import { downloadAll } from './download.js';

export async function run(ctx: Context, [rawId]: string[], options: ArtifactsOptions): Promise<void> {
  const id = checkJobId(rawId);
  if (options.clobber && options.skipExisting) {
    throw new UsageError(
      '--clobber and --skip-existing do not go together.',
      'Pick one: --clobber overwrites existing files, --skip-existing keeps them.',
    );
  }
  const backend = await ctx.backendFor(id);
  const result = await backend.result(id);
  const all = result.data.result.artifacts ?? [];
  const chosen = options.kind.length ? all.filter((a) => options.kind.includes(a.kind)) : all;
  if (options.kind.length && chosen.length === 0) {
    throw new UsageError(
      `Job ${id} has no artifact of kind ${options.kind.join(', ')}.`,
      all.length
        ? `Its kinds: ${[...new Set(all.map((a) => a.kind))].join(', ')}.`
        : 'It has no artifacts (they may have expired).',
    );
  }

  if (!options.download) {
    if (ctx.out.json)
      return ctx.out.printJson(
        options.kind.length ? chosen : ((result.raw as { result?: { artifacts?: unknown } }).result?.artifacts ?? []),
      );
    if (chosen.length === 0) {
      ctx.out.notice(
        `Job ${id} has no artifacts${result.data.retentionDays ? ` (kept ${result.data.retentionDays} days after completion)` : ''}.`,
      );
      return;
    }
    const { printTable } = await import('../../output/table.js'); // cli-table3: only for the listing
    printTable(ctx.out, chosen, [
      { header: 'Kind', value: (a) => a.kind },
      { header: 'Stage', value: (a) => (a.stage ? String(a.stage) : '') },
      { header: 'Type', value: (a) => a.mimeType ?? '' },
      { header: 'ID', value: (a) => a.id },
      { header: 'URL', value: (a) => a.url, shrinkable: true },
    ]);
    return;
  }

  if (chosen.length === 0) throw new UsageError(`Job ${id} has no artifacts to download (they may have expired).`);
  await downloadAll(ctx, backend, id, chosen, {
    dir: resolve(options.dir ?? id),
    clobber: Boolean(options.clobber),
    skipExisting: Boolean(options.skipExisting),
  });
}
