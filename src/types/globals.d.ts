/** Replaced at build time with package.json's version (scripts/build.mjs, vitest.config.ts). */
declare const __SIMJOB_VERSION__: string;
