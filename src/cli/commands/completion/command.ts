/** `simjob completion`: its argument and help (the handler is run.ts, wired lazily in program.ts). */
import { Argument, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { oneOf } from '../../../util/parse.js';
import { examples } from '../define.js';

export const defineCompletion = (parent: AnyCommand) =>
  examples(
    parent
      .command('completion')
      .addArgument(
        new Argument('<shell>', 'bash, zsh or fish.')
          .choices(['bash', 'zsh', 'fish'])
          .argParser(oneOf('shell', ['bash', 'zsh', 'fish'] as const)),
      )
      .description('Print the shell completion script for bash, zsh or fish.')
      .addHelpText(
        'after',
        [
          '',
          "Install (or use the same files from the package's completions/ folder):",
          '  bash  simjob completion bash > ~/.local/share/bash-completion/completions/simjob',
          '  zsh   simjob completion zsh > "${fpath[1]}/_simjob"        (a folder on $fpath; needs compinit)',
          '  fish  simjob completion fish > ~/.config/fish/completions/simjob.fish',
          'The scripts are static: pressing Tab never starts Node. Regenerate them after upgrading simjob.',
        ].join('\n'),
      ),
    [
      'simjob completion bash > ~/.local/share/bash-completion/completions/simjob',
      "echo 'source <(simjob completion zsh)' >> ~/.zshrc",
      'simjob completion fish > ~/.config/fish/completions/simjob.fish',
    ],
  );
