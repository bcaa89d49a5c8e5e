import { openCredentials, readProfileCredentials } from '../../../core/config/store.js';
import type { Context } from '../../context.js';

/** Remove the stored webhook signing secret of the active profile. */
export async function run(ctx: Context): Promise<void> {
  const profile = ctx.config.profile;
  const had = typeof readProfileCredentials(ctx.config.dir, profile).webhook_secret === 'string';
  if (had) (await openCredentials(ctx.config.dir)).delete(`profiles.${profile}.webhook_secret`);
  ctx.out.notice(
    had
      ? `Removed the webhook signing secret of profile "${profile}".`
      : `Profile "${profile}" had no stored webhook signing secret.`,
  );
  if (ctx.env.SIMJOB_WEBHOOK_SECRET) ctx.out.warn('SIMJOB_WEBHOOK_SECRET is still set in this environment.');
  if (ctx.out.json) ctx.out.printJson({ profile, removed: had });
}
