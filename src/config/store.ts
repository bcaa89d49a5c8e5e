/**
 * Two files in the config dir, both `{ "profiles": { "<name>": { ... } } }`:
 * - config.json: settings (base_url, channel, ...), safe to show;
 * - credentials.json: API keys, mode 0600, never printed.
 * Reads are plain JSON.parse (cheap: every command reads them); writes go through conf, which writes atomically.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { CAPS, readRegularFile, TooLargeError } from '../util/read-file.js';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { errnoCode } from '../util/errno.js';
import { CREDENTIALS_FILE, SETTINGS_FILE } from './paths.js';
import { profileOf, type ProfileData, type StoreFile } from './profiles.js';

export { getPath, type ProfileData } from './profiles.js';

const PROFILE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `Profile name "${name}" is not valid.`,
      'Use letters, digits, "-" and "_" (up to 64), e.g. --profile work.',
    );
  }
  return name;
}

function readStoreFile(path: string): StoreFile {
  let text: string;
  try {
    text = readRegularFile(path, CAPS.config.bytes).toString('utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return {};
    if (error instanceof TooLargeError) {
      throw new UsageError(`${path} is over 1 MB: ${CAPS.config.why}.`, 'Fix or delete the file.');
    }
    throw new UsageError(`Cannot read ${path}: ${(error as Error).message}.`, 'Check the file and its permissions.');
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as StoreFile;
  } catch {
    // reported below
  }
  throw new UsageError(`${path} is not valid JSON.`, 'Fix or delete the file, then run the command again.');
}

export function readProfileSettings(dir: string, profile: string): ProfileData {
  return profileOf(readStoreFile(join(dir, SETTINGS_FILE)), profile);
}

export function readProfileCredentials(dir: string, profile: string): ProfileData {
  return profileOf(readStoreFile(join(dir, CREDENTIALS_FILE)), profile);
}

interface Writable {
  set(key: string, value: unknown): void;
  delete(key: string): void;
  path: string;
}

/** A config folder or file the system will not let simjob write is the user's to fix (exit 2), not a bug. */
function writing<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const code = errnoCode(error);
    if (!code) throw error;
    throw new UsageError(
      `Cannot write the config at ${path} (${code}).`,
      'Point SIMJOB_CONFIG_DIR at a folder you can write to, or unset it.',
    );
  }
}

async function openStore(dir: string, file: string, secret: boolean): Promise<Writable> {
  writing(dir, () => mkdirSync(dir, { recursive: true, mode: 0o700 }));
  const { default: Conf } = await import('conf');
  const store = writing(
    join(dir, file),
    () =>
      new Conf<StoreFile>({
        cwd: dir,
        configName: file.replace(/\.json$/, ''),
        projectSuffix: '',
        configFileMode: secret ? 0o600 : 0o644,
        clearInvalidConfig: false,
      }),
  );
  return {
    path: store.path,
    set(key, value) {
      writing(store.path, () => {
        store.set(key, value);
        // conf applies the mode only when it creates the file; re-apply it on every write, as wrangler does.
        if (secret) chmodSync(store.path, 0o600);
      });
    },
    delete(key) {
      writing(store.path, () => {
        store.delete(key as never);
        if (secret) chmodSync(store.path, 0o600);
      });
    },
  };
}

export function openSettings(dir: string): Promise<Writable> {
  return openStore(dir, SETTINGS_FILE, false);
}

export function openCredentials(dir: string): Promise<Writable> {
  return openStore(dir, CREDENTIALS_FILE, true);
}
