import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { describeMultistage, preflight } from '../../src/core/jobs/preflight.js';
import {
  buildRequest,
  checkIdempotencyKey,
  checkRequestShape,
  parseMetadata,
  providerCredentials,
  readProfile,
  type RequestSettings,
} from '../../src/core/jobs/submission.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('simjob-submission-');
function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const flags = (extra: Partial<RequestSettings> = {}): RequestSettings => ({ meta: [], ...extra });
const profile = { source: 'p.simc', text: 'warrior="A"\n' };

describe('profile checks before any request', () => {
  it('a missing file', async () => {
    await expect(readProfile(join(dir, 'nope.simc'))).rejects.toThrow(/does not exist/);
  });
  it('an empty or blank file', async () => {
    await expect(readProfile(file('empty.simc', ''))).rejects.toThrow(/is empty/);
    await expect(readProfile(file('blank.simc', ' \n\n'))).rejects.toThrow(/is empty/);
  });
  it('a profile over 2 MB', async () => {
    const err = await readProfile(file('big.simc', 'x'.repeat(2 * 1024 * 1024 + 1))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/2\.00 MB; the service takes at most 2 MB/);
  });
  it('exactly 2 MB is accepted', async () => {
    const p = await readProfile(file('edge.simc', 'x'.repeat(2 * 1024 * 1024)));
    expect(p.text.length).toBe(2 * 1024 * 1024);
  });
  it('invalid UTF-8, with the byte offset', async () => {
    await expect(readProfile(file('latin1.simc', Buffer.from([0x61, 0x3d, 0xe9, 0x0a])))).rejects.toThrow(
      /not valid UTF-8 \(at byte 2\)/,
    );
  });
  it('stdin', async () => {
    const p = await readProfile('-', async () => Buffer.from('\uFEFFmage="B"\n'));
    expect(p.text).toBe('mage="B"\n');
  });
});

