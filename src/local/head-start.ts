/**
 * The head start of `simjob submit PROFILE --local --wait`: simc is started before the CLI has loaded, so the CLI's
 * own start-up (loading, parsing flags, reading and analysing the profile, writing the job) runs alongside simc
 * instead of before it. It is what brings local mode's cost on top of simc down to about one Node start-up.
 *
 * Nothing is decided here. bin/simjob.js calls startHeadStart (dist/head-start.js, loaded without the CLI) for a
 * plain command line: one profile file and only flags that leave the run as it is. It reads the profile, finds
 * simc as findSimc would, picks the job's id and starts simc detached (detached.ts) in that job's folder, which has
 * no record yet (readers skip such a folder; only this process knows the id). The submit then makes the job as
 * always and uses the run only if it is exactly the run the job would start (LocalBackend.submit: same simc,
 * arguments and profile text, one pass, no credentials file, room in the queue): the record is written into the
 * folder, already claimed, and the inline runner follows the run instead of starting one. In every other case (a
 * bad flag, a refused profile, a busy queue) the run is stopped and its folder removed before the command ends.
 * The folder is never moved while simc runs: a program may keep its working directory's path.
 *
 * <data dir>/early/<id> says who made the head start (`<CLI pid> <simc's process group>`) until a job takes it, so
 * the next head start can stop and remove the run of a CLI that was killed in between. The marker, the folder and
 * its first files come from a folder made ahead (spare-folder.ts) when the last head start here left one.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir, dataDir, SETTINGS_FILE } from '../config/paths.js';
import { getPath, profileOf, type ProfileData } from '../config/profiles.js';
import { groupAlive, spawnDetached, type DetachedRun } from './detached.js';
import { isWellFormedLocalId, newLocalJobId } from './ids.js';
import { SINGLE_PASS_FILES, simcArgs } from './pass-files.js';
import { errnoCode } from '../util/errno.js';
import { namesIn } from '../util/names-in.js';
import { isAlive } from './pids.js';
import { isExecutableFile, namedSimc, simcOnPath, simcPath } from './simc-path.js';
import { moveSpareFolder, returnSpareFolder, takeSpareFolder } from './spare-folder.js';

export interface HeadStart {
  readonly id: string;
  /** The data dir it was made for: only a store there may take it. */
  readonly dataDir: string;
  /** The job's folder, where simc runs. */
  readonly dir: string;
  /** <data dir>/early/<id>: who made it, until a job takes it. */
  readonly marker: string;
  readonly simcPath: string;
  readonly args: readonly string[];
  /** The profile as simc got it (input.simc). */
  readonly text: string;
  readonly run: DetachedRun;
  /** When simc was started: the job's creation and start. */
  readonly createdAt: Date;
  /** The data dir had run a head start before this one: worth a folder made ahead for the next (spare-folder.ts). */
  readonly usedBefore: boolean;
  /** `taken`: a job made the run its own, and its runner answers for it from then on; `dropped`: stopped, removed. */
  readonly state: 'waiting' | 'taken' | 'dropped';
  /** Leave `waiting` (a method: the CLI's copy of this module and the shim's share the object, not the module). */
  settle(state: 'taken' | 'dropped'): void;
  /** Stop the run if no job took it, and remove its folder; waits until its simc is gone. */
  drop(): Promise<void>;
}

/** Markers of head starts no job has taken yet: <data dir>/early/<id>. */
export const EARLY_DIR = 'early';

/** The files of a head start's run: a single pass with the default outputs (the only run a plain line makes). */
const HEAD_START_FILES = SINGLE_PASS_FILES({ outputs: { html: false, csv: false, jsonVersion: '2' } });
/** What a folder made ahead for the next head start holds (spare-folder.ts): the files its simc starts with. */
export const SPARE_FOLDER_FILES = [HEAD_START_FILES.input, HEAD_START_FILES.stdout, HEAD_START_FILES.stderr];

/** Flags that leave the run as it is (the submit checks them all again). */
const SWITCHES = new Set(['--local', '--wait', '-w', '--json', '--quiet', '-q', '--no-color', '--debug', '-d', '--csv', '--cancel-on-interrupt']);
const WITH_VALUE = new Set(['--simc', '--timeout', '--top', '--channel', '-c', '--priority', '--meta', '--max-runtime', '--max-queue']);

