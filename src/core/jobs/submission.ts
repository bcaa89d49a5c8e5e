import { CAPS, decodeOrFail, readUserFile } from '../../util/read-file.js';
import {
  IDEMPOTENCY_KEY,
  MAX_CREDENTIAL_LENGTH,
  MAX_METADATA_BYTES,
  MAX_METADATA_ENTRIES,
  MAX_METADATA_VALUE,
  MAX_PROFILE_BYTES,
  SubmitRequest,
  type Channel,
  type Priority,
} from '../resources/schemas.js';
import { UsageError } from '../../errors.js';
import type { GIT_BRANCHES, JSON_VERSIONS } from '../resources/enums.js';
import { nodeCrypto } from '../../util/crypto.js';

/**
 * What shapes the request body (spec 2.1) besides the profile and channel, as plain data: a caller (the CLI maps its
 * submit flags onto it) names each setting, so nothing here depends on how a command spells its flags.
 */
export interface RequestSettings {
  branch?: (typeof GIT_BRANCHES)[number];
  multistage?: boolean;
  maxRuntime?: number;
  maxCredits?: number;
  maxQueue?: number;
  priority?: Priority;
  /** `key=value` pairs, as typed (checked and parsed here). */
  meta: string[];
  webhook?: boolean;
  html?: boolean;
  csv?: boolean;
  jsonVersion?: (typeof JSON_VERSIONS)[number];
  /** The text/plain form: no metadata, no maxCredits, no background priority. */
  plain?: boolean;
}

export interface ProfileInput {
  /** What the user named: a path, or "-" for stdin. */
  source: string;
  text: string;
  /** Metadata a command adds to this profile's job only (statweights: the character it weighs), after --meta. */
  meta?: readonly string[];
}

/**
 * Read a profile file (or stdin bytes) and check it: a regular file, not empty, UTF-8 or UTF-16 (read alike), at most
 * MAX_PROFILE_BYTES once in UTF-8.
 */
export async function readProfile(source: string, stdinBytes?: () => Promise<Buffer>): Promise<ProfileInput> {
  let bytes: Buffer;
  const label = source === '-' ? 'The profile on stdin' : `Profile ${source}`;
  if (source === '-') {
    if (!stdinBytes) throw new UsageError('Only one profile can come from stdin ("-").');
    bytes = await stdinBytes();
  } else {
    bytes = await readUserFile(
      source,
      'Profile',
      { missing: 'Check the path.', folder: 'Name the .simc files, e.g. profiles/*.simc.' },
      CAPS.profile,
    );
  }
  const text = decodeOrFail(bytes, label);
  if (text.trim() === '') {
    throw new UsageError(`${label} is empty.`, 'A profile needs at least an actor line, e.g. warrior="Name".');
  }
  const size = Buffer.byteLength(text);
  if (size > MAX_PROFILE_BYTES) {
    throw new UsageError(
      `${label} is ${(size / 1024 / 1024).toFixed(2)} MB; the service takes at most 2 MB.`,
      'Split its profilesets across several jobs.',
    );
  }
  return { source, text };
}

