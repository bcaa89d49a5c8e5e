/**
 * Webhook signatures (spec 6.4): `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 * Pure functions over raw bytes, shared by `webhook verify`, `webhook listen` and local delivery, so what simjob
 * signs and what it accepts can never drift apart.
 */
import { terminalSafeLine } from '../../util/safe.js';
import { nodeCrypto } from '../../util/crypto.js';

/** Replay window of spec 6.4: a delivery signed more than this long ago (or ahead) is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;
const DIGEST_HEX = /^[0-9a-f]{64}$/i;
/** Longer than any real unix time in seconds; keeps Number() exact. */
const MAX_T_DIGITS = 15;

export type Bytes = Buffer | Uint8Array | string;

function bytes(value: Bytes): Buffer {
  return typeof value === 'string'
    ? Buffer.from(value, 'utf8')
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/**
 * The hex digest for timestamp `t` over the exact body bytes. `t` is used as written: when verifying, the header's
 * own digits are signed again, so a `t` with leading zeros still matches what the sender signed.
 */
export function sign(secret: Bytes, t: number | string, rawBody: Bytes): string {
  return nodeCrypto()
    .createHmac('sha256', bytes(secret))
    .update(Buffer.from(`${t}.`, 'utf8'))
    .update(bytes(rawBody))
    .digest('hex');
}

/** The full header value a sender puts on a delivery. */
export function signatureHeader(secret: Bytes, t: number, rawBody: Bytes): string {
  return `t=${t},v1=${sign(secret, t, rawBody)}`;
}

export interface ParsedSignature {
  /** The timestamp digits as written (they are what was signed). */
  tText: string;
  t: number;
  /** Every v1 value, in order; a header may carry several during a secret rotation. */
  v1: string[];
}

export type ParseResult = ({ ok: true } & ParsedSignature) | { ok: false; reason: string };

/**
 * Parse `t=...,v1=...`: parts in any order, spaces around them allowed, several `v1` kept, unknown schemes
 * (`v0=`, `v2=`) ignored. Exactly one `t`, all digits, and at least one `v1` are required.
 */
export function parseSignatureHeader(header: string | undefined): ParseResult {
  if (header === undefined || header.trim() === '')
    return { ok: false, reason: 'the signature header is missing or empty' };
  let tText: string | undefined;
  const v1: string[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, reason: `the signature header has a part without key=value ("${clip(part)}")` };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (tText !== undefined) return { ok: false, reason: 'the signature header has more than one t=' };
      tText = value;
    } else if (key === 'v1') {
      v1.push(value);
    }
  }
  if (tText === undefined) return { ok: false, reason: 'the signature header has no t= timestamp' };
  if (!/^\d+$/.test(tText) || tText.length > MAX_T_DIGITS) {
    return {
      ok: false,
      reason: `the signature timestamp must be whole unix seconds, all digits (got "${clip(tText)}")`,
    };
  }
  if (v1.length === 0) return { ok: false, reason: 'the signature header has no v1= signature' };
  return { ok: true, tText, t: Number(tText), v1 };
}

export type VerifyFailure = 'malformed_header' | 'bad_signature' | 'stale_timestamp' | 'future_timestamp';

export type VerifyResult =
  { ok: true; t: number; ageSeconds: number } | { ok: false; code: VerifyFailure; reason: string };

export interface VerifyInput {
  secret: Bytes;
  header: string | undefined;
  rawBody: Bytes;
  /** Unix seconds; defaults to the clock. */
  now?: number;
  toleranceSeconds?: number;
}

/**
 * Check a delivery: the header parses, one of its v1 digests matches (constant-time, over bytes), and t is within
 * the tolerance of now. The signature is checked before the time, so an unauthenticated timestamp is never
 * reported as if it meant something.
 */
export function verifySignature(input: VerifyInput): VerifyResult {
  const parsed = parseSignatureHeader(input.header);
  if (!parsed.ok) return { ok: false, code: 'malformed_header', reason: parsed.reason };
  const expected = Buffer.from(sign(input.secret, parsed.tText, input.rawBody), 'hex');
  let matched = false;
  for (const candidate of parsed.v1) {
    // Malformed candidates are compared against a dummy so every entry costs the same; they never match.
    const wellFormed = DIGEST_HEX.test(candidate);
    const given = wellFormed ? Buffer.from(candidate, 'hex') : Buffer.alloc(expected.length);
    if (nodeCrypto().timingSafeEqual(given, expected) && wellFormed) matched = true;
  }
  if (!matched) {
    return {
      ok: false,
      code: 'bad_signature',
      reason: 'the signature does not match the body (wrong secret, or the body was changed)',
    };
  }
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const age = now - parsed.t;
  if (age > tolerance)
    return {
      ok: false,
      code: 'stale_timestamp',
      reason: `the signature is ${age} s old, over the ${tolerance} s tolerance (a replay, or a slow clock)`,
    };
  if (-age > tolerance)
    return {
      ok: false,
      code: 'future_timestamp',
      reason: `the signature is ${-age} s in the future, over the ${tolerance} s tolerance (check the clocks)`,
    };
  return { ok: true, t: parsed.t, ageSeconds: age };
}

/** A quoted piece of the header in a reason: at most 40 characters, controls escaped (the reason is one line). */
function clip(text: string): string {
  return terminalSafeLine(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
