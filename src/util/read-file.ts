import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';

/**
 * Read a file the user named (a profile, an export), or fail with one line that says why: `noun` names what it is
 * ("Profile", "Export"); `fixes` are the hints for a missing file and for a folder. Synchronous: node:fs/promises
 * (with the readline it loads) costs more to load than a sync read of a file of a few kB takes.
 */
export async function readUserFile(
  path: string,
  noun: string,
  fixes: { missing: string; folder?: string },
): Promise<Buffer> {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${noun} ${path} does not exist.`, fixes.missing);
    if (code === 'EISDIR') throw new UsageError(`${noun} ${path} is a folder, not a file.`, fixes.folder);
    throw new UsageError(`Cannot read ${noun.toLowerCase()} ${path}: ${(error as Error).message}.`);
  }
}
