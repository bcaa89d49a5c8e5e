import type { Context } from '../../context.js';
import { UsageError } from '../../../errors.js';
import { CAPS, decodeOrFail, readRegularFile } from '../../../util/read-file.js';

/**
 * The signing secret for `webhook verify` and `listen`: --secret-file, else SIMJOB_WEBHOOK_SECRET, else the one
 * stored by `simjob webhook secret set`. Never a flag value (shell history and `ps` would show it).
 */
export async function readSecret(ctx: Context, secretFile: string | undefined): Promise<string> {
  let secret: string | undefined;
  if (secretFile !== undefined) {
    let text: string;
    try {
      text = decodeOrFail(readRegularFile(secretFile, CAPS.secret.bytes), `The secret file ${secretFile}`);
    } catch (error) {
      throw new UsageError(
        `Cannot read the secret file ${secretFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
        'Pass a readable file to --secret-file.',
      );
    }
    secret = text.replace(/[\r\n]+$/, ''); // `echo secret > file` adds a newline that is not part of the secret
    if (!secret.trim())
      throw new UsageError(`The secret file ${secretFile} is empty.`, 'Put the signing secret in it (one line).');
  } else {
    secret = ctx.config.webhookSecret();
  }
  if (!secret) {
    throw new UsageError(
      'No webhook signing secret.',
      'Set SIMJOB_WEBHOOK_SECRET, pass --secret-file FILE, or store one with `simjob webhook secret set`.',
    );
  }
  ctx.out.addSecret(secret);
  return secret;
}
