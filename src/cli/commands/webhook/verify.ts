import { CAPS, readStdin, readUserFile } from '../../../util/read-file.js';
import { parseWebhookEvent } from '../../../core/webhook/event.js';
import type { Context } from '../../context.js';
import type { VerifyOptions } from './command.js';
import { ExitCode, SimjobError, UsageError } from '../../../errors.js';
import { DEFAULT_TOLERANCE_SECONDS, verifySignature, type VerifyFailure } from '../../../core/webhook/signature.js';
import { readSecret } from './inputs.js';

/** The delivery is not authentic (or not an event). Exit 1: the input was well formed, the answer is "no". */
class InvalidDeliveryError extends SimjobError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.ERROR, hint);
  }
}

const HINTS: Record<VerifyFailure, string> = {
  malformed_header: 'The header looks like t=1711360000,v1=<64 hex digits>.',
  bad_signature:
    "Check that the secret is the endpoint's current signing secret, and pass the body exactly as received (not re-serialised JSON).",
  stale_timestamp:
    'Old deliveries are refused as replays; widen the window with --tolerance SECONDS to check one anyway.',
  future_timestamp: 'Check the clock of this machine (and of the sender).',
};

/** Check one delivery: the raw body (file or stdin), its X-Service-Signature, the signing secret. */
export async function run(ctx: Context, _args: string[], options: VerifyOptions): Promise<void> {
  const secret = await readSecret(ctx, options.secretFile);
  const header = options.signature ?? ctx.env.SIMJOB_WEBHOOK_SIGNATURE;
  if (header === undefined) {
    throw new UsageError(
      'No signature to check.',
      'Pass the X-Service-Signature value with --signature, or set SIMJOB_WEBHOOK_SIGNATURE.',
    );
  }
  const rawBody = await readBody(ctx, options.bodyFile);
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  const verdict = verifySignature({ secret, header, rawBody, toleranceSeconds: tolerance });
  if (!verdict.ok) throw new InvalidDeliveryError(`Invalid webhook delivery: ${verdict.reason}.`, HINTS[verdict.code]);

  const event = parseWebhookEvent(rawBody);
  if (!event) {
    throw new InvalidDeliveryError(
      'The signature is valid, but the body is not a webhook event (kind, version, timestamp, payload).',
    );
  }
  if (ctx.out.json) {
    ctx.out.printJson(event);
    return;
  }
  ctx.out.notice(`Valid signature (signed ${verdict.ageSeconds} s ago, tolerance ${tolerance} s).`);
  ctx.out.keyValues([
    ['event', `${event.kind} ${event.version}`],
    ['job', event.payload.id],
    ['status', event.payload.status],
    ['reason', event.payload.statusReason],
    ['created', event.timestamp],
  ]);
}

async function readBody(ctx: Context, file: string | undefined): Promise<Buffer> {
  if (file !== undefined) {
    return readUserFile(
      file,
      'Body file',
      {
        missing: 'Save the raw request body to a file, or pipe it in.',
        folder: 'Pass the file that holds the raw request body.',
      },
      CAPS.webhookBody,
    );
  }
  if (ctx.stdin.isTTY)
    throw new UsageError('No body to check.', 'Pipe the raw request body in, or pass --body-file FILE.');
  const body = await readStdin(ctx.stdin, 'The body on stdin', CAPS.webhookBody);
  // A delivery always has a body: an empty stdin means nothing was piped in.
  if (body.length === 0)
    throw new UsageError('No body on stdin.', 'Pipe the raw request body in, or pass --body-file FILE.');
  return body;
}
