/**
 * The pseudo-terminal library of the TTY tests: @lydell/node-pty, node-pty's code with prebuilt binaries in
 * per-platform npm packages (linux, macOS, Windows; x64 and arm64), so `npm ci` needs no C++ compiler and downloads
 * nothing from outside the registry. Where no prebuilt binary loads (another platform, `--omit=optional`, musl),
 * the TTY tests skip and say why; with CI set they fail instead, since CI installs it.
 */
import { createRequire } from 'node:module';
import { noteSkipped } from './skip-note.js';

type PtyModule = typeof import('@lydell/node-pty');

function load(): { pty?: PtyModule; missing?: string } {
  try {
    return { pty: createRequire(import.meta.url)('@lydell/node-pty') as PtyModule };
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return { missing: first };
  }
}

const loaded = load();
export const pty = loaded.pty;

/** True when the TTY tests of `what` must skip: it also prints the skip note (never under CI, where they fail). */
export function ptySkips(what: string): boolean {
  if (pty || process.env.CI) return false;
  noteSkipped(
    what,
    `no pseudo-terminal library loads (${loaded.missing}); npm ci installs @lydell/node-pty's prebuilt binary on linux, macOS and Windows`,
  );
  return true;
}
