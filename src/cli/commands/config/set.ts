import { findSettingKey } from '../../../core/config/keys.js';
import { openSettings } from '../../../core/config/store.js';
import type { Context } from '../../context.js';

export async function run(ctx: Context, [name, raw]: string[]): Promise<void> {
  const key = findSettingKey(name ?? '');
  const value = key.parse(raw ?? '');
  const store = await openSettings(ctx.config.dir);
  store.set(`profiles.${ctx.config.profile}.${key.name}`, value);
  ctx.out.notice(`Set ${key.name} = ${String(value)} for profile "${ctx.config.profile}".`);
}
