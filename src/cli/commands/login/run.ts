import { checkKey } from '../../../core/config/resolve.js';
import { openCredentials, openSettings } from '../../../core/config/store.js';
import type { Context } from '../../context.js';
import type { LoginOptions } from './command.js';
import { ApiError, AuthError, InterruptedError, UsageError } from '../../../errors.js';
import { readSecretLine } from '../../output/prompt.js';

/**
 * Store an API key for the active profile. The key comes from a hidden prompt on a terminal, or from stdin when
 * piped (`simjob login < key.txt`), never from a flag value: flags end up in shell history and `ps`.
 */
export async function run(ctx: Context, _args: string[], options: LoginOptions): Promise<void> {
  const key = checkKey(await readKey(ctx), ctx.stdin.isTTY ? 'the prompt' : 'stdin');
  ctx.out.addSecret(key);

  // A bad base URL (say, one ending in /v1) is an error, not "no base_url set".
  const baseUrl = ctx.config.baseUrlIfSet()?.value;
  if (options.verify && baseUrl) await verifyKey(ctx, baseUrl, key);

  const credentials = await openCredentials(ctx.config.dir);
  credentials.set(`profiles.${ctx.config.profile}.api_key`, key);
  // `login --base-url URL` sets up a profile in one step: the URL the key belongs to is stored with it.
  const savedUrl = ctx.flags.baseUrl && baseUrl ? baseUrl : undefined;
  if (savedUrl) (await openSettings(ctx.config.dir)).set(`profiles.${ctx.config.profile}.base_url`, savedUrl);

  const checked = !baseUrl
    ? 'not checked (no base_url set)'
    : options.verify
      ? `checked against ${new URL(baseUrl).origin}`
      : 'not checked (--no-verify)';
  ctx.out.notice(
    `Stored the API key for profile "${ctx.config.profile}" in ${credentials.path} (mode 0600), ${checked}.`,
  );
  if (savedUrl) ctx.out.notice(`Stored base_url ${savedUrl} for profile "${ctx.config.profile}" (from --base-url).`);
  if (!baseUrl) ctx.out.notice('Set the service URL with: simjob config set base_url https://…');
  if (ctx.env.SIMJOB_API_KEY) ctx.out.warn('SIMJOB_API_KEY is set and takes precedence over the stored key.');
  if (ctx.out.json)
    ctx.out.printJson({ profile: ctx.config.profile, stored: true, verified: Boolean(options.verify && baseUrl) });
}

async function readKey(ctx: Context): Promise<string> {
  const key = await readSecretLine(
    ctx.stdin,
    ctx.out.stderr,
    'Paste your API key (input hidden): ',
    () => new InterruptedError('Login cancelled.'),
  );
  if (!ctx.stdin.isTTY && !key.trim()) {
    throw new UsageError(
      'No API key on stdin.',
      'Pipe the key in (`simjob login < key.txt`) or run `simjob login` in a terminal.',
    );
  }
  return key;
}

/** Ask the usage endpoint with the new key: a rejected key is never stored. */
async function verifyKey(ctx: Context, baseUrl: string, key: string): Promise<void> {
  const backend = await ctx.remoteClient({ baseUrl, apiKey: key });
  try {
    await backend.usage();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      throw new AuthError(
        `The service rejected this key (${error.code ?? '401'}); nothing was stored.`,
        'Copy the key again from Clients & Keys.',
      );
    }
    throw error;
  }
}
