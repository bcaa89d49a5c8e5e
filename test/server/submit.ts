/**
 * POST /v1/sim/jobs bodies: JSON (openapi 1.19.1, strict) or text/plain with query parameters and provider headers
 * (notes §2.2), both turned into one `Submission`; plus the idempotency digest and the per-job test knobs.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { CREDITS_PER_SECOND, DEFAULT_QUEUE_SECONDS, DEFAULT_RUNTIME_SECONDS, type Account } from './accounts.js';
import { ApiFailure, invalid, MB, mediaType, single } from './http.js';
import { checkSubmitBody } from './openapi.js';
import { OUTCOMES, type JobPlan, type Outcome, type Settings, type Submission } from './types.js';

export const MAX_BODY_BYTES = 3 * MB;
export const MAX_PROFILE_BYTES = 2 * MB;
export const MAX_METADATA_ENTRIES = 20;
export const MAX_METADATA_BYTES = 1024;

type Json = Record<string, unknown>;

const PLAIN_PARAMS = new Set([
  'channel',
  'gitBranch',
  'priority',
  'multiStage',
  'maxRuntimeSeconds',
  'maxQueueSeconds',
  'webhookEvents',
  'artifactsHtml',
  'artifactsCsv',
  'artifactsJsonVersion',
]);

/** The JSON equivalent of a text/plain submission; throws 400 on a malformed parameter or header. */
export function plainToJson(text: string, query: Record<string, string>, headers: IncomingHttpHeaders): Json {
  for (const name of Object.keys(query))
    if (!PLAIN_PARAMS.has(name)) throw invalid(`Unknown query parameter '${name}'.`);
  const bool = (name: string): boolean | undefined => {
    const v = query[name];
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') throw invalid(`Query parameter ${name} must be the literal true or false.`);
    return v === 'true';
  };
  const int = (name: string): number | string | undefined => {
    const v = query[name];
    return v !== undefined && /^\d+$/.test(v) ? Number(v) : v;
  };
  if (query.channel === undefined) throw invalid('Query parameter channel is required for text/plain submissions.');
  const json: Json = { build: prune({ channel: query.channel, gitBranch: query.gitBranch }), profile: { text } };
  const runtime = prune({
    multiStage: bool('multiStage'),
    maxRuntimeSeconds: int('maxRuntimeSeconds'),
    maxQueueSeconds: int('maxQueueSeconds'),
  });
  if (Object.keys(runtime).length) json.runtime = runtime;
  if (query.priority !== undefined) json.priority = query.priority;
  if (query.webhookEvents !== undefined) json.webhook = { events: query.webhookEvents.split(',').filter(Boolean) };
  const version = query.artifactsJsonVersion;
  const artifacts = prune({
    html: bool('artifactsHtml'),
    csv: bool('artifactsCsv'),
    json: version === undefined ? undefined : { version },
  });
  if (Object.keys(artifacts).length) json.artifacts = artifacts;
  const id = single(headers['x-provider-client-id']);
  const secret = single(headers['x-provider-client-secret']);
  if ((id === undefined) !== (secret === undefined)) {
    throw invalid('X-Provider-Client-Id and X-Provider-Client-Secret must be sent together.');
  }
  if (id !== undefined) json.credentials = { providerClientId: id, providerClientSecret: secret };
  return json;
}

function prune(obj: Json): Json {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

/** Body bytes → the JSON form of the submission (not yet schema-checked). Throws 400/413. */
export function decodeSubmit(
  contentType: string | undefined,
  bytes: Buffer,
  query: Record<string, string>,
  headers: IncomingHttpHeaders,
): Json {
  const type = mediaType(contentType);
  if (type === 'text/plain') {
    const text = bytes.toString('utf8');
    checkProfileSize(text);
    return plainToJson(text, query, headers);
  }
  if (type !== 'application/json')
    throw invalid('Content-Type must be application/json (or text/plain for a raw profile).');
  if (Object.keys(query).length) throw invalid(`Unknown query parameter '${Object.keys(query)[0]}'.`);
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw invalid('The request body must be a JSON object.');
  const text = ((body as Json).profile as Json | undefined)?.text;
  if (typeof text === 'string') checkProfileSize(text);
  return body as Json;
}

function checkProfileSize(text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_PROFILE_BYTES) {
    throw new ApiFailure(413, 'profile_too_large', 'profile.text exceeds 2 MB (UTF-8).', {
      maxBytes: MAX_PROFILE_BYTES,
      bytes,
    });
  }
}

