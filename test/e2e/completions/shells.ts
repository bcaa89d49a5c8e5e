import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Drive the real shells' completion machinery with a generated script and return what each would offer at the end
 * of a command line (the cursor is always at the end). Words are normalised: fish's "word<TAB>description" keeps
 * the word, `--opt=value` forms keep the value, directories lose their trailing "/", duplicates go.
 */

export type ShellName = 'bash' | 'zsh' | 'fish';

export function shellInstalled(shell: ShellName): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' }).status === 0;
}

export const BASH_COMPLETION_LIB = '/usr/share/bash-completion/bash_completion';

/** bash: COMP_WORDS/COMP_CWORD as readline would set them (with "=" split off, as COMP_WORDBREAKS does). */
export async function completeBash(scriptFile: string, lines: string[], opts: { cwd: string; home: string; library: boolean }): Promise<string[][]> {
  const calls = lines.map((line) => `comp ${bashWords(line).map(bashQuote).join(' ')}`);
  const program = [
    opts.library ? `source ${bashQuote(BASH_COMPLETION_LIB)}` : '',
    `source ${bashQuote(scriptFile)}`,
    'comp() {',
    '  COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()',
    '  _simjob simjob "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"',
    '  printf "%s\\n" "${COMPREPLY[@]}"; printf "<<END>>\\n"',
    '}',
    ...calls,
  ].join('\n');
  const result = await execa('bash', ['--norc', '--noprofile', '-c', program], { cwd: opts.cwd, env: { PATH: process.env.PATH, HOME: opts.home, LC_ALL: 'C' }, extendEnv: false });
  return split(result.stdout);
}

/** zsh: one interactive `zsh -f` per line on a pseudo-terminal (zpty), Tab pressed, compadd's matches captured. */
export async function completeZsh(completionDir: string, lines: string[], opts: { cwd: string; home: string; sourced?: boolean }): Promise<string[][]> {
  const harness = resolve(import.meta.dirname, 'zsh-capture.zsh');
  const results: string[][] = [];
  // Two at a time: each one is a shell on a pty running compinit.
  for (let i = 0; i < lines.length; i += 2) {
    const batch = lines.slice(i, i + 2).map(async (line) => {
      const result = await execa('zsh', ['-f', harness, completionDir, line, opts.sourced ? 'source' : 'fpath'], {
        cwd: opts.cwd,
        // TMPDIR: its init file goes in the run's temp folder, where a leak is seen (test/helpers/global-temp.ts).
        env: { PATH: process.env.PATH, HOME: opts.home, TERM: 'dumb', LC_ALL: 'C', TMPDIR: process.env.TMPDIR },
        extendEnv: false,
        timeout: 20_000,
      });
      return normalise(result.stdout.split('\n'));
    });
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

/** fish: `complete -C` on each line, in one fish process. */
export async function completeFish(scriptFile: string, lines: string[], opts: { cwd: string; home: string }): Promise<string[][]> {
  const program = [`source ${fishQuote(scriptFile)}`, ...lines.map((line) => `complete -C ${fishQuote(line)}; echo '<<END>>'`)].join('\n');
  const result = await execa('fish', ['--no-config', '-c', program], { cwd: opts.cwd, env: { PATH: process.env.PATH, HOME: opts.home, LC_ALL: 'C' }, extendEnv: false });
  return split(result.stdout);
}

function split(stdout: string): string[][] {
  const blocks = stdout.split(/<<END>>(?:\n|$)/);
  blocks.pop();
  return blocks.map((block) => normalise(block.split('\n')));
}

function normalise(lines: string[]): string[] {
  const words = lines
    .map((l) => l.split('\t')[0]!.trim())
    .filter(Boolean)
    .map((w) => w.replace(/^--[\w-]+=/, '').replace(/\/$/, ''));
  return [...new Set(words)].sort();
}

/** The words of a command line as bash's completion sees them: split on spaces, "=" a word of its own. */
export function bashWords(line: string): string[] {
  const words = line.split(' ');
  return words.flatMap((w) => {
    const m = /^(--[\w-]+)=(.*)$/.exec(w);
    // Right after "=", the word under the cursor is "=" itself.
    if (m) return m[2] ? [m[1]!, '=', m[2]] : [m[1]!, '='];
    return [w];
  }).filter((w, i, all) => w !== '' || i === all.length - 1);
}

function bashQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}
