/**
 * How much to log: `SIMJOB_DEBUG=api` also logs bodies (2); `--debug`, or SIMJOB_DEBUG set to anything but
 * 0/false, logs each request and response (1). (The bin shim reads the same setting to turn on source maps.)
 */
export function debugLevelOf(env: NodeJS.ProcessEnv, flag: boolean): 0 | 1 | 2 {
  const value = env.SIMJOB_DEBUG;
  if (value === 'api') return 2;
  return flag || (value && value !== '0' && value !== 'false') ? 1 : 0;
}
