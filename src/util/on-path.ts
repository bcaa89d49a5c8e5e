/**
 * Finding a program: an executable file, and a command on PATH (with PATHEXT on Windows).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable file named `name` (or `name` + a PATHEXT extension on Windows) in PATH's folders. */
export function commandOnPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  const names =
    process.platform === 'win32'
      ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').map((ext) => `${name}${ext.toLowerCase()}`)
      : [name];
  for (const dir of dirs) {
    for (const candidate of names) {
      const path = join(isAbsolute(dir) ? dir : resolve(dir), candidate);
      if (isExecutableFile(path)) return path;
    }
  }
  return undefined;
}
