import { execa } from 'execa';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deliverTerminalEvent, fileRecordStore, newDeliveryRecord } from '../../src/core/webhook/deliver.js';
import { postRaw } from '../../src/core/webhook/post.js';
import { signatureHeader } from '../../src/core/webhook/signature.js';
import { BIN, isolatedDirs } from '../helpers/cli.js';
import { startListen, type Listening } from '../helpers/listen.js';
import { scriptedReceiver } from '../unit/webhook/receiver.js';
import { tempDir } from '../helpers/temp.js';

const SECRET = 'whsec_e2e_listen';
const FAST = [20, 40, 80, 160, 320];
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** `webhook listen` with its own config dirs and the signing secret. */
function listen(args: string[], env: Record<string, string> = {}): Promise<Listening> {
  return startListen({ ...isolatedDirs(), SIMJOB_WEBHOOK_SECRET: SECRET, ...env }, args, cleanups);
}

const job = (n: number) => ({
  id: `local-01j9x4b8c2m6k0p3q${n}`,
  status: n % 2 ? 'completed' : 'failed',
  statusReason: n % 2 ? null : 'simc exited with code 1: ☃',
});

/** A retry of an already delivered event, as the service sends it: same event id and body, new delivery id. */
function redeliver(url: string, eventId: string, body: string, secret = SECRET) {
  const raw = Buffer.from(body, 'utf8');
  return postRaw(url, raw, {
    'content-type': 'application/json',
    'x-service-signature': signatureHeader(secret, Math.floor(Date.now() / 1000), raw),
    'x-service-event-id': eventId,
    'x-service-delivery-id': `dlv_${randomUUID().replace(/-/g, '')}`,
  });
}

