import type { TestModule } from 'vitest/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import PlainSummaryReporter from '../helpers/plain-summary-reporter.js';
import { SKIP_MARK } from '../helpers/skip-note.js';

/** Just what the reporter reads of a test file: its load errors and its tests' states. */
function module(id: string, states: string[], loadError = false): TestModule {
  const tests = states.map((state) => ({ result: () => ({ state }) }));
  const errors = loadError ? [{ message: 'Cannot find module' }] : [];
  return { relativeModuleId: id, errors: () => errors, children: { allTests: () => tests } } as unknown as TestModule;
}

function closingLines(reporter: PlainSummaryReporter, modules: TestModule[], unhandled = 0): string[] {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  reporter.onTestRunEnd(modules, Array.from({ length: unhandled }, () => ({ message: 'boom' })) as never);
  const text = write.mock.calls.map(([chunk]) => String(chunk)).join('');
  write.mockRestore();
  return text.trim().split('\n');
}

afterEach(() => vi.restoreAllMocks());

describe('the closing summary line', () => {
  it('counts the tests of every file', () => {
    const lines = closingLines(new PlainSummaryReporter(), [module('a.test.ts', ['passed', 'passed', 'skipped'])]);
    expect(lines).toEqual(['2 passed, 0 failed, 1 skipped']);
  });

  it('a file that failed to load is a failure, named, even though none of its tests ran', () => {
    const lines = closingLines(new PlainSummaryReporter(), [
      module('a.test.ts', ['passed']),
      module('b.test.ts', [], true),
    ]);
    expect(lines).toEqual(['Failed to run: b.test.ts (its error is above)', '1 passed, 1 failed, 0 skipped']);
  });

  it('an error outside any test is a failure', () => {
    expect(closingLines(new PlainSummaryReporter(), [module('a.test.ts', ['passed'])], 1).at(-1)).toBe(
      '1 passed, 1 failed, 0 skipped',
    );
  });

  it('repeats each skip note once, above the counts; other console output is not repeated', () => {
    const reporter = new PlainSummaryReporter();
    const note = `${SKIP_MARK}the fish completion tests: fish is not installed`;
    reporter.onUserConsoleLog({ content: `${note}\n` });
    reporter.onUserConsoleLog({ content: `${note}\n` });
    reporter.onUserConsoleLog({ content: 'some other warning\n' });
    const lines = closingLines(reporter, [module('a.test.ts', ['skipped'])]);
    expect(lines).toEqual([note, '0 passed, 0 failed, 1 skipped']);
  });
});
