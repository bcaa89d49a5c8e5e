export const VERSION: string = __SIMJOB_VERSION__;

export function userAgent(): string {
  return `simjob/${VERSION} node/${process.versions.node} (${process.platform}; ${process.arch})`;
}
