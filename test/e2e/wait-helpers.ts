/** Helpers of the wait, result, batch and compare end-to-end tests: the CLI as a live process, piped or on a pty. */
import { execa, type ResultPromise } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect } from 'vitest';
import { BIN, isolatedDirs, simjob } from '../helpers/cli.js';
import type { TestServer } from '../server/index.js';
import { pty } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';

export const ANSI = /\x1b\[/;

/** The environment of a user logged in to `server` with `key`, with fresh config dirs. */
export function userEnv(server: TestServer, key = 'sk_test_good'): Record<string, string> {
  return { ...isolatedDirs(), SIMJOB_BASE_URL: server.url, SIMJOB_API_KEY: key };
}

/** A profile with `sets` profilesets, written to a fresh folder; returns its path. */
export function profileFile(name = 'Fury', sets = 6, dir = tempDir('simjob-prof-')): string {
  const lines = [`warrior="${name}"`, 'level=80', 'spec=fury'];
  for (let i = 0; i < sets; i++) lines.push(`profileset."set_${i}"+=trinket1=,id=${200_000 + i}`);
  const path = join(dir, `${name.toLowerCase()}.simc`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

export interface Live {
  process: ResultPromise;
  stdout: () => string;
  stderr: () => string;
  /** Resolve when stderr matches (rejects after `ms`). */
  waitForStderr(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  done: Promise<{ exitCode: number; stdout: string; stderr: string; durationMs: number }>;
}

/** Start the built CLI with piped stdio (not a terminal) and follow its output while it runs. */
export function spawnCli(args: string[], env: Record<string, string>): Live {
  const started = Date.now();
  const child = execa(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...env },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const done = child.then((r) => ({
    exitCode: r.exitCode ?? -1,
    stdout: out,
    stderr: err,
    durationMs: Date.now() - started,
  }));
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    waitForStderr: (pattern, ms = 20_000) =>
      until(
        () => err.match(pattern),
        ms,
        () => `stderr never matched ${pattern}:\n${err}`,
      ),
    done,
  };
}

export async function until<T>(probe: () => T | null | undefined, ms: number, message: () => string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface PtyRun {
  output: () => string;
  write(data: string): void;
  /** Resolve when the terminal's text, without escape sequences, matches. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  exit: Promise<{ exitCode: number; output: string }>;
}

/**
 * Run the CLI on a real pseudo-terminal (@lydell/node-pty): stdout and stderr are the terminal, as for a user.
 * Callers skip with `ptySkips()` where the library is missing.
 */
export async function spawnPty(args: string[], env: Record<string, string>, cols = 100): Promise<PtyRun> {
  if (!pty) throw new Error('no pseudo-terminal library: see test/helpers/pty.ts');
  const term = pty.spawn(process.execPath, [BIN, ...args], {
    cols,
    rows: 40,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: process.env.TMPDIR ?? '',
      TERM: 'xterm-256color',
      ...env,
    },
  });
  let output = '';
  term.onData((d) => (output += d));
  const exit = new Promise<{ exitCode: number; output: string }>((done) =>
    term.onExit((e) => setTimeout(() => done({ exitCode: e.exitCode, output }), 50)),
  );
  return {
    output: () => output,
    write: (data) => term.write(data),
    waitFor: (pattern, ms = 20_000) =>
      until(
        () => stripVTControlCharacters(output).match(pattern),
        ms,
        () => `the terminal never showed ${pattern}:\n${output}`,
      ),
    exit,
  };
}

/** The state word of each `[m:ss] …` progress line. */
export function stateLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => /^\[\d+:\d\d\] /.test(l))
    .map((l) => l.replace(/^\[\d+:\d\d\] /, '').split(/[ ·]/)[0]!);
}

/** Cancel a job through the API, so long-running test jobs do not hold the server's compute slots. */
export async function cancelJob(server: TestServer, id: string, key = 'sk_test_good'): Promise<void> {
  await fetch(`${server.url}/v1/sim/jobs/${id}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
  });
}

/**
 * Submit a profile to the test server (`--json`; the built bin unless `run` is given, e.g. the in-process runner)
 * and wait until the server has finished the job.
 */
export async function submitFinished(
  server: TestServer,
  env: Record<string, string>,
  profile: string,
  args: string[] = [],
  run: typeof simjob = simjob,
): Promise<string> {
  const r = await run(['submit', profile, '--channel', 'nightly', '--json', ...args], { env });
  expect(r.exitCode, r.stderr).toBe(0);
  const id = JSON.parse(r.stdout).id as string;
  await server.waitForJob(id);
  return id;
}
