/** `simjob webhook` and its subcommands: flags, help and options types (handlers beside it, wired in program.ts). */
import { Option, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { positiveInteger } from '../../../util/parse.js';
import { httpUrl, port, urlPath } from './parse.js';

export const defineWebhookVerify = (parent: AnyCommand) =>
  examples(
    parent
      .command('verify')
      .description("Check a delivery's signature: exit 0 and the event when valid, exit 1 with the reason when not.")
      .option('--body-file <file>', 'The raw request body, byte for byte (default: stdin).')
      .option('--signature <value>', 'The X-Service-Signature header value (also SIMJOB_WEBHOOK_SIGNATURE).')
      .addOption(signatureOption.secretFile())
      .addOption(signatureOption.tolerance()),
    [
      'simjob webhook verify --body-file body.json --signature "t=1711360000,v1=5257a8…"',
      'SIMJOB_WEBHOOK_SIGNATURE="$SIG" simjob webhook verify --secret-file secret.txt --json < body.json | jq -r .payload.id',
    ],
  );
export type VerifyOptions = OptionsOf<ReturnType<typeof defineWebhookVerify>>;

export const defineWebhookListen = (parent: AnyCommand) =>
  examples(
    parent
      .command('listen')
      .description(
        'Receive deliveries on 127.0.0.1: verify, deduplicate by event id, print each new event, run or forward it.',
      )
      .option('--port <port>', 'Port to listen on (default 8790; 0 for any free port).', port)
      .option('--path <path>', 'URL path to accept deliveries on (default /webhooks).', urlPath)
      .option('--exec <command>', 'Shell command run per new event; a non-zero exit answers 500 so the sender retries.')
      .option(
        '--forward-to <url>',
        'Re-post each new delivery (same body and headers) to this URL; a failure answers 502.',
        httpUrl,
      )
      .option('--max-events <n>', 'Exit after N new events.', positiveInteger('--max-events'))
      .addOption(signatureOption.secretFile())
      .addOption(signatureOption.tolerance())
      .addHelpText(
        'after',
        [
          '',
          'Output: one line per new event on stdout. With --json, one JSON object per line, {eventId, deliveryId, event}:',
          'the one command whose --json is a stream of documents rather than one. Notices and rejections go to stderr.',
          'Answers: 200 accepted or duplicate; 400 bad signature, stale timestamp or not an event (not retried);',
          '500/502/503 when --exec or --forward-to failed or took over 9 s (the event is not marked seen: retried).',
          '--exec gets SIMJOB_EVENT_ID, SIMJOB_DELIVERY_ID, SIMJOB_JOB_ID, SIMJOB_JOB_STATUS, SIMJOB_JOB_STATUS_REASON and',
          'SIMJOB_EVENT_JSON (the raw body, also on its stdin); its output goes to stderr. Ctrl-C stops it and exits 0.',
        ].join('\n'),
      ),
    [
      'simjob webhook listen',
      'simjob webhook listen --json | jq -r .event.payload.id',
      'simjob webhook listen --exec \'simjob result "$SIMJOB_JOB_ID" --json > "results/$SIMJOB_JOB_ID.json"\'',
      'simjob webhook listen --port 0 --forward-to http://localhost:3000/hooks/simjob',
    ],
  );
export type ListenOptions = OptionsOf<ReturnType<typeof defineWebhookListen>>;

/** What `webhook verify` and `webhook listen` share: where the secret comes from, how old a signature may be. */
const signatureOption = {
  secretFile: () =>
    new Option(
      '--secret-file <file>',
      'Read the signing secret from a file (else SIMJOB_WEBHOOK_SECRET, else the stored one).',
    ),
  tolerance: () =>
    new Option('--tolerance <seconds>', 'Refuse signatures older or newer than this (default 300).').argParser(
      positiveInteger('--tolerance'),
    ),
};

export const defineWebhook = (parent: AnyCommand) =>
  examples(parent.command('webhook').description('Check, receive and configure job.terminal webhook events.'), [
    'simjob webhook listen --exec \'simjob result "$SIMJOB_JOB_ID"\'',
    'simjob webhook verify --body-file body.json --signature "$SIG"',
    'openssl rand -hex 32 | simjob webhook secret set',
  ]);

export const defineWebhookSecret = (webhook: AnyCommand) =>
  examples(webhook.command('secret').description('The signing secret used by local deliveries, listen and verify.'), [
    'openssl rand -hex 32 | simjob webhook secret set',
    'simjob webhook secret unset --profile ci',
  ]);

export const defineWebhookSecretSet = (secret: AnyCommand) =>
  examples(
    secret
      .command('set')
      .description('Store the signing secret for the active profile (hidden prompt or stdin, never a flag).'),
    ['simjob webhook secret set', 'openssl rand -hex 32 | simjob webhook secret set'],
  );

export const defineWebhookSecretUnset = (secret: AnyCommand) =>
  examples(secret.command('unset').description('Remove the stored signing secret of the active profile.'), [
    'simjob webhook secret unset',
    'simjob webhook secret unset --profile ci',
  ]);
