import { execa } from 'execa';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from './shared.js';
import { tempDir } from './temp.js';

export const BIN = resolve(REPO_ROOT, 'bin', 'simjob.js');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A fresh, empty config and data dir, as a new user has. */
export function isolatedDirs(): { SIMJOB_CONFIG_DIR: string; SIMJOB_DATA_DIR: string } {
  const root = tempDir('simjob-e2e-');
  return { SIMJOB_CONFIG_DIR: join(root, 'config'), SIMJOB_DATA_DIR: join(root, 'data') };
}

/**
 * Run the built CLI as a user would: a separate process, piped stdio (not a TTY), no colour forced either way.
 * Only the variables given (plus PATH/HOME) are set, so the developer's own SIMJOB_* never leak in.
 */
export async function simjob(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const result = await execa(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...options.env },
    extendEnv: false,
    input: options.input ?? '',
    cwd: options.cwd,
    reject: false,
    timeout: options.timeoutMs ?? 30_000,
    stripFinalNewline: false,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}
