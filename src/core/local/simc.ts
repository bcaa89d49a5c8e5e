/**
 * Finding the user's simc, reading its version line, and what it is given to run.
 *
 * Where simc comes from, first match wins: `--simc PATH`, SIMJOB_SIMC, the setting for the job's channel
 * (`simc.nightly` / `simc.weekly` / `simc.latest`), the setting `simc.path`, then `simc` on PATH. A binary that is
 * named but missing is an error naming where it was named, never a silent fall-through to the next source.
 */
import { promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import type { Channel } from '../resources/schemas.js';
import type { Config } from '../config/resolve.js';
import { ExitCode, LocalError } from '../../errors.js';
import { sha256Hex } from '../../util/sha256.js';
import { commandOnPath, isExecutableFile } from '../../util/on-path.js';
import { childProcess } from '../../util/child-process.js';

export interface SimcChoice {
  path: string;
  /** How it was found, for `builds --local` and messages: `--simc`, `SIMJOB_SIMC`, `simc.nightly`, `PATH`. */
  source: string;
}

export const NO_SIMC_HINT =
  'Pass --simc /path/to/simc, set SIMJOB_SIMC, or run `simjob config set simc.path /path/to/simc`. No simc yet? To try ' +
  'simjob, a checkout of it has a stand-in: --simc test/fake-simc/simc (its numbers are made up).';

/** A simc path as named by a flag, variable or setting: `~` is the home folder, relative paths from the cwd. */
export function simcPath(raw: string, env: NodeJS.ProcessEnv): string {
  return resolve(raw.replace(/^~(?=$|[\\/])/, env.HOME ?? '~'));
}

/** A simc a flag, variable or setting names: the path as given, where it was named, and the setting's key if one. */
interface NamedSimc {
  raw: string;
  /** `--simc`, `SIMJOB_SIMC`, `the setting simc.nightly` */
  source: string;
  setting?: string;
}

/**
 * What simc's environment keeps of simjob's: the system's basics and the names SIMJOB_SIMC_ENV lists
 * (comma-separated; `NAME_*` matches a prefix), never simjob's own variables: simc needs none of its secrets.
 */
export function simcEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const listed = (env.SIMJOB_SIMC_ENV ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const named = (name: string) => listed.some((l) => (l.endsWith('*') ? name.startsWith(l.slice(0, -1)) : name === l));
  const passes = (name: string) => !/^SIMJOB_/i.test(name) && (SYSTEM_ENV.test(name) || named(name));
  return Object.fromEntries(Object.entries(env).filter(([name]) => passes(name)));
}

const SYSTEM_ENV =
  /^(PATH|PATHEXT|HOME|USER|LOGNAME|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|TMP|TEMP|SYSTEMROOT|WINDIR|COMSPEC|USERPROFILE|APPDATA|LOCALAPPDATA)$/i;

async function checkNamed(named: NamedSimc, env: NodeJS.ProcessEnv): Promise<SimcChoice> {
  const { source } = named;
  const path = simcPath(named.raw, env);
  if (!isExecutableFile(path)) {
    let why = 'does not exist';
    try {
      const info = await fs.stat(path);
      why = info.isFile() ? 'is not executable' : 'is not a file';
    } catch {
      // does not exist
    }
    // exit 2 like any other missing or bad setting (a base URL, a flag value)
    throw new LocalError(`The simc named by ${source} (${path}) ${why}.`, fixOfNamed(named, path, why), ExitCode.USAGE);
  }
  return { path, source };
}

/** The fix for a named simc that cannot run: make it runnable, or name another where it was named. */
function fixOfNamed(named: NamedSimc, path: string, why: string): string {
  if (why === 'is not executable') return `Make it executable (chmod +x ${path}), or name another simc.`;
  if (named.setting)
    return `Run \`simjob config set ${named.setting} /path/to/simc\` or \`simjob config unset ${named.setting}\`.`;
  return named.source === 'SIMJOB_SIMC' ? 'Point SIMJOB_SIMC at the simc program, or unset it.' : 'Check the path.';
}

export async function findSimc(opts: {
  flag?: string;
  env: NodeJS.ProcessEnv;
  config: Pick<Config, 'stringSetting'>;
  channel: Channel;
}): Promise<SimcChoice> {
  if (opts.flag) return checkNamed({ raw: opts.flag, source: '--simc' }, opts.env);
  if (opts.env.SIMJOB_SIMC) return checkNamed({ raw: opts.env.SIMJOB_SIMC, source: 'SIMJOB_SIMC' }, opts.env);
  for (const setting of [`simc.${opts.channel}`, 'simc.path']) {
    const raw = opts.config.stringSetting(setting);
    if (raw) return checkNamed({ raw, source: `the setting ${setting}`, setting }, opts.env);
  }
  const onPath = commandOnPath('simc', opts.env);
  if (onPath) return { path: onPath, source: 'PATH' };
  throw new LocalError('No simc found for local mode.', NO_SIMC_HINT, ExitCode.USAGE);
}

type ConfiguredSimc = { channel: Channel | null; source: string; path: string };

/** Every configured binary, for `builds --local`: one entry per source that names one (duplicates kept, marked). */
export async function configuredSimcs(
  env: NodeJS.ProcessEnv,
  config: Pick<Config, 'stringSetting'>,
): Promise<ConfiguredSimc[]> {
  const found: ConfiguredSimc[] = [];
  if (env.SIMJOB_SIMC) found.push({ channel: null, source: 'SIMJOB_SIMC', path: simcPath(env.SIMJOB_SIMC, env) });
  for (const channel of ['nightly', 'weekly', 'latest'] as const) {
    const value = config.stringSetting(`simc.${channel}`);
    if (value) found.push({ channel, source: `simc.${channel}`, path: simcPath(value, env) });
  }
  const any = config.stringSetting('simc.path');
  if (any) found.push({ channel: null, source: 'simc.path', path: simcPath(any, env) });
  const onPath = commandOnPath('simc', env);
  if (onPath) found.push({ channel: null, source: 'PATH', path: onPath });
  return found;
}

// -- the version line ---------------------------------------------------------------------------------------------

export interface SimcVersion {
  line: string;
  simcVersion: string | null;
  wowVersion: string | null;
  gitBranch: string | null;
  commit: string | null;
}

/** `SimulationCraft 1201-01 for World of Warcraft 12.0.1.66263 Live (wow build 66263, git build midnight 066febf)` */
export function parseVersionLine(line: string): SimcVersion | undefined {
  const m = /^SimulationCraft (\S+) for World of Warcraft (\S+)/.exec(line.trim());
  const git = m ? /git build (\S+) ([0-9a-fA-F]+)\)?/.exec(line) : null;
  if (!m) return undefined;
  return {
    line: line.trim(),
    simcVersion: m[1] ?? null,
    wowVersion: m[2] ?? null,
    gitBranch: git?.[1] ?? null,
    commit: git?.[2] ?? null,
  };
}