/** The schema check and the rules the schema cannot say; returns the normalized submission. */
export function toSubmission(json: Json, account: Account): Submission {
  const errors = checkSubmitBody(json);
  if (errors.length) throw invalid(`Invalid request: ${errors.join('; ')}.`, { issues: errors });
  const body = json as {
    build: { channel: Submission['channel']; gitBranch?: 'midnight' };
    profile: { text: string };
    runtime?: { multiStage?: boolean; maxRuntimeSeconds?: number; maxQueueSeconds?: number; maxCredits?: number };
    priority?: Submission['priority'];
    metadata?: Record<string, string>;
    credentials?: { providerClientId?: string; providerClientSecret?: string };
    webhook?: { events: string[] };
    artifacts?: { html?: boolean; csv?: boolean; json?: { version: '2' | '3' } };
  };
  if (body.profile.text.trim() === '') throw invalid('Invalid request: profile.text is empty.');
  const creds = body.credentials;
  if (creds && (creds.providerClientId === undefined) !== (creds.providerClientSecret === undefined)) {
    throw invalid('Invalid request: credentials.providerClientId and providerClientSecret must be given together.');
  }
  if (body.runtime?.maxCredits !== undefined && body.runtime.maxRuntimeSeconds !== undefined) {
    throw invalid('Invalid request: send runtime.maxCredits or the deprecated runtime.maxRuntimeSeconds, not both.');
  }
  if (body.metadata) {
    const entries = Object.entries(body.metadata);
    const size = entries.reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
    if (entries.length > MAX_METADATA_ENTRIES)
      throw invalid(`Invalid request: metadata has more than ${MAX_METADATA_ENTRIES} entries.`);
    if (size > MAX_METADATA_BYTES)
      throw invalid(`Invalid request: metadata is over ${MAX_METADATA_BYTES} bytes in total.`);
  }
  return {
    channel: body.build.channel,
    gitBranch: body.build.gitBranch,
    profileText: body.profile.text,
    multiStage: body.runtime?.multiStage ?? false,
    // a credit budget is run as the seconds it buys; a seconds cap is billed as a budget (openapi 1.19.1)
    maxRuntimeSeconds:
      body.runtime?.maxRuntimeSeconds ??
      Math.floor(
        (body.runtime?.maxCredits ?? defaultRuntimeSeconds(account) * CREDITS_PER_SECOND) / CREDITS_PER_SECOND,
      ),
    maxCredits:
      body.runtime?.maxCredits ??
      (body.runtime?.maxRuntimeSeconds ?? defaultRuntimeSeconds(account)) * CREDITS_PER_SECOND,
    creditBudget: body.runtime?.maxCredits !== undefined,
    maxQueueSeconds: body.runtime?.maxQueueSeconds ?? defaultQueueSeconds(account),
    priority: body.priority ?? 'standard',
    metadata: body.metadata ?? null,
    webhookEvents: body.webhook?.events ?? [],
    html: body.artifacts?.html ?? false,
    csv: body.artifacts?.csv ?? false,
    jsonVersion: body.artifacts?.json?.version ?? '2',
    credentials: creds !== undefined,
  };
}

/** The defaults (300 s, 1800 s), lowered to the account maxima when those are smaller. */
export const defaultRuntimeSeconds = (account: Account) =>
  Math.min(DEFAULT_RUNTIME_SECONDS, account.limits.maxRuntimeSeconds);
