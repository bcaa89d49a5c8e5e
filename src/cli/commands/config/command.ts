/** `simjob config` and its subcommands: their arguments and help (the handlers are get.ts, set.ts, … beside it). */
import { Argument, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { SETTING_KEYS } from '../../../core/config/keys.js';
import { suggest } from '../../completions/hints.js';
import { examples } from '../define.js';

export const defineConfig = (parent: AnyCommand) =>
  examples(parent.command('config').description('Read and change settings (base_url, channel, output, …).'), [
    'simjob config list',
    'simjob config set base_url https://api.example.com',
    'simjob config get channel --profile ci',
  ]);

const settingNames = () => SETTING_KEYS.map((k) => k.name);

export const defineConfigGet = (config: AnyCommand) =>
  examples(
    config
      .command('get')
      .addArgument(suggest(new Argument('<key>'), settingNames()))
      .description('Print one setting of the active profile.'),
    ['simjob config get base_url', 'simjob config get channel --profile ci'],
  );

export const defineConfigSet = (config: AnyCommand) =>
  examples(
    config
      .command('set')
      .addArgument(suggest(new Argument('<key>'), settingNames()))
      .argument('<value>')
      .description('Change one setting of the active profile.'),
    ['simjob config set base_url https://api.example.com', 'simjob config set channel nightly --profile ci'],
  );

export const defineConfigUnset = (config: AnyCommand) =>
  examples(
    config
      .command('unset')
      .addArgument(suggest(new Argument('<key>'), settingNames()))
      .description('Remove one setting of the active profile.'),
    ['simjob config unset channel', 'simjob config unset simc.path --profile ci'],
  );

export const defineConfigList = (config: AnyCommand) =>
  examples(config.command('list').description('Show the effective settings and where each comes from.'), [
    'simjob config list',
    'simjob config list --profile ci --json | jq -r \'.settings[] | "\\(.key)=\\(.value)"\'',
  ]);