describe('simjob webhook listen', () => {
  it('receives a delivered event and verifies it; a repeated delivery prints once; a bad signature gets 400', async () => {
    const l = await listen(['--json', '--max-events', '2']);
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    // the full URL, path included, and where each kind of sender takes it
    await expect
      .poll(() => l.stderr())
      .toContain(`Give senders that URL, path and all: local jobs \`simjob config set webhook.url ${l.url}\``);
    expect(l.stderr()).toContain(`the test server \`npm run try-server -- --webhook-url ${l.url}\``);
    expect(l.stderr()).toContain('(Clients & Keys → your client → Webhook)');

    const first = await deliverTerminalEvent({
      job: job(1),
      target: { url: l.url, secret: SECRET },
      store: fileRecordStore(join(tempDir('simjob-listen-'), 'webhook.json')),
    });
    expect(first.state).toBe('delivered');
    expect(first.attempts).toHaveLength(1);

    expect(await redeliver(l.url, first.eventId, first.body)).toEqual({ kind: 'answered', status: 200 });
    expect(await redeliver(l.url, first.eventId, first.body)).toEqual({ kind: 'answered', status: 200 });
    expect(await redeliver(l.url, 'evt_forged', first.body, 'whsec_wrong')).toEqual({ kind: 'answered', status: 400 });
    expect(await redeliver(l.url, 'evt_tampered', first.body.replace('completed', 'cancelled'))).toMatchObject({
      status: 200,
    }); // validly signed: a new event

    const result = await l.child;
    expect(result.exitCode).toBe(0);
    const lines = l
      .stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { eventId: string; deliveryId: string; event: unknown });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({
      eventId: first.eventId,
      deliveryId: first.attempts[0]!.deliveryId,
      event: JSON.parse(first.body),
    });
    expect(lines[1]).toMatchObject({ eventId: 'evt_tampered', event: { payload: { status: 'cancelled' } } });
    expect(
      l.stderr().match(/Duplicate delivery dlv_\w+ of event (\w+): answered 200, not processed again\./g),
    ).toHaveLength(2);
    expect(l.stderr()).toMatch(/Warning: Delivery dlv_\w+ answered 400: the signature does not match the body/);
    expect(l.stderr()).toMatch(/Stopped after 2 events\.\n$/);
    expect(l.stdout() + l.stderr()).not.toContain(SECRET);
  });

  it('--exec failing twice then succeeding: the sender makes exactly three attempts, the event runs and prints once', async () => {
    const dir = tempDir('simjob-listen-');
    // Fails on its first two runs, then records its environment and succeeds.
    const command = `n=$(cat "${dir}/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${dir}/count"; [ $n -ge 3 ] || exit 7; env | grep '^SIMJOB_' | grep -v SECRET | sort > "${dir}/env"; cat > "${dir}/stdin"; echo "ran for $SIMJOB_JOB_ID"`;
    const l = await listen(['--max-events', '1', '--exec', command]);
    const record = await deliverTerminalEvent({
      job: job(2),
      target: { url: l.url, secret: SECRET },
      store: fileRecordStore(join(dir, 'webhook.json')),
      delaysMs: FAST,
    });

    expect(record.state).toBe('delivered');
    expect(record.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(new Set(record.attempts.map((a) => a.deliveryId)).size).toBe(3);
    const result = await l.child;
    expect(result.exitCode).toBe(0);
    // Human output: one line for the one event.
    expect(l.stdout()).toBe(
      `${JSON.parse(record.body).timestamp}  job.terminal  ${job(2).id}  failed  ${record.eventId}  simc exited with code 1: ☃\n`,
    );
    for (const a of record.attempts.slice(0, 2)) {
      expect(l.stderr()).toContain(
        `Warning: Delivery ${a.deliveryId} answered 500 so the sender retries: --exec exited with code 7.`,
      );
    }
    expect(l.stderr()).toContain(`ran for ${job(2).id}`);
    const env = readFileSync(join(dir, 'env'), 'utf8');
    expect(env).toContain(`SIMJOB_EVENT_ID=${record.eventId}\n`);
    expect(env).toContain(`SIMJOB_DELIVERY_ID=${record.attempts[2]!.deliveryId}\n`);
    expect(env).toContain(`SIMJOB_JOB_ID=${job(2).id}\n`);
    expect(env).toContain('SIMJOB_JOB_STATUS=failed\n');
    expect(env).toContain('SIMJOB_JOB_STATUS_REASON=simc exited with code 1: ☃\n');
    expect(env).toContain(`SIMJOB_EVENT_JSON=${record.body}\n`);
    expect(readFileSync(join(dir, 'stdin'), 'utf8')).toBe(record.body);
  });

  it("--exec gets only job ids of the service's shape: a signed payload.id of ../PWNED is refused, nothing written", async () => {
    const dir = tempDir('simjob-listen-');
    const command = `mkdir -p "${dir}/results" && echo ran > "${dir}/results/$SIMJOB_JOB_ID.json"`;
    const l = await listen(['--max-events', '1', '--exec', command]);
    const event = (id: string) =>
      JSON.stringify({
        kind: 'job.terminal',
        version: 'v1',
        timestamp: new Date().toISOString(),
        payload: { id, status: 'completed', statusReason: null },
      });
    expect(await redeliver(l.url, 'evt_pwned', event('../PWNED'))).toEqual({ kind: 'answered', status: 400 });
    expect(await redeliver(l.url, 'evt_deep', event('../../../../tmp/x'))).toEqual({ kind: 'answered', status: 400 });
    expect(existsSync(join(dir, 'PWNED.json'))).toBe(false);
    expect(existsSync(join(dir, 'results'))).toBe(false); // the command never ran
    const warnings = () =>
      l
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('Warning: '));
    // the listener prints a refusal after answering it: wait for the second line
    for (let i = 0; i < 250 && warnings().length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    const refusals = warnings();
    expect(refusals).toEqual([
      expect.stringMatching(
        /^Warning: Delivery dlv_\w+ answered 400: payload\.id "\.\.\/PWNED" is not a job id of the service .*--exec did not run\.$/,
      ),
      expect.stringContaining('payload.id "../../../../tmp/x" is not a job id of the service'),
    ]);
    // ids of the service's shape still run it: 18 digits, and local ones
    expect(await redeliver(l.url, 'evt_good', event('519253542012420096'))).toEqual({ kind: 'answered', status: 200 });
    expect((await l.child).exitCode).toBe(0);
    expect(readdirSync(join(dir, 'results'))).toEqual(['519253542012420096.json']);
  });

  it('--forward-to re-posts the exact body and service headers; a failing target makes the sender retry', async () => {
    const target = await scriptedReceiver([503, 200]);
    cleanups.push(target.close);
    const l = await listen(['--max-events', '1', '--forward-to', target.url]);
    const record = await deliverTerminalEvent({
      job: job(3),
      target: { url: l.url, secret: SECRET },
      store: fileRecordStore(join(tempDir('simjob-listen-'), 'webhook.json')),
      delaysMs: FAST,
    });

    expect(record.attempts.map((a) => a.status)).toEqual([502, 200]);
    expect(target.requests).toHaveLength(2);
    target.requests.forEach((q, i) => {
      expect(q.body.toString('utf8')).toBe(record.body);
      expect(q.headers['x-service-event-id']).toBe(record.eventId);
      expect(q.headers['x-service-delivery-id']).toBe(record.attempts[i]!.deliveryId);
      expect(q.headers['content-type']).toBe('application/json');
      expect(q.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    });
    expect((await l.child).exitCode).toBe(0);
    expect(l.stderr()).toMatch(
      /answered 502 so the sender retries: --forward-to http:\/\/127\.0\.0\.1:\d+\/hook failed: HTTP 503/,
    );
  });

  it('Ctrl-C stops it cleanly with exit 0', async () => {
    const l = await listen([]);
    l.child.kill('SIGINT');
    const result = await l.child;
    expect(result.exitCode).toBe(0);
    expect(l.stderr()).toMatch(/Stopped after 0 events\.\n$/);
    expect(l.stdout()).toBe('');
  });

  it('a port in use, or no secret, is a one-line usage error (exit 2)', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => blocker.close(r)));
    const port = String((blocker.address() as { port: number }).port);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...isolatedDirs() };
    const busy = await execa(process.execPath, [BIN, 'webhook', 'listen', '--port', port], {
      env: { ...env, SIMJOB_WEBHOOK_SECRET: SECRET },
      extendEnv: false,
      reject: false,
    });
    expect(busy.exitCode).toBe(2);
    expect(busy.stderr).toBe(
      `Error: Port ${port} on 127.0.0.1 is already in use. Pick another with --port, or --port 0 for any free port.`,
    );
    const noSecret = await execa(process.execPath, [BIN, 'webhook', 'listen', '--port', '0'], {
      env,
      extendEnv: false,
      reject: false,
    });
    expect(noSecret.exitCode).toBe(2);
    expect(noSecret.stderr).toMatch(/^Error: No webhook signing secret\./);
  });

  it('a record from before a restart is delivered with its original event id', async () => {
    const l = await listen(['--json', '--max-events', '1']);
    const store = fileRecordStore(join(tempDir('simjob-listen-'), 'webhook.json'));
    const pending = newDeliveryRecord(job(5));
    await store.write(pending);
    const record = await deliverTerminalEvent({ job: job(5), target: { url: l.url, secret: SECRET }, store });
    expect(record.state).toBe('delivered');
    await l.child;
    expect(JSON.parse(l.stdout()).eventId).toBe(pending.eventId);
  });

  it('remembers the events it ran across a restart: a redelivery inside the window is a 200 duplicate and --exec does not run again', async () => {
    const dirs = isolatedDirs();
    const dir = tempDir('simjob-listen-');
    const command = `echo "$SIMJOB_EVENT_ID" >> "${dir}/runs"`;
    const first = await startListen(
      { ...dirs, SIMJOB_WEBHOOK_SECRET: SECRET },
      ['--max-events', '1', '--exec', command],
      cleanups,
    );
    const record = await deliverTerminalEvent({
      job: job(7),
      target: { url: first.url, secret: SECRET },
      store: fileRecordStore(join(dir, 'webhook.json')),
    });
    expect(record.state).toBe('delivered');
    expect((await first.child).exitCode).toBe(0);
    expect(readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n')).toHaveLength(1);

    const second = await startListen({ ...dirs, SIMJOB_WEBHOOK_SECRET: SECRET }, ['--exec', command], cleanups);
    expect(await redeliver(second.url, record.eventId, record.body)).toEqual({ kind: 'answered', status: 200 });
    second.child.kill('SIGINT');
    expect((await second.child).exitCode).toBe(0);
    expect(second.stderr()).toMatch(
      new RegExp(`Duplicate delivery dlv_\\w+ of event ${record.eventId}: answered 200, not processed again\\.`),
    );
    expect(second.stderr()).toMatch(/Stopped after 0 events\.\n$/);
    expect(readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('an event id older than the tolerance window is forgotten (pruned from the file) and a damaged file is not fatal', async () => {
    const dirs = isolatedDirs();
    const seenFile = join(dirs.SIMJOB_DATA_DIR, 'webhook-listen-seen.json');
    mkdirSync(dirs.SIMJOB_DATA_DIR, { recursive: true });
    const old = Date.now() - 301_000;
    writeFileSync(
      seenFile,
      JSON.stringify({ version: 1, seen: { evt_old: old, evt_gone: old, evt_recent: Date.now() - 5_000 } }),
    );
    const l = await startListen({ ...dirs, SIMJOB_WEBHOOK_SECRET: SECRET }, ['--json', '--max-events', '1'], cleanups);
    const body = JSON.stringify({
      kind: 'job.terminal',
      version: 'v1',
      timestamp: new Date().toISOString(),
      payload: job(8),
    });
    expect(await redeliver(l.url, 'evt_recent', body)).toEqual({ kind: 'answered', status: 200 }); // a duplicate: not printed
    expect(await redeliver(l.url, 'evt_old', body)).toEqual({ kind: 'answered', status: 200 }); // forgotten: runs
    expect((await l.child).exitCode).toBe(0);
    expect(JSON.parse(l.stdout())).toMatchObject({ eventId: 'evt_old' });
    const seen = JSON.parse(readFileSync(seenFile, 'utf8')).seen as Record<string, number>;
    expect(Object.keys(seen).sort()).toEqual(['evt_old', 'evt_recent']);
    expect(seen.evt_old).toBeGreaterThan(old); // seen again now, not the old entry

    writeFileSync(seenFile, '{"version":1,"seen":{"evt_');
    const again = await startListen(
      { ...dirs, SIMJOB_WEBHOOK_SECRET: SECRET },
      ['--json', '--max-events', '1'],
      cleanups,
    );
    expect(again.stderr()).toMatch(
      /Warning: .*webhook-listen-seen\.json is damaged \(not JSON\); starting with no seen event ids/,
    );
    expect(await redeliver(again.url, 'evt_new', body)).toEqual({ kind: 'answered', status: 200 });
    expect((await again.child).exitCode).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(seenFile, 'utf8')).seen)).toContain('evt_new');
  });
});
