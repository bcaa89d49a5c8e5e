import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { renderBash } from './bash.js';
import { renderFish } from './fish.js';
import { commandModel, type ModelOptions } from './model.js';
import { renderZsh } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Where each script lives in the repository and the package (what `npm run completions` writes). */
export const COMPLETION_FILES: Record<Shell, string> = {
  bash: 'completions/simjob.bash',
  zsh: 'completions/_simjob',
  fish: 'completions/simjob.fish',
};

/** The completion script for one shell, generated from the commander tree of program.ts. */
export function completionScript(shell: Shell, program: Command, opts: ModelOptions = {}): string {
  const model = commandModel(program, opts);
  const name = program.name();
  if (shell === 'bash') return renderBash(model, name);
  if (shell === 'zsh') return renderZsh(model, name);
  return renderFish(model, name);
}

/** The shells whose committed script differs from what the program generates now (the drift check). */
export function staleScripts(program: Command, committed: Record<Shell, string | undefined>, opts: ModelOptions = {}): Shell[] {
  return SHELLS.filter((shell) => committed[shell] !== completionScript(shell, program, opts));
}
