import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where settings and credentials live: SIMJOB_CONFIG_DIR, else the platform's config dir (as gh and Stripe do). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SIMJOB_CONFIG_DIR) return env.SIMJOB_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'simjob');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'simjob');
}

/** Where local jobs live: SIMJOB_DATA_DIR, else the platform's data dir. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SIMJOB_DATA_DIR) return env.SIMJOB_DATA_DIR;
  if (process.platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'simjob');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'simjob');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'simjob');
}

/** Where fetched files are kept (a --catalog URL): SIMJOB_CACHE_DIR, else the platform's cache dir. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SIMJOB_CACHE_DIR) return env.SIMJOB_CACHE_DIR;
  if (process.platform === 'win32')
    return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'simjob', 'Cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'simjob');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'simjob');
}

export const SETTINGS_FILE = 'config.json';
export const CREDENTIALS_FILE = 'credentials.json';