describe('request building', () => {
  it('maps every flag onto spec 2.1', () => {
    const req = buildRequest(
      profile,
      flags({
        branch: 'midnight',
        multistage: true,
        maxRuntime: 600,
        maxQueue: 60,
        priority: 'high',
        meta: ['run=42', 'note=a=b'],
        webhook: true,
        html: true,
        csv: true,
        jsonVersion: '3',
      }),
      'nightly',
      {},
    );
    expect(req).toEqual({
      build: { channel: 'nightly', gitBranch: 'midnight' },
      profile: { text: 'warrior="A"\n' },
      runtime: { multiStage: true, maxRuntimeSeconds: 600, maxQueueSeconds: 60 },
      priority: 'high',
      metadata: { run: '42', note: 'a=b' },
      webhook: { events: ['job.terminal'] },
      artifacts: { html: true, csv: true, json: { version: '3' } },
    });
  });
  it('sends only what was asked', () => {
    expect(buildRequest(profile, flags(), 'weekly', {})).toEqual({
      build: { channel: 'weekly' },
      profile: { text: 'warrior="A"\n' },
    });
  });
  it('metadata values over 500 characters are refused', () => {
    expect(() => parseMetadata([`k=${'v'.repeat(501)}`])).toThrow(/501 characters; values may be at most 500/);
    expect(parseMetadata([`k=${'v'.repeat(500)}`])).toEqual({ k: 'v'.repeat(500) });
    expect(() => parseMetadata(['novalue'])).toThrow(/key=value/);
    expect(() => parseMetadata(Array.from({ length: 21 }, (_, i) => `k${i}=v`))).toThrow(/at most 20 entries/);
    expect(() => parseMetadata([`a=${'x'.repeat(450)}`, `b=${'y'.repeat(450)}`, `c=${'z'.repeat(200)}`])).toThrow(
      /at most 1 KB/,
    );
  });
  it('provider credentials come as a pair from the environment', () => {
    expect(providerCredentials({})).toBeUndefined();
    expect(() => providerCredentials({ SIMJOB_PROVIDER_CLIENT_ID: 'id' })).toThrow(
      /SIMJOB_PROVIDER_CLIENT_SECRET is not set/,
    );
    expect(() => providerCredentials({ SIMJOB_PROVIDER_CLIENT_SECRET: 's' })).toThrow(
      /SIMJOB_PROVIDER_CLIENT_ID is not set/,
    );
    expect(providerCredentials({ SIMJOB_PROVIDER_CLIENT_ID: 'id', SIMJOB_PROVIDER_CLIENT_SECRET: 's' })).toEqual({
      providerClientId: 'id',
      providerClientSecret: 's',
    });
    expect(() =>
      providerCredentials({ SIMJOB_PROVIDER_CLIENT_ID: 'i'.repeat(257), SIMJOB_PROVIDER_CLIENT_SECRET: 's' }),
    ).toThrow(/SIMJOB_PROVIDER_CLIENT_ID is 257 characters; the service takes at most 256/);
    expect(
      providerCredentials({ SIMJOB_PROVIDER_CLIENT_ID: 'id', SIMJOB_PROVIDER_CLIENT_SECRET: 's'.repeat(256) })
        ?.providerClientSecret,
    ).toHaveLength(256);
  });
  it('a body for the service is checked against its schema: every request built passes, anything else is refused', async () => {
    const env = { SIMJOB_PROVIDER_CLIENT_ID: 'id', SIMJOB_PROVIDER_CLIENT_SECRET: 's' };
    const full = buildRequest(
      profile,
      flags({
        multistage: true,
        maxRuntime: 60,
        maxQueue: 600,
        priority: 'high',
        meta: ['a=b'],
        webhook: true,
        html: true,
        csv: true,
        jsonVersion: '3',
        branch: 'midnight',
      }),
      'nightly',
      env,
    );
    await expect(checkRequestShape(full)).resolves.toBeUndefined();
    await expect(
      checkRequestShape(buildRequest(profile, flags({ maxCredits: 100 }), 'weekly', {})),
    ).resolves.toBeUndefined();
    const unknownKey = { ...full, extra: true } as unknown as typeof full;
    await expect(checkRequestShape(unknownKey)).rejects.toThrow(/^The request is not valid: body: /);
    const zeroRuntime = { ...full, runtime: { maxRuntimeSeconds: 0 } };
    await expect(checkRequestShape(zeroRuntime)).rejects.toThrow(
      /The request is not valid: runtime\.maxRuntimeSeconds: /,
    );
  });
  it('armory= needs provider credentials', () => {
    const armory = { source: 'a.simc', text: '# x\narmory=us,illidan,Someone\n' };
    expect(() => preflight('a.simc', buildRequest(armory, flags(), 'nightly', {}), 'remote')).toThrow(
      /uses armory= \(line 2\), which needs provider credentials/,
    );
    const env = { SIMJOB_PROVIDER_CLIENT_ID: 'id', SIMJOB_PROVIDER_CLIENT_SECRET: 's' };
    const withCredentials = buildRequest(armory, flags(), 'nightly', env);
    expect(withCredentials.credentials).toEqual({ providerClientId: 'id', providerClientSecret: 's' });
    expect(() => preflight('a.simc', withCredentials, 'remote')).not.toThrow();
  });
  it('directives the service rejects are refused before sending, but allowed locally', () => {
    const req = buildRequest({ source: 'p.simc', text: 'warrior="A"\nthreads=8\n' }, flags(), 'nightly', {});
    expect(() => preflight('p.simc', req, 'remote')).toThrow(/line 2: the service does not allow threads=/);
    expect(() => preflight('p.simc', req, 'local')).not.toThrow();
  });
  it('says before sending when multistage would fall back, and which stages it would run', () => {
    const two = buildRequest(
      { source: 'p.simc', text: 'warrior="A"\nprofileset."x"=talents=B\n' },
      flags({ multistage: true }),
      'nightly',
      {},
    );
    const m = preflight('p.simc', two, 'remote').multistage;
    expect(m?.enabled).toBe(false);
    expect(m?.reason).toBe('below_min_candidates');
    expect(describeMultistage(m!)).toMatch(/single pass \(below_min_candidates\)/);
    const sets = Array.from({ length: 5 }, (_, i) => `profileset."s${i}"=talents=T${i}`).join('\n');
    const five = buildRequest(
      { source: 'p.simc', text: `warrior="A"\ntarget_error=0.1\n${sets}\n` },
      flags({ multistage: true }),
      'nightly',
      {},
    );
    const staged = preflight('p.simc', five, 'remote').multistage!;
    expect(staged.reason).toBe('eligible_profileset_only');
    expect(staged.stages.map((s) => s.targetError)).toEqual([1, 0.2, 0.1]);
    expect(describeMultistage(staged)).toBe(
      'Multistage: initial at target_error 1 → intermediate at target_error 0.2 → final at target_error 0.1.',
    );
  });
  it('background priority has no plain-text form', () => {
    expect(() => buildRequest(profile, flags({ plain: true, priority: 'background' }), 'nightly', {})).toThrow(
      /documents only standard and high/,
    );
  });
  it('metadata cannot travel in the plain-text form', () => {
    expect(() => buildRequest(profile, flags({ plain: true, meta: ['a=b'] }), 'nightly', {})).toThrow(
      /--meta cannot be sent with --plain/,
    );
  });
  it('idempotency keys are printable ASCII, 1-255, no outer spaces', () => {
    expect(checkIdempotencyKey('abc-123')).toBe('abc-123');
    expect(() => checkIdempotencyKey(' a')).toThrow(UsageError);
    expect(() => checkIdempotencyKey('é')).toThrow(UsageError);
    expect(() => checkIdempotencyKey('x'.repeat(256))).toThrow(UsageError);
    expect(checkIdempotencyKey('x'.repeat(255))).toHaveLength(255);
  });
});
