/**
 * node:child_process, loaded when a process is first started. A top-level import would load it at
 * start-up (the bundle requires its built-ins as it loads), and a local submit that finds the queue busy and the
 * worker running starts nothing.
 */
export const childProcess = (): typeof import('node:child_process') => process.getBuiltinModule('node:child_process');
