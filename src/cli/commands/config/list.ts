import { SETTING_KEYS } from '../../../core/config/keys.js';
import type { Resolved } from '../../../core/config/resolve.js';
import type { Context } from '../../context.js';
import { printTable } from '../../output/table.js';

interface Row {
  key: string;
  value: string | number | null;
  source: string;
}

/** The effective settings, where each comes from, and whether a key is set (never its value). */
export async function run(ctx: Context): Promise<void> {
  const rows: Row[] = SETTING_KEYS.map((key) => {
    if (key.name === 'base_url') {
      const resolved = attempt(() => ctx.config.baseUrl());
      return { key: key.name, value: resolved?.value ?? null, source: resolved?.source ?? 'unset' };
    }
    const value = ctx.config.storedSetting(key.name);
    return {
      key: key.name,
      value: (value as string | number | undefined) ?? null,
      source: value === undefined ? 'unset' : 'profile',
    };
  });
  const apiKey = attempt(() => ctx.config.apiKey());
  rows.push({
    key: 'api_key',
    value: apiKey ? '(set)' : null,
    source: apiKey ? (apiKey.source === 'env' ? 'env SIMJOB_API_KEY' : 'credentials file') : 'unset',
  });

  if (ctx.out.json) {
    ctx.out.printJson({ profile: ctx.config.profile, configDir: ctx.config.dir, settings: rows });
    return;
  }
  ctx.out.notice(`Profile "${ctx.config.profile}" (${ctx.config.profileSource}), config dir ${ctx.config.dir}`);
  printTable(ctx.out, rows, [
    { header: 'Key', value: (r) => r.key },
    { header: 'Value', value: (r) => (r.value === null ? '' : String(r.value)), shrinkable: true },
    { header: 'Source', value: (r) => r.source },
  ]);
}

function attempt<T>(read: () => Resolved<T>): Resolved<T> | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