/** A stable build id (UUID-shaped, like the service's) for one binary at one version. */
export function localBuildId(path: string, versionLine: string | null): string {
  const h = sha256Hex(`${path}\0${versionLine ?? ''}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Run simc with no arguments (it prints its version line and usage) and read the version line, in a run's env. */
export async function probeSimc(path: string, env: NodeJS.ProcessEnv): Promise<SimcVersion | { error: string }> {
  // node:child_process, as every other process simjob starts (util/child-process.ts): execa did only this one.
  const { stdout, spawnError } = await new Promise<{ stdout: string; spawnError?: string }>((resolve) => {
    let out = '';
    const child = childProcess().spawn(path, [], {
      env: simcEnv(env),
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: PROBE_TIMEOUT_MS,
      windowsHide: true,
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (out.length < PROBE_MAX_CHARS) out += chunk;
      else child.kill(); // the version line is the first; a program that prints on and on is not simc
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ stdout: out, spawnError: error.code ? `${error.code}: it could not be started` : error.message }),
    );
    child.once('close', () => resolve({ stdout: out }));
  });
  // Some builds print "Nothing to sim! <version line>" when given nothing.
  for (const line of stdout.split(/\r?\n/)) {
    const at = line.indexOf('SimulationCraft ');
    const parsed = at >= 0 ? parseVersionLine(line.slice(at)) : undefined;
    if (parsed) return parsed;
  }
  if (spawnError) return { error: spawnError };
  return { error: 'it printed no "SimulationCraft <version> for World of Warcraft …" line' };
}

const PROBE_TIMEOUT_MS = 15_000;
const PROBE_MAX_CHARS = 1024 * 1024;

// -- one run ------------------------------------------------------------------------------------------------------

export interface SimcRunSpec {
  simcPath: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdoutFile: string;
  stderrFile: string;
  /** The stdout lines that arrived since the last call, in order (progress lines, the version line). */
  onStdoutLines: (lines: readonly string[]) => void;
  onSpawn: (pid: number) => void;
  /** Aborting stops simc: SIGTERM, then SIGKILL. */
  stop: AbortSignal;
}

export interface SimcExit {
  /** exitCode and signal both null: simc ended while no simjob process was its parent (adopt.ts), status unknown. */
  exitCode: number | null;
  signal: string | null;
  /** simc could not be started at all (missing, not executable). */
  spawnError: string | null;
  durationMs: number;
}

/** simc's fatal error on stderr (`Error: …`, or `ERROR! …` from older builds), without that prefix. */
export function findErrorLine(stderr: string): string | undefined {
  const match = /^(?:Error: |ERROR! )(.*)$/m.exec(stderr);
  return match?.[1]?.trim() || undefined;
}

/** The crash line of simc's signal handler, e.g. `sim_signal_handler: Segmentation fault! …`. */
export function findCrashLine(stderr: string): string | undefined {
  const match = /^sim_signal_handler: .*$/m.exec(stderr);
  return match?.[0].trim();
}
