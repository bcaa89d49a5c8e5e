import { openCredentials } from '../../../core/config/store.js';
import type { Context } from '../../context.js';
import { InterruptedError, UsageError } from '../../../errors.js';
import { readSecretLine } from '../../output/prompt.js';

/**
 * Store the signing secret for local deliveries, `listen` and `verify` in the profile's credentials (mode 0600).
 * Read from a hidden prompt or stdin, never from a flag value, like `simjob login`.
 */
export async function run(ctx: Context): Promise<void> {
  const secret = (
    await readSecretLine(
      ctx.stdin,
      ctx.out.stderr,
      'Webhook signing secret (input hidden): ',
      () => new InterruptedError('Cancelled; nothing was stored.'),
    )
  ).trim();
  if (!secret)
    throw new UsageError(
      'The signing secret is empty.',
      'Pipe it in (`simjob webhook secret set < secret.txt`) or type it at the prompt.',
    );
  if (!/^[\x21-\x7e]+$/.test(secret)) {
    throw new UsageError(
      'The signing secret contains spaces or non-printable characters.',
      'Copy it again; a secret is one word.',
    );
  }
  ctx.out.addSecret(secret);
  const credentials = await openCredentials(ctx.config.dir);
  credentials.set(`profiles.${ctx.config.profile}.webhook_secret`, secret);
  ctx.out.notice(
    `Stored the webhook signing secret for profile "${ctx.config.profile}" in ${credentials.path} (mode 0600).`,
  );
  if (ctx.env.SIMJOB_WEBHOOK_SECRET)
    ctx.out.warn('SIMJOB_WEBHOOK_SECRET is set and takes precedence over the stored secret.');
  if (ctx.out.json) ctx.out.printJson({ profile: ctx.config.profile, stored: true });
}
