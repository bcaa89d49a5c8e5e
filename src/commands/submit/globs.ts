/**
 * Profile arguments: globs the shell did not expand (quoted, or a shell without globbing) are expanded here. Node 20
 * has no fs.glob, so this is a small sh-like matcher.
 */
// fs.promises read where used: a top-level node:fs/promises import would load it (and readline) with the submit
// command's code, though most submits name plain files.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../errors.js';

/** `*`, `?` or `[`: the argument is a pattern to expand (unless a file of that name exists). */
export const GLOB_CHARS = /[*?[]/;
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
        const re = segmentRegex(segment);
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

function segmentRegex(segment: string): RegExp {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i]!;
    if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else re += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await fs.stat(join(path))).isFile();
  } catch {
    return false;
  }
}
