/**
 * Where simc is, first match wins: `--simc PATH`, SIMJOB_SIMC, the setting for the job's channel (`simc.nightly` /
 * `simc.weekly` / `simc.latest`), the setting `simc.path`, then `simc` on PATH. The one place of that order, for
 * findSimc (simc.ts) and the head start (head-start.ts), which runs before the CLI has loaded: so only node:fs and
 * node:path here, and synchronous checks (a few stats).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** A simc path as named by a flag, variable or setting: `~` is the home folder, relative paths from the cwd. */
export function simcPath(raw: string, env: NodeJS.ProcessEnv): string {
  return resolve(raw.replace(/^~(?=$|[\\/])/, env.HOME ?? '~'));
}

export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The simc a flag, variable or setting names (not checked), and where it was named (`--simc`, `SIMJOB_SIMC`, `the
 * setting simc.nightly`), or undefined when none does.
 */
export function namedSimc(opts: { flag?: string | undefined; env: NodeJS.ProcessEnv; setting: (key: string) => string | undefined; channel: string }): { raw: string; source: string } | undefined {
  if (opts.flag) return { raw: opts.flag, source: '--simc' };
  if (opts.env.SIMJOB_SIMC) return { raw: opts.env.SIMJOB_SIMC, source: 'SIMJOB_SIMC' };
  for (const key of [`simc.${opts.channel}`, 'simc.path']) {
    const value = opts.setting(key);
    if (value) return { raw: value, source: `the setting ${key}` };
  }
  return undefined;
}

/** `simc` on PATH (with PATHEXT on Windows). */
export function simcOnPath(env: NodeJS.ProcessEnv): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  const names = process.platform === 'win32'
    ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').map((ext) => `simc${ext.toLowerCase()}`)
    : ['simc'];
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = join(isAbsolute(dir) ? dir : resolve(dir), name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}