/** `--meta key=value` pairs, within the service's bounds. */
export function parseMetadata(pairs: string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  if (pairs.length > MAX_METADATA_ENTRIES) {
    throw new UsageError(
      `--meta was given ${pairs.length} times; the service keeps at most ${MAX_METADATA_ENTRIES} entries.`,
    );
  }
  const metadata: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--meta must be key=value (got "${pair}").`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (value.length > MAX_METADATA_VALUE) {
      throw new UsageError(`--meta ${key} is ${value.length} characters; values may be at most ${MAX_METADATA_VALUE}.`);
    }
    metadata[key] = value;
  }
  const bytes = Buffer.byteLength(JSON.stringify(metadata));
  if (bytes > MAX_METADATA_BYTES) {
    throw new UsageError(`--meta adds up to ${bytes} bytes; the service keeps at most 1 KB of metadata per job.`);
  }
  return metadata;
}

/** Provider credentials come only from the environment, and only as a pair. */
export function providerCredentials(env: NodeJS.ProcessEnv): SubmitRequest['credentials'] {
  const id = env.SIMJOB_PROVIDER_CLIENT_ID || undefined;
  const secret = env.SIMJOB_PROVIDER_CLIENT_SECRET || undefined;
  if (!id && !secret) return undefined;
  if (!id || !secret) {
    const missing = id ? 'SIMJOB_PROVIDER_CLIENT_SECRET' : 'SIMJOB_PROVIDER_CLIENT_ID';
    throw new UsageError(
      `${missing} is not set; provider credentials must be given as a pair.`,
      `Set ${missing} too, or unset both.`,
    );
  }
  for (const [name, value] of [
    ['SIMJOB_PROVIDER_CLIENT_ID', id],
    ['SIMJOB_PROVIDER_CLIENT_SECRET', secret],
  ] as const) {
    if (value.length > MAX_CREDENTIAL_LENGTH) {
      throw new UsageError(
        `${name} is ${value.length} characters; the service takes at most ${MAX_CREDENTIAL_LENGTH}.`,
        `Check the value of ${name}.`,
      );
    }
  }
  return { providerClientId: id, providerClientSecret: secret };
}

export function checkIdempotencyKey(key: string): string {
  // An empty key is most often an unset variable ("$KEY"): refused, or the script would lose idempotency unawares.
  if (key === '')
    throw new UsageError(
      '--idempotency-key is empty; keys are 1-255 printable ASCII characters.',
      'Give a key, or drop --idempotency-key to have a fresh one made.',
    );
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new UsageError(
      '--idempotency-key must be 1-255 printable ASCII characters without leading or trailing spaces.',
    );
  }
  return key;
}

export function newIdempotencyKey(): string {
  return `simjob-${nodeCrypto().randomUUID()}`;
}

/**
 * Build the request body from checked flags. Each bound the service documents is checked here, with a message that
 * names the flag, for local and remote runs alike; checkRequestShape adds the schema's strict check before a request
 * goes to the service. Both read the bounds from schemas.ts.
 */
export function buildRequest(
  profile: ProfileInput,
  flags: RequestSettings,
  channel: Channel,
  env: NodeJS.ProcessEnv,
  defaultPriority?: Priority,
): SubmitRequest {
  const credentials = providerCredentials(env);
  const metadata = parseMetadata(flags.meta);
  if (flags.plain && metadata)
    throw new UsageError('--meta cannot be sent with --plain: metadata exists only in the JSON body.');
  if (flags.plain && (flags.priority ?? defaultPriority) === 'background') {
    throw new UsageError(
      'The plain-text form documents only standard and high priority.',
      'Drop --plain to submit at background priority.',
    );
  }

  if (flags.maxCredits !== undefined && flags.maxRuntime !== undefined) {
    throw new UsageError(
      '--max-credits and --max-runtime do not go together: the service reads --max-runtime as a budget of seconds × 32 credits.',
      'Give one of them (--max-credits on servers with openapi 1.14+).',
    );
  }
  if (flags.plain && flags.maxCredits !== undefined)
    throw new UsageError(
      '--max-credits cannot be sent with --plain: the plain-text form has no maxCredits parameter.',
      'Drop --plain, or use --max-runtime.',
    );
  const runtime = {
    ...(flags.multistage ? { multiStage: true } : {}),
    ...(flags.maxCredits !== undefined ? { maxCredits: flags.maxCredits } : {}),
    ...(flags.maxRuntime !== undefined ? { maxRuntimeSeconds: flags.maxRuntime } : {}),
    ...(flags.maxQueue !== undefined ? { maxQueueSeconds: flags.maxQueue } : {}),
  };
  const artifacts = {
    ...(flags.html ? { html: true } : {}),
    ...(flags.csv ? { csv: true } : {}),
    ...(flags.jsonVersion ? { json: { version: flags.jsonVersion } } : {}),
  };
  const priority = flags.priority ?? defaultPriority;
  return {
    build: { channel, ...(flags.branch ? { gitBranch: flags.branch } : {}) },
    profile: { text: profile.text },
    ...(Object.keys(runtime).length ? { runtime } : {}),
    ...(priority ? { priority } : {}),
    ...(metadata ? { metadata } : {}),
    ...(credentials ? { credentials } : {}),
    ...(flags.webhook ? { webhook: { events: ['job.terminal'] } } : {}),
    ...(Object.keys(artifacts).length ? { artifacts } : {}),
  };
}

/**
 * A body for the service, checked against its schema (strict: the service rejects unknown keys, so do we) before
 * it is sent or shown as a dry run. Local runs skip it: nothing is sent.
 */
export async function checkRequestShape(request: SubmitRequest): Promise<void> {
  const parsed = SubmitRequest.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `The request is not valid: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}.`,
    );
  }
}
