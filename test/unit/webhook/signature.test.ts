import { execa } from 'execa';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSignatureHeader, sign, signatureHeader, verifySignature } from '../../../src/core/webhook/signature.js';
import { VECTORS, type Vector } from './vectors.js';

const byName = (name: string): Vector => VECTORS.find((v) => v.name === name)!;
const header = (v: Vector) => `t=${v.t},v1=${v.digest}`;
const verify = (v: Vector, over: Partial<Parameters<typeof verifySignature>[0]> = {}) =>
  verifySignature({ secret: v.secret, header: header(v), rawBody: Buffer.from(v.body, 'utf8'), now: v.t + 5, ...over });

describe('sign: matches the openssl CLI', () => {
  it.each(VECTORS.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    expect(sign(v.secret, v.t, Buffer.from(v.body, 'utf8'))).toBe(v.digest);
    expect(signatureHeader(v.secret, v.t, v.body)).toBe(header(v));
  });

  it('agrees with openssl over arbitrary bytes (not valid UTF-8), computed now', async () => {
    const body = Buffer.concat([Buffer.from('{"x":"'), randomBytes(64), Buffer.from('"}\r\n')]);
    const t = 1711360123;
    // Same as: { printf '%s.' 1711360123; cat body; } | openssl dgst -sha256 -hmac whsec_bytes
    const { stdout } = await execa('openssl', ['dgst', '-sha256', '-hmac', 'whsec_bytes'], {
      input: Buffer.concat([Buffer.from(`${t}.`), body]),
    });
    const digest = stdout.trim().replace(/^.*= /, '');
    expect(sign('whsec_bytes', t, body)).toBe(digest);
    expect(verifySignature({ secret: 'whsec_bytes', header: `t=${t},v1=${digest}`, rawBody: body, now: t }).ok).toBe(
      true,
    );
  });
});

