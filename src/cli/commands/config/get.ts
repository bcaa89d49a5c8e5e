import { findSettingKey } from '../../../core/config/keys.js';
import type { Context } from '../../context.js';

/** Prints the stored value (nothing, exit 1, when unset: `simjob config get channel || echo none` works). */
export async function run(ctx: Context, [name]: string[]): Promise<number> {
  const key = findSettingKey(name ?? '');
  const value = ctx.config.storedSetting(key.name);
  if (ctx.out.json) {
    ctx.out.printJson({ key: key.name, value: value ?? null, profile: ctx.config.profile });
    return value === undefined ? 1 : 0;
  }
  if (value === undefined) {
    ctx.out.notice(`${key.name} is not set for profile "${ctx.config.profile}".`);
    return 1;
  }
  ctx.out.line(String(value));
  return 0;
}
