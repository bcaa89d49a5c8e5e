/** Property tests of the value parsers: flags, settings, ids, the webhook signature header and event body. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJobId } from '../../src/core/jobs/ids.js';
import { httpUrl, port, urlPath } from '../../src/cli/commands/webhook/parse.js';
import { parseBaseUrl, SETTING_KEYS } from '../../src/core/config/keys.js';
import { checkKey } from '../../src/core/config/resolve.js';
import { checkProfileName } from '../../src/core/config/store.js';
import { duration, MAX_DURATION_MS, positiveInteger } from '../../src/util/parse.js';
import { parseWebhookEvent } from '../../src/core/webhook/event.js';
import { parseSignatureHeader, signatureHeader, verifySignature } from '../../src/core/webhook/signature.js';
import { expectOwnErrors, nastyText, params } from './fuzz.js';

const numberish = fc.oneof(
  nastyText(40),
  fc.stringMatching(/^\s?\d{1,400}(\.\d{0,30})?(ms|s|m|h|d)?\s?$/),
  fc.double().map(String),
  fc.integer().map(String),
);

describe('flag and setting parsers', () => {
  it('duration: a finite whole number of ms a timer can wait, or a usage error', () => {
    fc.assert(
      fc.property(numberish, (text) => {
        const ms = expectOwnErrors(() => duration('--timeout')(text), [2]);
        if (ms !== undefined) {
          expect(Number.isSafeInteger(ms)).toBe(true);
          expect(ms).toBeGreaterThanOrEqual(0);
          expect(ms).toBeLessThanOrEqual(MAX_DURATION_MS);
        }
      }),
      params(),
    );
  });

  it('positiveInteger and port: whole numbers in range, or a usage error', () => {
    fc.assert(
      fc.property(numberish, (text) => {
        const n = expectOwnErrors(() => positiveInteger('--top')(text), [2]);
        if (n !== undefined) expect(Number.isSafeInteger(n) && n >= 1).toBe(true);
        const p = expectOwnErrors(() => port(text), [2]);
        if (p !== undefined) expect(Number.isInteger(p) && p >= 0 && p <= 65_535).toBe(true);
      }),
      params(),
    );
  });

  it('every setting, URL, path, id, key and profile name parser: a value or a one-line usage/auth error', () => {
    const urlish = fc.oneof(
      nastyText(80),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.constantFrom('file:///etc/passwd', 'ftp://x', 'http://u:p@h', 'https://h/\u0000', 'http://[::1]:99999'),
    );
    fc.assert(
      fc.property(urlish, (text) => {
        for (const key of SETTING_KEYS) expectOwnErrors(() => key.parse(text), [2]);
        const base = expectOwnErrors(() => parseBaseUrl(text), [2]);
        if (base !== undefined) expect(base).toMatch(/^https?:\/\//);
        expectOwnErrors(() => httpUrl(text), [2]);
        expectOwnErrors(() => urlPath(text), [2]);
        expectOwnErrors(() => checkJobId(text), [2]);
        expectOwnErrors(() => checkProfileName(text), [2]);
        expectOwnErrors(() => checkKey(text, 'SIMJOB_API_KEY'), [4]);
      }),
      params(),
    );
  });
});

describe('webhook input', () => {
  const header = fc.oneof(
    nastyText(120),
    fc
      .array(fc.tuple(fc.constantFrom('t', 'v1', 'v0', ' t ', 'v1 ', '', '=', 't=t'), nastyText(70)), { maxLength: 6 })
      .map((parts) => parts.map(([k, v]) => `${k}=${v}`).join(',')),
  );

  it('the signature header parser and verifier never throw; every reason is one line', () => {
    fc.assert(
      fc.property(header, fc.uint8Array({ maxLength: 64 }), (text, body) => {
        const parsed = parseSignatureHeader(text);
        if (!parsed.ok) expect(parsed.reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        else expect(Number.isSafeInteger(parsed.t)).toBe(true);
        const verdict = verifySignature({
          secret: 'whsec_x',
          header: text,
          rawBody: Buffer.from(body),
          now: 1_700_000_000,
        });
        if (!verdict.ok) expect(verdict.reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      }),
      params(),
    );
  });

  it('a header simjob signed verifies; one changed byte of the body does not', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        (secret, body, at) => {
          const t = 1_600_000_000 + (at % 100_000_000);
          const raw = Buffer.from(body);
          expect(verifySignature({ secret, header: signatureHeader(secret, t, raw), rawBody: raw, now: t }).ok).toBe(
            true,
          );
          const changed = Buffer.from(raw);
          changed[0] = (changed[0]! + 1) % 256;
          expect(
            verifySignature({ secret, header: signatureHeader(secret, t, raw), rawBody: changed, now: t }).ok,
          ).toBe(false);
        },
      ),
      params(),
    );
  });

  it('the event body parser never throws: an event or undefined', () => {
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? '')),
      fc
        .record(
          {
            kind: fc.jsonValue(),
            version: fc.jsonValue(),
            timestamp: fc.jsonValue(),
            payload: fc.oneof(
              fc.jsonValue(),
              fc.record({ id: fc.jsonValue(), status: fc.jsonValue(), statusReason: fc.jsonValue() }),
            ),
          },
          { requiredKeys: [] },
        )
        .map((v) => Buffer.from(JSON.stringify(v))),
    );
    fc.assert(
      fc.property(body, (raw) => {
        const event = parseWebhookEvent(raw);
        if (event) expect(typeof event.payload.id).toBe('string');
      }),
      params(),
    );
  });
});
