import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/helpers/plain-summary-reporter.js';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __SIMJOB_VERSION__: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    // A temp folder per run, checked for leaks at the end; every tempDir() is removed after its file.
    globalSetup: ['test/helpers/global-temp.ts'],
    setupFiles: ['test/helpers/setup-temp.ts'],
    reporters: ['default', new PlainSummaryReporter()],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn processes and servers; two cores here, so keep parallelism modest.
    maxWorkers: 2,
  },
});
