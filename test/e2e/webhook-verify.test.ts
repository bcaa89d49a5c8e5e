import { execa } from 'execa';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedDirs, simjob } from '../helpers/cli.js';
import { VECTORS } from '../unit/webhook/vectors.js';
import { tempDir } from '../helpers/temp.js';

const SECRET = 'whsec_e2e_verify';
const EVENT = {
  kind: 'job.terminal',
  version: 'v1',
  timestamp: '2025-03-01T12:00:00.000Z',
  payload: { id: '519253542012420096', status: 'completed', statusReason: null },
};
const BODY = JSON.stringify(EVENT);

/** The signature as the openssl CLI computes it (outside Node): printf '%s' "$t.$body" | openssl dgst -sha256 -hmac "$secret" */
async function opensslSign(secret: string, t: number, body: string | Buffer): Promise<string> {
  const { stdout } = await execa('openssl', ['dgst', '-sha256', '-hmac', secret], {
    input: Buffer.concat([Buffer.from(`${t}.`), Buffer.from(body)]),
  });
  return `t=${t},v1=${stdout.trim().replace(/^.*= /, '')}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function tempFile(name: string, content: string | Buffer): string {
  const path = join(tempDir('simjob-verify-'), name);
  writeFileSync(path, content);
  return path;
}

describe('simjob webhook verify', () => {
  it('a valid delivery from stdin: exit 0, the event summary, and the secret never printed', async () => {
    const signature = await opensslSign(SECRET, nowSeconds(), BODY);
    const result = await simjob(['webhook', 'verify', '--signature', signature], {
      env: { ...isolatedDirs(), SIMJOB_WEBHOOK_SECRET: SECRET },
      input: BODY,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^Valid signature \(signed \d+ s ago, tolerance 300 s\)\.\n$/);
    expect(result.stdout).toMatch(
      /^event\s+job\.terminal v1\njob\s+519253542012420096\nstatus\s+completed\ncreated\s+2025-03-01T12:00:00\.000Z\n$/,
    );
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  it('--body-file, --secret-file and SIMJOB_WEBHOOK_SIGNATURE; --json prints the event', async () => {
    const body = `${JSON.stringify({ ...EVENT, payload: { ...EVENT.payload, status: 'failed', statusReason: 'Échec — «simc» ☃' } })}\n`;
    const bodyFile = tempFile('body.json', body);
    const secretFile = tempFile('secret.txt', `${SECRET}\n`); // as `echo "$secret" > secret.txt` writes it
    const signature = await opensslSign(SECRET, nowSeconds(), body);
    const result = await simjob(['webhook', 'verify', '--body-file', bodyFile, '--secret-file', secretFile, '--json'], {
      env: { ...isolatedDirs(), SIMJOB_WEBHOOK_SIGNATURE: signature, SIMJOB_WEBHOOK_SECRET: 'not-this-one' },
    });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(body));
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('checks the committed openssl vectors (non-ASCII, trailing newline) byte for byte', async () => {
    for (const v of VECTORS) {
      const bodyFile = tempFile('body.json', Buffer.from(v.body, 'utf8'));
      const args = [
        'webhook',
        'verify',
        '--body-file',
        bodyFile,
        '--signature',
        `t=${v.t},v1=${v.digest}`,
        '--tolerance',
        '999999999',
      ];
      const env = { ...isolatedDirs(), SIMJOB_WEBHOOK_SECRET: v.secret };
      expect((await simjob(args, { env })).exitCode, v.name).toBe(0);
      // The same text with its trailing whitespace trimmed, as an editor or a shell would, no longer verifies.
      if (v.body !== v.body.trimEnd()) {
        writeFileSync(bodyFile, v.body.trimEnd());
        expect((await simjob(args, { env })).exitCode, `${v.name} trimmed`).toBe(1);
      }
    }
  });

  it('exit 1 with the reason: wrong secret, tampered body, stale, future, malformed header', async () => {
    const env = { ...isolatedDirs(), SIMJOB_WEBHOOK_SECRET: SECRET };
    const fresh = await opensslSign(SECRET, nowSeconds(), BODY);
    const cases: Array<[string, string, string, RegExp]> = [
      [
        'wrong secret',
        await opensslSign('whsec_other', nowSeconds(), BODY),
        BODY,
        /the signature does not match the body .*current signing secret/,
      ],
      ['tampered body', fresh, BODY.replace('completed', 'cancelled'), /the signature does not match the body/],
      [
        'stale',
        await opensslSign(SECRET, nowSeconds() - 400, BODY),
        BODY,
        /the signature is 4\d\d s old, over the 300 s tolerance.*--tolerance/,
      ],
      [
        'future',
        await opensslSign(SECRET, nowSeconds() + 400, BODY),
        BODY,
        /the signature is \d+ s in the future, over the 300 s tolerance.*clock/,
      ],
      [
        'malformed',
        fresh.replace(/^t=/, 'ts='),
        BODY,
        /the signature header has no t= timestamp.*t=1711360000,v1=<64 hex digits>/,
      ],
      [
        'non-digit t',
        fresh.replace(/^t=\d+/, 't=12e3'),
        BODY,
        /the signature timestamp must be whole unix seconds, all digits \(got "12e3"\)/,
      ],
    ];
    for (const [name, signature, body, reason] of cases) {
      const result = await simjob(['webhook', 'verify', '--signature', signature, '--json'], { env, input: body });
      expect(result.exitCode, name).toBe(1);
      expect(result.stdout, name).toBe('');
      expect(result.stderr, name).toMatch(new RegExp(`^Error: Invalid webhook delivery: ${reason.source}`));
      expect(result.stderr.trimEnd().split('\n'), name).toHaveLength(1);
    }
  });

  it('a validly signed body that is not an event is refused', async () => {
    const body = '{"hello":"world"}';
    const result = await simjob(['webhook', 'verify', '--signature', await opensslSign(SECRET, nowSeconds(), body)], {
      env: { ...isolatedDirs(), SIMJOB_WEBHOOK_SECRET: SECRET },
      input: body,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^Error: The signature is valid, but the body is not a webhook event/);
  });

  it('usage errors exit 2: no secret, no signature, an unreadable file, and the secret is never a flag', async () => {
    const dirs = isolatedDirs();
    const signature = await opensslSign(SECRET, nowSeconds(), BODY);
    const noSecret = await simjob(['webhook', 'verify', '--signature', signature], { env: dirs, input: BODY });
    expect(noSecret.exitCode).toBe(2);
    expect(noSecret.stderr).toMatch(
      /^Error: No webhook signing secret\. Set SIMJOB_WEBHOOK_SECRET, pass --secret-file FILE/,
    );

    const noSignature = await simjob(['webhook', 'verify'], {
      env: { ...dirs, SIMJOB_WEBHOOK_SECRET: SECRET },
      input: BODY,
    });
    expect(noSignature.exitCode).toBe(2);
    expect(noSignature.stderr).toMatch(
      /^Error: No signature to check\. Pass the X-Service-Signature value with --signature/,
    );

    const missing = await simjob(
      ['webhook', 'verify', '--signature', signature, '--body-file', '/nonexistent/body.json'],
      { env: { ...dirs, SIMJOB_WEBHOOK_SECRET: SECRET } },
    );
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe(
      'Error: Body file /nonexistent/body.json does not exist. Save the raw request body to a file, or pipe it in.\n',
    );

    const empty = await simjob(['webhook', 'verify', '--signature', signature], {
      env: { ...dirs, SIMJOB_WEBHOOK_SECRET: SECRET },
      input: '',
    });
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toBe('Error: No body on stdin. Pipe the raw request body in, or pass --body-file FILE.\n');

    const flag = await simjob(['webhook', 'verify', '--signature', signature, '--secret', SECRET], {
      env: dirs,
      input: BODY,
    });
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toBe("Error: unknown option '--secret'. Run `simjob webhook verify --help` for usage.\n");
  });

  it('`webhook secret set` stores the secret from stdin (0600, never printed) and verify uses it', async () => {
    const dirs = isolatedDirs();
    const set = await simjob(['webhook', 'secret', 'set'], { env: dirs, input: `${SECRET}\n` });
    expect(set.exitCode).toBe(0);
    expect(set.stderr).toMatch(
      /Stored the webhook signing secret for profile "default" in .*credentials\.json \(mode 0600\)/,
    );
    expect(set.stdout + set.stderr).not.toContain(SECRET);
    const credentials = join(dirs.SIMJOB_CONFIG_DIR, 'credentials.json');
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(credentials, 'utf8'))).toEqual({
      profiles: { default: { webhook_secret: SECRET } },
    });

    const ok = await simjob(['webhook', 'verify', '--signature', await opensslSign(SECRET, nowSeconds(), BODY)], {
      env: dirs,
      input: BODY,
    });
    expect(ok.exitCode).toBe(0);

    const unset = await simjob(['webhook', 'secret', 'unset'], { env: dirs });
    expect(unset.stderr).toMatch(/Removed the webhook signing secret of profile "default"/);
    const after = await simjob(['webhook', 'verify', '--signature', 't=1,v1=00'], { env: dirs, input: BODY });
    expect(after.exitCode).toBe(2);
  });
});
