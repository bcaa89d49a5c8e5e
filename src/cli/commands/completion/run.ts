import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { completionScript, type Shell } from '../../completions/index.js';
import { simjobCompletionOptions } from '../../completions/options.js';
import type { Context } from '../../context.js';

/**
 * `simjob completion <shell>`: the script on stdout, ready to redirect into the shell's completion folder. The
 * `output` setting is ignored on purpose (`simjob completion bash > file` must write a script); an explicit --json
 * wraps it in one JSON document. The script is made from the very command tree that parsed this command line.
 */
export async function run(ctx: Context, [shell]: string[], _options: unknown, command: Command): Promise<void> {
  let root = command;
  while (root.parent) root = root.parent;
  const script = completionScript(shell as Shell, root, simjobCompletionOptions());
  if (ctx.flags.json) return ctx.out.printJson({ shell, script });
  ctx.out.stdout.write(script);
}
