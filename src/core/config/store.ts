/**
 * Two files in the config dir, both `{ "profiles": { "<name>": { ... } } }`:
 * - config.json: settings (base_url, channel, ...), safe to show;
 * - credentials.json: API keys, mode 0600, never printed.
 * Reads are plain JSON.parse (cheap: every command reads them); writes are atomic (a temp file renamed over it).
 */
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { CAPS, readRegularFile, TooLargeError } from '../../util/read-file.js';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';
import { errnoCode } from '../../util/errno.js';
import { randomHex } from '../../util/random.js';
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // reported below
  }
  if (!isObject(parsed))
    throw new UsageError(`${path} is not valid JSON.`, 'Fix or delete the file, then run the command again.');
  // Its shape, checked by hand rather than by a zod schema: every command reads this file, and loading zod would
  // cost each of them (docs/performance.md, "Kept by hand"). Each setting is checked where it is read (keys.ts).
  const { profiles } = parsed;
  const wrong =
    profiles !== undefined && !isObject(profiles)
      ? '"profiles" is not an object'
      : Object.entries((profiles ?? {}) as object)
          .filter(([, entry]) => !isObject(entry))
          .map(([name]) => `profile "${name}" is not an object`)[0];
  if (wrong)
    throw new UsageError(
      `${path} is not a simjob config file: ${wrong}.`,
      'Fix or delete the file, then run the command again.',
    );
  return parsed as StoreFile;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

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

/**
 * A store file to change: each set or delete reads the file, changes one dotted key and writes it whole to a temp
 * file renamed over it (never half written), in the file's mode (0600 for credentials). conf did this before; its
 * reads were never used (every command reads with readStoreFile), so it carried ajv and five more packages for it.
 */
async function openStore(dir: string, file: string, secret: boolean): Promise<Writable> {
  writing(dir, () => mkdirSync(dir, { recursive: true, mode: 0o700 }));
  const path = join(dir, file);
  const change = (key: string, create: boolean, edit: (node: Record<string, unknown>, last: string) => void) =>
    writing(path, () => {
      const data = readStoreFile(path) as Record<string, unknown>;
      const parts = key.split('.');
      let node = data;
      for (const part of parts.slice(0, -1)) {
        const next = Object.hasOwn(node, part) ? node[part] : undefined;
        if (!next || typeof next !== 'object' || Array.isArray(next)) {
          if (!create) return; // nothing there to delete
          ownSet(node, part, {});
        }
        node = node[part] as Record<string, unknown>;
      }
      edit(node, parts[parts.length - 1]!);
      const tmp = `${path}.${process.pid}.${randomHex(8)}.tmp`;
      try {
        // As conf wrote them: tab-indented, no newline at the end.
        writeFileSync(tmp, JSON.stringify(data, undefined, '\t'), { mode: secret ? 0o600 : 0o644 });
        if (secret) chmodSync(tmp, 0o600); // whatever the umask
        renameSync(tmp, path);
      } catch (error) {
        rmSync(tmp, { force: true });
        throw error;
      }
    });
  return {
    path,
    set: (key, value) => change(key, true, (node, last) => ownSet(node, last, value)),
    delete: (key) => change(key, false, (node, last) => void (Object.hasOwn(node, last) && delete node[last])),
  };
}

/** An own property, even one named `__proto__` (a profile may be called that): never the object's prototype. */
function ownSet(node: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
}

export function openSettings(dir: string): Promise<Writable> {
  return openStore(dir, SETTINGS_FILE, false);
}

export function openCredentials(dir: string): Promise<Writable> {
  return openStore(dir, CREDENTIALS_FILE, true);
}
