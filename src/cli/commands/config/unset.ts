import { findSettingKey } from '../../../core/config/keys.js';
import { openSettings } from '../../../core/config/store.js';
import type { Context } from '../../context.js';

export async function run(ctx: Context, [name]: string[]): Promise<void> {
  const key = findSettingKey(name ?? '');
  const store = await openSettings(ctx.config.dir);
  store.delete(`profiles.${ctx.config.profile}.${key.name}`);
  ctx.out.notice(`Unset ${key.name} for profile "${ctx.config.profile}".`);
}
