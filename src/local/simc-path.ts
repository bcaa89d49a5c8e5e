/**
 * Where simc is, first match wins: `--simc PATH`, SIMJOB_SIMC, the setting for the job's channel (`simc.nightly` /
 * `simc.weekly` / `simc.latest`), the setting `simc.path`, then `simc` on PATH. The one place of that order, for
 * findSimc (simc.ts) and the head start (head-start.ts), which runs before the CLI has loaded: so only node:fs and
 * node:path here (through util/on-path.ts), and synchronous checks (a few stats).
 */
import { resolve } from 'node:path';
import { commandOnPath, isExecutableFile } from '../util/on-path.js';

export { isExecutableFile };

/** A simc path as named by a flag, variable or setting: `~` is the home folder, relative paths from the cwd. */
export function simcPath(raw: string, env: NodeJS.ProcessEnv): string {
  return resolve(raw.replace(/^~(?=$|[\\/])/, env.HOME ?? '~'));
}

/** A simc a flag, variable or setting names: the path as given, where it was named, and the setting's key if one. */
export interface NamedSimc {
  raw: string;
  /** `--simc`, `SIMJOB_SIMC`, `the setting simc.nightly` */
  source: string;
  setting?: string;
}

/** The simc a flag, variable or setting names (not checked), or undefined when none does. */
export function namedSimc(opts: { flag?: string | undefined; env: NodeJS.ProcessEnv; setting: (key: string) => string | undefined; channel: string }): NamedSimc | undefined {
  if (opts.flag) return { raw: opts.flag, source: '--simc' };
  if (opts.env.SIMJOB_SIMC) return { raw: opts.env.SIMJOB_SIMC, source: 'SIMJOB_SIMC' };
  for (const key of [`simc.${opts.channel}`, 'simc.path']) {
    const value = opts.setting(key);
    if (value) return { raw: value, source: `the setting ${key}`, setting: key };
  }
  return undefined;
}

/** `simc` on PATH (with PATHEXT on Windows). */
export const simcOnPath = (env: NodeJS.ProcessEnv): string | undefined => commandOnPath('simc', env);
