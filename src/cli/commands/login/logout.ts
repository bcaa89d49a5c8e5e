import type { Context } from '../../context.js';
import { openCredentials } from '../../../core/config/store.js';

export async function run(ctx: Context): Promise<void> {
  const had = ctx.config.hasStoredKey();
  if (had) (await openCredentials(ctx.config.dir)).delete(`profiles.${ctx.config.profile}.api_key`);
  ctx.out.notice(
    had
      ? `Removed the API key of profile "${ctx.config.profile}".`
      : `Profile "${ctx.config.profile}" had no stored API key.`,
  );
  if (ctx.env.SIMJOB_API_KEY) ctx.out.warn('SIMJOB_API_KEY is still set in this environment.');
  if (ctx.out.json) ctx.out.printJson({ profile: ctx.config.profile, removed: had });
}
