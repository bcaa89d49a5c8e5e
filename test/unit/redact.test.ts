import { describe, expect, it } from 'vitest';
import { redactBody, redactHeaders } from '../../src/core/api/redact.js';
import { Output } from '../../src/cli/output/io.js';
import { memoryStream } from '../helpers/streams.js';

describe('debug redaction', () => {
  it('keeps the auth scheme but never the key', () => {
    const shown = redactHeaders({
      authorization: 'Bearer sk_live_secret',
      'x-request-id': 'req_1',
      'x-provider-client-secret': 's',
      cookie: 'a=b',
    });
    expect(shown.authorization).toBe('Bearer [REDACTED]');
    expect(shown['x-request-id']).toBe('req_1');
    expect(shown['x-provider-client-secret']).toBe('[REDACTED]');
    expect(shown.cookie).toBe('[REDACTED]');
    expect(JSON.stringify(shown)).not.toContain('sk_live_secret');
  });
  it('replaces credentials in JSON bodies and shortens profile text', () => {
    const body = redactBody({
      credentials: { providerClientId: 'id', providerClientSecret: 'sec' },
      profile: { text: 'x'.repeat(1000) },
      meta: { apiKey: 'k' },
    }) as Record<string, Record<string, unknown>>;
    expect(body.credentials).toBe('[REDACTED]');
    expect(body.meta?.apiKey).toBe('[REDACTED]');
    expect(String(body.profile?.text)).toMatch(/1000 chars/);
  });
  it('the output module scrubs registered secrets from every stream', () => {
    const stdout = memoryStream();
    const stderr = memoryStream();
    const out = new Output({ stdout, stderr, env: {}, json: false, noColor: true, quiet: false });
    out.addSecret('sk_test_abcdef');
    out.line('key is sk_test_abcdef');
    out.notice('again sk_test_abcdef');
    out.warn('and sk_test_abcdef');
    expect(stdout.text()).toBe('key is [REDACTED]\n');
    expect(stderr.text()).not.toContain('sk_test_abcdef');
  });
});
