/** `simjob login`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';

export const defineLogin = (parent: AnyCommand) =>
  examples(
    parent
      .command('login')
      .description('Store an API key for the active profile (read from a hidden prompt, or from stdin).')
      .option('--no-verify', 'Store the key without checking it against the service.'),
    [
      'simjob login',
      'simjob login --profile ci < key.txt',
      'printenv SIM_KEY | simjob login --base-url https://api.example.com',
    ],
  );
export type LoginOptions = OptionsOf<ReturnType<typeof defineLogin>>;

export const defineLogout = (parent: AnyCommand) =>
  examples(parent.command('logout').description('Remove the stored API key of the active profile.'), [
    'simjob logout',
    'simjob logout --profile ci',
  ]);