export const defaultQueueSeconds = (account: Account) =>
  Math.min(DEFAULT_QUEUE_SECONDS, account.limits.maxQueueSeconds);
export const maxCreditsPerJob = (account: Account) =>
  account.limits.maxCreditsPerJob ?? account.limits.maxRuntimeSeconds * CREDITS_PER_SECOND;
/** 9600 credits (300 s at 32 credits/s), lowered to the account maximum. */
export const defaultCreditsPerJob = (account: Account) =>
  Math.min(DEFAULT_RUNTIME_SECONDS * CREDITS_PER_SECOND, maxCreditsPerJob(account));

/** `runtime.maxRuntimeSeconds` / `maxQueueSeconds` against the account maxima (spec 2.1): 400 above them. */
export function checkAccountLimits(sub: Submission, account: Account): void {
  const { maxRuntimeSeconds, maxQueueSeconds } = account.limits;
  if (sub.maxRuntimeSeconds > maxRuntimeSeconds) {
    throw invalid(
      `Invalid request: runtime.maxRuntimeSeconds ${sub.maxRuntimeSeconds} exceeds the account limit of ${maxRuntimeSeconds}.`,
      {
        field: 'runtime.maxRuntimeSeconds',
        requested: sub.maxRuntimeSeconds,
        max: maxRuntimeSeconds,
      },
    );
  }
  if (sub.maxCredits > maxCreditsPerJob(account)) {
    throw invalid(
      `Invalid request: runtime.maxCredits ${sub.maxCredits} exceeds the account limit of ${maxCreditsPerJob(account)}.`,
      {
        field: 'runtime.maxCredits',
        requested: sub.maxCredits,
        max: maxCreditsPerJob(account),
      },
    );
  }
  if (sub.maxQueueSeconds > maxQueueSeconds) {
    throw invalid(
      `Invalid request: runtime.maxQueueSeconds ${sub.maxQueueSeconds} exceeds the account limit of ${maxQueueSeconds}.`,
      {
        field: 'runtime.maxQueueSeconds',
        requested: sub.maxQueueSeconds,
        max: maxQueueSeconds,
      },
    );
  }
}

/** Idempotency digest: the whole body except `metadata` (spec 4.7), keys sorted. */
export function digestOf(json: Json): string {
  const { metadata: _ignored, ...rest } = json;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const KNOBS = [
  'test.queueMs',
  'test.runMs',
  'test.startingMs',
  'test.outcome',
  'test.profilesets',
  'test.artifactBytes',
  'test.redirect',
];

/** Per-job test knobs from metadata (documented in index.ts); 400 on a malformed or unknown `test.*` key. */
export function readPlan(metadata: Record<string, string> | null, settings: Settings): JobPlan {
  const m = metadata ?? {};
  for (const key of Object.keys(m))
    if (key.startsWith('test.') && !KNOBS.includes(key)) throw invalid(`Unknown test knob metadata.${key}.`);
  const num = (key: string, fallback: number | undefined): number | undefined => {
    const v = m[key];
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v)) throw invalid(`metadata.${key} must be a non-negative integer.`);
    return Number(v);
  };
  const outcome = m['test.outcome'] ?? 'completed';
  if (!(OUTCOMES as readonly string[]).includes(outcome))
    throw invalid(`metadata.test.outcome must be one of ${OUTCOMES.join(', ')}.`);
  const redirect = m['test.redirect'];
  if (redirect !== undefined && redirect !== 'true' && redirect !== 'false')
    throw invalid('metadata.test.redirect must be true or false.');
  return {
    queueMs: num('test.queueMs', settings.queueMs) ?? settings.queueMs,
    runMs: num('test.runMs', settings.runMs) ?? settings.runMs,
    startingMs: num('test.startingMs', settings.startingMs) ?? settings.startingMs,
    outcome: outcome as Outcome,
    profilesets: num('test.profilesets', undefined),
    artifactBytes: num('test.artifactBytes', undefined),
    redirect: redirect === undefined ? settings.artifactRedirect : redirect === 'true',
  };
}
