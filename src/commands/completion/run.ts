import type { Shell } from '../../completions/index.js';
import { simjobCompletion } from '../../completions/simjob.js';
import type { Context } from '../../context.js';

/**
 * `simjob completion <shell>`: the script on stdout, ready to redirect into the shell's completion folder. The
 * `output` setting is ignored on purpose (`simjob completion bash > file` must write a script); an explicit --json
 * wraps it in one JSON document.
 */
export async function run(ctx: Context, [shell]: string[]): Promise<void> {
  const script = simjobCompletion(shell as Shell);
  if (ctx.flags.json) return ctx.out.printJson({ shell, script });
  ctx.out.stdout.write(script);
}
