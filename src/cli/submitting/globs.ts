/**
 * Profile arguments: globs the shell did not expand (quoted, or a shell without globbing) are expanded here. Node 20
 * has no fs.glob, so the folders are walked here, one path segment at a time; each segment's pattern is matched by
 * picomatch (hidden entries only by a segment that starts with a dot, as in sh: checked before it).
 */
// fs.promises read where used: a top-level node:fs/promises import would load it (and readline) with the submit
// command's code, though most submits name plain files.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';

/** `*`, `?` or `[`: the argument is a pattern to expand (unless a file of that name exists). */
const GLOB_CHARS = /[*?[]/;
export const hasGlob = (arg: string): boolean => arg !== '-' && GLOB_CHARS.test(arg);

/**
 * Expand `*`, `?`, `[abc]` and `**` in profile arguments, sorted, files only; hidden entries match only a pattern
 * that starts with a dot (as in sh). A literal file whose name holds those characters is taken as it is. A pattern
 * that matches nothing is an error, not silently nothing. `expanded`: some argument was a pattern (so the command
 * names a batch, however many files it matched).
 */
export async function expandProfileArgs(args: readonly string[]): Promise<{ paths: string[]; expanded: boolean }> {
  const paths: string[] = [];
  let expanded = false;
  for (const arg of args) {
    if (!hasGlob(arg) || (await isFile(arg))) {
      paths.push(arg);
      continue;
    }
    const matches = await expandGlob(arg);
    if (matches.length === 0) {
      throw new UsageError(`No profile matches ${arg}.`, 'Check the pattern and the folder it is relative to.');
    }
    for (const match of matches) paths.push(match);
    expanded = true;
  }
  return { paths, expanded };
}

async function expandGlob(pattern: string): Promise<string[]> {
  // Loaded here, not with hasGlob: submit imports that, and most submits name plain files.
  const { default: picomatch } = await import('picomatch');
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((s) => s !== '');
  let current: string[] = [absolute ? '/' : ''];
  for (const segment of segments) {
    const nextPaths: string[] = [];
    for (const base of current) {
      if (segment === '**') {
        nextPaths.push(base, ...(await descendants(base)));
      } else if (!GLOB_CHARS.test(segment)) {
        nextPaths.push(joinPath(base, segment));
      } else {
        const re = segmentRegex(picomatch, segment);
        for (const name of await names(base)) {
          if (name.startsWith('.') && !segment.startsWith('.')) continue;
          if (re.test(name)) nextPaths.push(joinPath(base, name));
        }
      }
    }
    current = [...new Set(nextPaths)];
  }
  const files: string[] = [];
  for (const path of current) if (path && (await isFile(path))) files.push(path);
  return files.sort();
}

function joinPath(base: string, name: string): string {
  return base === '' ? name : base === '/' ? `/${name}` : `${base}/${name}`;
}

async function names(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir === '' ? '.' : dir)).sort();
  } catch {
    return [];
  }
}

async function descendants(dir: string): Promise<string[]> {
  const found: string[] = [];
  let entries;
  try {
    entries = await fs.readdir(dir === '' ? '.' : dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const e of entries) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    const path = joinPath(dir, e.name);
    found.push(path, ...(await descendants(path)));
  }
  return found;
}

/** One path segment's pattern (`*`, `?`, `[abc]`, `[!abc]`), matched by picomatch as sh would match it. */
function segmentRegex(picomatch: typeof import('picomatch'), segment: string): { test(name: string): boolean } {
  // sh writes a negated class [!a]; picomatch reads that as a class holding "!", and wants [^a].
  const pattern = segment.replace(/\[!/g, '[^');
  return { test: picomatch(pattern, { dot: true, nobrace: true, noextglob: true }) };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await fs.stat(join(path))).isFile();
  } catch {
    return false;
  }
}
