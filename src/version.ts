/** Replaced by the build (scripts/build.mjs) and by vitest; scripts run through tsx see the fallback. */
export const VERSION: string = typeof __SIMJOB_VERSION__ === 'string' ? __SIMJOB_VERSION__ : '0.0.0-dev';

export function userAgent(): string {
  return `simjob/${VERSION} node/${process.versions.node} (${process.platform}; ${process.arch})`;
}