/** The profile path and the flags of a plain `submit FILE --local --wait …`, or undefined for any other line. */
export function plainLocalWait(argv: readonly string[]): { profile: string; values: Map<string, string> } | undefined {
  if (argv[0] !== 'submit') return undefined;
  const values = new Map<string, string>();
  const seen = new Set<string>();
  let profile: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (SWITCHES.has(name) && eq < 0) seen.add(name);
    else if (WITH_VALUE.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) return undefined;
      values.set(name === '-c' ? '--channel' : name, value);
    } else if (arg.startsWith('-') || profile !== undefined || /[*?[]/.test(arg)) return undefined;
    else profile = arg;
  }
  if (!profile || !seen.has('--local') || !(seen.has('--wait') || seen.has('-w'))) return undefined;
  return { profile, values };
}

/** The settings of the profile in use (never a -p flag: such a line is not plain); a broken file throws. */
function profileSettings(env: NodeJS.ProcessEnv): ProfileData {
  let text: string;
  try {
    text = readFileSync(join(configDir(env), SETTINGS_FILE), 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return {};
    throw error;
  }
  return profileOf(JSON.parse(text) ?? {}, env.SIMJOB_PROFILE || 'default');
}

/** simc as findSimc (simc.ts) picks it, or undefined when none is found or the one named is not a program. */
function chooseSimc(flag: string | undefined, channelFlag: string | undefined, env: NodeJS.ProcessEnv, settings: ProfileData): string | undefined {
  const setting = (key: string) => {
    const value = getPath(settings, key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const named = namedSimc({ flag, env, setting, channel: channelFlag ?? setting('channel') ?? 'latest' });
  if (!named) return simcOnPath(env);
  const path = simcPath(named.raw, env);
  return isExecutableFile(path) ? path : undefined;
}

const localIds = (dir: string) => namesIn(dir).filter((name) => isWellFormedLocalId(name.replace(/^\d-/, '')));

/**
 * Stop a run and remove its folder and marker (synchronous: also run at exit). A run that a job took (its record
 * is written) is left alone: the job's runner, or the worker that adopts it, answers for it.
 */
function removeRun(dir: string, marker: string, group: number | undefined): void {
  if (!existsSync(join(dir, 'job.json'))) {
    if (group !== undefined && groupAlive(group)) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
  rmSync(marker, { force: true });
}

/** A marker's content: `<CLI pid>\n`, then `<CLI pid> <simc's process group>\n` once simc runs (MARKER reads it). */
const markerText = (group?: number) => `${process.pid}${group === undefined ? '' : ` ${group}`}\n`;
const MARKER = /^(\d+)(?: (\d+))?\n$/;
/** A marker that stays unreadable this long was left by a CLI killed while writing it. */
const MARKER_WRITE_GRACE_MS = 10_000;

/** Head starts whose CLI is gone (killed before its submit took or dropped the run). */
function removeOrphans(root: string): void {
  const earlyDir = join(root, EARLY_DIR);
  for (const id of namesIn(earlyDir).filter((name) => isWellFormedLocalId(name))) {
    const marker = join(earlyDir, id);
    try {
      const match = MARKER.exec(readFileSync(marker, 'utf8'));
      if (match) {
        if (!isAlive(Number(match[1]))) removeRun(join(root, 'jobs', id), marker, match[2] === undefined ? undefined : Number(match[2]));
      } else if (Date.now() - statSync(marker).mtimeMs > MARKER_WRITE_GRACE_MS) {
        removeRun(join(root, 'jobs', id), marker, undefined);
      }
      // else its CLI is writing it (a write truncates the file first): never read as a dead CLI's
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Start simc for a plain `submit FILE --local --wait` command line, or return undefined (and do nothing) when the
 * line is not plain, no simc is found, the profile cannot be read, or the queue is not free. Never throws: the
 * submit finds and reports whatever is wrong itself.
 */
export function startHeadStart(argv: readonly string[], env: NodeJS.ProcessEnv): HeadStart | undefined {
  try {
    return start(argv, env);
  } catch {
    return undefined;
  }
}

function start(argv: readonly string[], env: NodeJS.ProcessEnv): HeadStart | undefined {
  if (process.platform === 'win32') return undefined; // a detached run needs sessions and process groups
  const line = plainLocalWait(argv);
  // Provider credentials go to a file simc must find at its start: left to the submit.
  if (!line || env.SIMJOB_PROVIDER_CLIENT_ID || env.SIMJOB_PROVIDER_CLIENT_SECRET) return undefined;
  const settings = profileSettings(env);
  const simcPath = chooseSimc(line.values.get('--simc'), line.values.get('--channel'), env, settings);
  if (!simcPath) return undefined;

  const root = dataDir(env);
  const concurrency = Number(getPath(settings, 'local.concurrency') ?? 1);
  const running = localIds(join(root, 'running')).length;
  if (localIds(join(root, 'queue')).length > 0 || running >= concurrency) return undefined;

  const bytes = readFileSync(line.profile);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  if (text.trim() === '' || bytes.length > 2 * 1024 * 1024) return undefined;

  removeOrphans(root);
  const id = newLocalJobId();
  const dir = join(root, 'jobs', id);
  const marker = join(root, EARLY_DIR, id);
  const usedBefore = mkdirSync(join(root, EARLY_DIR), { recursive: true }) === undefined; // undefined: it was there
  // A folder made ahead (spare-folder.ts) brings its marker and files: then this creates no file before simc starts.
  const spare = takeSpareFolder(root, marker);
  writeFileSync(marker, markerText()); // first: a folder is never left without its marker
  // Submits fired together (a script, a build farm) all find the queue free: only as many go ahead as there is
  // room for, the earliest ids first, and the others leave their job to the queue instead of starting a simc that
  // their submit would stop again.
  if (running + localIds(join(root, EARLY_DIR)).filter((other) => other < id).length >= concurrency) {
    if (spare) returnSpareFolder(spare, marker);
    else rmSync(marker, { force: true });
    return undefined;
  }
  const files = HEAD_START_FILES;
  const args = simcArgs(files);
  let run: ReturnType<typeof spawnDetached> | undefined;
  try {
    if (!spare || !moveSpareFolder(spare, dir)) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, files.input), text);
    run = spawnDetached({ simcPath, args, cwd: dir, env, stdoutFile: join(dir, files.stdout), stderrFile: join(dir, files.stderr) });
    if ('spawnError' in run) throw new Error(run.spawnError);
    writeFileSync(marker, markerText(run.pid));
  } catch (error) {
    removeRun(dir, marker, run && 'pid' in run ? run.pid : undefined);
    throw error;
  }
  // However this process ends while the run waits (an error, process.exit, a signal before the CLI has a handler
  // of its own), the run goes with it. A signal the CLI handles is left to it: the command's end drops the run.
  const onExit = () => removeRun(dir, marker, run.pid);
  const onSignal = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    settle('dropped');
    removeRun(dir, marker, run.pid);
    process.kill(process.pid, signal); // what the signal would have done without a handler
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  let state: HeadStart['state'] = 'waiting';
  function settle(next: 'taken' | 'dropped') {
    state = next;
    process.off('exit', onExit);
    for (const signal of signals) process.off(signal, onSignal);
  }
  process.once('exit', onExit);
  for (const signal of signals) process.on(signal, onSignal);
  return {
    id, dataDir: root, dir, marker, simcPath, args, text, run, createdAt: new Date(), usedBefore,
    get state() {
      return state;
    },
    settle,
    async drop() {
      if (state !== 'waiting') return;
      settle('dropped');
      await stopRun(run);
      removeRun(dir, marker, undefined);
    },
  };
}

/** SIGKILL a run's process group and wait until it is gone (so nothing writes in its folder afterwards). */
export async function stopRun(run: DetachedRun): Promise<void> {
  try {
    process.kill(-run.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  run.keepAlive();
  await run.exit;
  // anything simc started in its group: gone a moment later (a second at most, in case nobody reaps it)
  for (let i = 0; i < 100 && groupAlive(run.pid); i++) await new Promise((done) => setTimeout(done, 10));
}
