import type { Reporter, TestModule } from 'vitest/node';
import type { SerializedError } from 'vitest';
import { SKIP_MARK } from './skip-note.js';

interface ConsoleLog {
  content: string;
}

/**
 * After vitest's own summary: the notes of test files that skipped for want of a tool (skip-note.ts), then one plain
 * line `N passed, N failed, N skipped` that any CI log reader understands. A test file that failed to load (so ran
 * no test) and an error outside any test count as failed, so the line never says 0 failed when the run failed.
 */
export default class PlainSummaryReporter implements Reporter {
  private readonly skipNotes = new Set<string>();

  onUserConsoleLog(log: ConsoleLog): void {
    const line = log.content.trim();
    if (line.startsWith(SKIP_MARK)) this.skipNotes.add(line);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    const brokenFiles: string[] = [];
    for (const module of testModules) {
      if (module.errors().length > 0) {
        counts.failed += 1;
        brokenFiles.push(module.relativeModuleId);
      }
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
    }
    const lines = ['', ...[...this.skipNotes].sort()];
    for (const file of brokenFiles) lines.push(`Failed to run: ${file} (its error is above)`);
    if (unhandledErrors.length > 0) lines.push(`Errors outside any test: ${unhandledErrors.length} (above)`);
    lines.push(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