describe('verifySignature', () => {
  it('accepts every openssl vector within the tolerance', () => {
    for (const v of VECTORS) expect(verify(v)).toEqual({ ok: true, t: v.t, ageSeconds: 5 });
  });

  it('checks the exact bytes of a non-ASCII body: re-serialised JSON does not verify', () => {
    const v = byName('non-ascii');
    expect(verify(v).ok).toBe(true);
    const reserialised = JSON.stringify(JSON.parse(v.body), null, 1);
    expect(verify(v, { rawBody: reserialised })).toMatchObject({ ok: false, code: 'bad_signature' });
    // Latin-1 decoding of the same text gives other bytes: refused too.
    expect(verify(v, { rawBody: Buffer.from(v.body, 'latin1') })).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('a trailing newline is part of the body', () => {
    const v = byName('trailing-newline');
    expect(verify(v).ok).toBe(true);
    expect(verify(v, { rawBody: v.body.trimEnd() })).toMatchObject({ ok: false, code: 'bad_signature' });
    const ascii = byName('ascii');
    expect(verify(ascii, { rawBody: `${ascii.body}\n` })).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('refuses a stale timestamp and a future one, at the 300 s default tolerance', () => {
    const v = byName('ascii');
    expect(verify(v, { now: v.t + 300 }).ok).toBe(true);
    expect(verify(v, { now: v.t + 301 })).toMatchObject({
      ok: false,
      code: 'stale_timestamp',
      reason: expect.stringMatching(/301 s old, over the 300 s tolerance/),
    });
    expect(verify(v, { now: v.t - 300 }).ok).toBe(true);
    expect(verify(v, { now: v.t - 301 })).toMatchObject({
      ok: false,
      code: 'future_timestamp',
      reason: expect.stringMatching(/301 s in the future/),
    });
    expect(verify(v, { now: v.t + 3600, toleranceSeconds: 4000 }).ok).toBe(true);
  });

  it('refuses a wrong secret', () => {
    const v = byName('other-secret');
    expect(verify(v, { secret: 'sk_Unicode-secret' })).toMatchObject({ ok: false, code: 'bad_signature' });
    expect(verify(v, { secret: `${v.secret} ` })).toMatchObject({ ok: false, code: 'bad_signature' });
  });

  it('refuses a tampered body or a tampered timestamp', () => {
    const v = byName('ascii');
    expect(verify(v, { rawBody: v.body.replace('"completed"', '"failed"') })).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
    expect(verify(v, { header: `t=${v.t + 1},v1=${v.digest}`, now: v.t })).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
  });

  it('checks the signature before the time: a forged old delivery is reported as a bad signature', () => {
    const v = byName('ascii');
    expect(verify(v, { secret: 'nope', now: v.t + 10_000 })).toMatchObject({ code: 'bad_signature' });
  });

  it('parses parts in any order, with spaces, several v1 and unknown schemes', () => {
    const v = byName('ascii');
    const wrong = 'a'.repeat(64);
    for (const h of [
      `v1=${v.digest},t=${v.t}`,
      `  t=${v.t} ,  v1=${v.digest}  `,
      `t=${v.t},v1=${wrong},v1=${v.digest}`,
      `t=${v.t},v0=deadbeef,v2=${wrong},v1=${v.digest},`,
      `t=${v.t},v1=${v.digest.toUpperCase()}`,
    ]) {
      expect(verify(v, { header: h }), h).toMatchObject({ ok: true });
    }
    expect(verify(v, { header: `t=${v.t},v1=${wrong},v2=${v.digest}` })).toMatchObject({
      ok: false,
      code: 'bad_signature',
    });
  });

  it('refuses malformed headers with a reason', () => {
    const v = byName('ascii');
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /missing or empty/],
      ['', /missing or empty/],
      [`v1=${v.digest}`, /no t= timestamp/],
      [`t=${v.t}`, /no v1= signature/],
      [`t=${v.t},v2=${v.digest}`, /no v1= signature/],
      [`t=abc,v1=${v.digest}`, /all digits \(got "abc"\)/],
      [`t=1711360000.5,v1=${v.digest}`, /all digits/],
      [`t=-1711360000,v1=${v.digest}`, /all digits/],
      [`t=+1711360000,v1=${v.digest}`, /all digits/],
      [`t=,v1=${v.digest}`, /all digits/],
      [`t=${'9'.repeat(40)},v1=${v.digest}`, /all digits/],
      [`t=${v.t},t=${v.t},v1=${v.digest}`, /more than one t=/],
      [`${v.digest}`, /without key=value/],
      [`t=${v.t};v1=${v.digest}`, /all digits/],
    ];
    for (const [h, reason] of cases) {
      expect(verify(v, { header: h }), String(h)).toMatchObject({
        ok: false,
        code: 'malformed_header',
        reason: expect.stringMatching(reason),
      });
    }
  });

  it('a v1 that is not 64 hex digits never matches, whatever its prefix', () => {
    const v = byName('ascii');
    expect(verify(v, { header: `t=${v.t},v1=${v.digest.slice(0, 63)}` })).toMatchObject({ code: 'bad_signature' });
    expect(verify(v, { header: `t=${v.t},v1=${v.digest}00` })).toMatchObject({ code: 'bad_signature' });
    expect(verify(v, { header: `t=${v.t},v1=${v.digest.slice(0, 62)}zz` })).toMatchObject({ code: 'bad_signature' });
  });

  it('keeps the timestamp digits as written (leading zeros are signed as sent)', () => {
    const v = byName('ascii');
    const digest = sign(v.secret, `0${v.t}`, v.body);
    expect(parseSignatureHeader(`t=0${v.t},v1=${digest}`)).toMatchObject({ ok: true, t: v.t, tText: `0${v.t}` });
    expect(verify(v, { header: `t=0${v.t},v1=${digest}` }).ok).toBe(true);
    expect(verify(v, { header: `t=0${v.t},v1=${v.digest}` }).ok).toBe(false);
  });
});
