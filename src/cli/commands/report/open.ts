import { spawn } from 'node:child_process';
import { isAbsolute } from 'node:path';
import { commandOnPath, isExecutableFile } from '../../../util/on-path.js';

/** How the page would be opened here: a command and its arguments, or why there is no browser. */
export type Opener = { command: string; args: string[] } | { none: string };

/**
 * The default browser of this machine: $BROWSER when set (as xdg-utils and Python honour it), `open` on macOS,
 * `start` on Windows, `xdg-open` on Linux and the BSDs when there is a display to open a window on.
 */
export function browserFor(path: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Opener {
  if (env.BROWSER) {
    const [command, ...args] = env.BROWSER.split(/\s+/).filter(Boolean);
    if (command && onPath(command, env)) return { command, args: [...args, path] };
    return { none: `$BROWSER (${env.BROWSER}) is not a command here` };
  }
  if (platform === 'darwin') return { command: 'open', args: [path] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', `"${path}"`] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY)
    return { none: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  if (!onPath('xdg-open', env)) return { none: 'xdg-open is not installed' };
  return { command: 'xdg-open', args: [path] };
}

/** Start the browser detached, so simjob exits at once and the browser outlives it; a failure to start is ignored. */
export function launch(opener: { command: string; args: string[] }): void {
  try {
    const child = spawn(opener.command, opener.args, {
      detached: true,
      stdio: 'ignore',
      windowsHide: true,
      windowsVerbatimArguments: opener.command === 'cmd',
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // never fail the command over a browser
  }
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return isAbsolute(command) || command.includes('/')
    ? isExecutableFile(command)
    : commandOnPath(command, env) !== undefined;
}
