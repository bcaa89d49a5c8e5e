/**
 * Terminal safety against a hostile service: every string the test server answers with carries an OSC title change,
 * a line erase, a colour, the C1 CSI, DEL and NUL (HOSTILE_TEXT). Human output must show them as text (`\x1b`),
 * never emit them; simjob's own colour still works; --json stays byte-faithful to the resource.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postRaw } from '../../src/core/webhook/post.js';
import { signatureHeader } from '../../src/core/webhook/signature.js';
import { isolatedDirs, simjob, type CliResult } from '../helpers/cli.js';
import { startListen } from '../helpers/listen.js';
import { ptySkips } from '../helpers/pty.js';
import { cleanUp, localEnv, profileFile as localProfile, quickProfile, run } from './local-helpers.js';
import { HOSTILE_TEXT } from '../server/faults.js';
import { startServer, type TestServer } from '../server/index.js';
import { profileFile, spawnPty, userEnv } from './wait-helpers.js';

let server: TestServer;
let env: Record<string, string>;
let profile: string;
let completed: string;
let failed: string;

// Any control character but \t and \n: with colour off, simjob writes none at all.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// simjob's own colour: complete SGR sequences only.
const OWN_SGR = /\u001b\[[0-9;]*m/g;

async function submitted(meta: string[]): Promise<string> {
  const r = await simjob(['submit', profile, '--channel', 'nightly', '--json', ...meta.flatMap((m) => ['--meta', m])], {
    env,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  const id = JSON.parse(r.stdout).id as string;
  await server.waitForJob(id);
  return id;
}

beforeAll(async () => {
  server = await startServer({ queueMs: 50, runMs: 200, concurrency: 8 });
  env = { ...userEnv(server), NO_COLOR: '1' };
  profile = profileFile('Fury', 4);
  completed = await submitted(['team=raid']);
  failed = await submitted(['test.outcome=simulation_error']);
  server.setHostile(true);
});
afterAll(async () => {
  await server.close();
});

function expectClean(r: CliResult, what: string): void {
  const both = `${r.stdout}${r.stderr}`;
  expect(both, `${what}: a raw control character reached the terminal`).not.toMatch(CONTROL);
  expect(r.exitCode, `${what}: ${r.stderr}`).not.toBe(-1);
}

describe('hostile server, piped output without colour: no control character at all', () => {
  const cases: Array<[string, () => string[]]> = [
    ['status', () => ['status', failed]],
    ['result (failed job, statusReason)', () => ['result', failed]],
    ['result (profilesets, actor, artifacts)', () => ['result', completed]],
    ['jobs (metadata, ids, states)', () => ['jobs', '--limit', '5']],
    ['compare', () => ['compare', completed, completed]],
    ['usage', () => ['usage']],
    ['builds', () => ['builds']],
    ['artifacts', () => ['artifacts', completed]],
    ['API error envelope', () => ['status', 'job_does_not_exist']],
  ];
  it.each(cases)('%s', async (name, args) => {
    const r = await simjob(args(), { env });
    expectClean(r, name);
    // The attack is shown, visibly: the title change as text.
    expect(`${r.stdout}${r.stderr}`).toContain('\\x1b]0;pwned\\x07');
  });

  it('an API error is one escaped line and keeps its exit code', async () => {
    const r = await simjob(['status', 'job_does_not_exist'], { env });
    expect(r.exitCode).toBe(1);
    const errorLine = r.stderr.split('\n').find((l) => l.startsWith('Error:'));
    expect(errorLine).toContain('\\x1b[2K\\x1b[31mRED\\x9b1m\\x7f\\x00\\x0d\\x0aX');
  });

  it('the batch summary and its progress lines', async () => {
    server.setHostile(false);
    const second = profileFile('Arms', 2);
    server.setHostile(true, { spare: ['id', 'status'] }); // the wait must still follow the jobs
    const r = await simjob(['submit', profile, second, '--channel', 'nightly', '--wait'], { env, timeoutMs: 60_000 });
    server.setHostile(true);
    expectClean(r, 'batch');
    expect(r.stdout).toMatch(/^Profile\tJob\tStatus/m);
    expect(r.stdout).toContain('\\x1b]0;pwned\\x07'); // best profileset names
  });
});

describe('hostile server, colour forced', () => {
  it('own colours survive, hostile sequences are escaped', async () => {
    const r = await simjob(['result', failed], { env: { ...env, NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(r.exitCode, r.stderr).not.toBe(-1);
    const both = `${r.stdout}${r.stderr}`;
    expect(both).toMatch(OWN_SGR); // simjob's red for the failed state
    // Once simjob's own SGR codes are taken out, no control character is left: the hostile ones were all escaped.
    expect(both.replace(OWN_SGR, '')).not.toMatch(CONTROL);
    expect(both).toContain('\\x1b[31mRED'); // the hostile colour, as text
  });
});

describe.skipIf(ptySkips('the pseudo-terminal test of a hostile server'))('hostile server, on a terminal', () => {
  it('the wait spinner and the status view show the attacks as text, in colour', async () => {
    server.setHostile(false);
    const r = await simjob(
      ['submit', profile, '--channel', 'nightly', '--multistage', '--json', '--meta', 'test.runMs=1500'],
      { env },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).id as string;
    server.setHostile(true, { spare: ['id', 'status'] }); // so the wait still ends
    try {
      const term = await spawnPty(['status', id, '--wait'], {
        ...userEnv(server),
        SIMJOB_CONFIG_DIR: env.SIMJOB_CONFIG_DIR!,
        SIMJOB_DATA_DIR: env.SIMJOB_DATA_DIR!,
      });
      const { output } = await term.exit;
      expect(output).toContain('\\x1b]0;pwned\\x07'); // shown, escaped
      // The spinner moves the cursor itself, so not every ESC is foreign here; but none of the attacks got through.
      for (const raw of ['\u001b]0;', '\u0007', '\u009b', '\u007f', '\u0000', '\u001b[31mRED'])
        expect(output).not.toContain(raw);
    } finally {
      server.setHostile(true);
    }
  });
});

describe('hostile webhook sender', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  it("webhook listen prints the event's fields as text", async () => {
    const secret = 'whsec_hostile';
    const l = await startListen(
      { ...isolatedDirs(), SIMJOB_WEBHOOK_SECRET: secret, NO_COLOR: '1' },
      ['--max-events', '1'],
      cleanups,
    );
    const body = Buffer.from(
      JSON.stringify({
        kind: `job.terminal${HOSTILE_TEXT}`,
        version: 'v1',
        timestamp: `2026-01-01T00:00:00Z${HOSTILE_TEXT}`,
        payload: { id: `job${HOSTILE_TEXT}`, status: `failed${HOSTILE_TEXT}`, statusReason: HOSTILE_TEXT },
      }),
    );
    const answer = await postRaw(l.url, body, {
      'content-type': 'application/json',
      'x-service-signature': signatureHeader(secret, Math.floor(Date.now() / 1000), body),
      'x-service-event-id': 'evt_hostile',
      'x-service-delivery-id': 'dlv_hostile',
    });
    expect(answer).toEqual({ kind: 'answered', status: 200 });
    const done = await l.child;
    expectClean({ exitCode: done.exitCode ?? -1, stdout: l.stdout(), stderr: l.stderr() }, 'webhook listen');
    expect(l.stdout()).toContain('\\x1b]0;pwned\\x07');
  });
});

describe('hostile text from simc and a profile, in local mode', () => {
  it("simc's Error: line quoting a file name, the profile warning and the status reason are shown as text", async () => {
    const local = localEnv();
    try {
      const path = localProfile(
        local,
        'p.simc',
        quickProfile('A', [`input=missing${HOSTILE_TEXT.replace(/[\r\n\u0000]/g, '')}.simc`]),
      );
      const r = await run(local, ['submit', path, '--local', '--wait']);
      expect(r.exitCode, r.stderr).toBe(3);
      expectClean(r, 'local simc error');
      expect(r.stdout).toMatch(
        /simulation_error: .*Unable to open input parameter file 'missing\\x1b\]0;pwned\\x07\\x1b\[2K\\x1b\[31mRED\\x9b1m\\x7fX\.simc'/,
      );
    } finally {
      await cleanUp(local);
    }
  });
});

describe('--json stays byte-faithful', () => {
  it.each([
    ['result', () => ['result', completed], () => `/v1/sim/jobs/${completed}/result`],
    ['status', () => ['status', failed], () => `/v1/sim/jobs/${failed}/status`],
  ])('%s --json prints the resource exactly, controls and all', async (_name, args, path) => {
    const r = await simjob([...args(), '--json'], { env });
    const answer = await fetch(`${server.url}${path()}`, {
      headers: { authorization: `Bearer ${env.SIMJOB_API_KEY}` },
    });
    const body = await answer.text();
    expect(r.stdout).toBe(`${body}\n`);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain(JSON.stringify(HOSTILE_TEXT).slice(1, -1));
  });
});
