import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from './shared.js';

/** The schema CI systems read (Jenkins/Surefire JUnit XML); see the file's header. */
const SCHEMA = resolve(REPO_ROOT, 'test', 'fixtures', 'junit.xsd');

/** Validate with a real XML Schema validator (libxml2's xmllint; .ci/run installs it) and count the test cases. */
export function validateJunit(path: string): { tests: number; failures: number; errors: number; skipped: number; cases: string[] } {
  const out = execFileSync('xmllint', ['--noout', '--schema', SCHEMA, path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  expect(out).toBe('');
  const xpath = (expr: string) => execFileSync('xmllint', ['--xpath', expr, path], { encoding: 'utf8' }).trim();
  const names = xpath('//testcase/@name');
  return {
    tests: Number(xpath('count(//testcase)')),
    failures: Number(xpath('count(//testcase[failure])')),
    errors: Number(xpath('count(//testcase[error])')),
    skipped: Number(xpath('count(//testcase[skipped])')),
    cases: [...names.matchAll(/name="([^"]*)"/g)].map((m) => m[1]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')),
  };
}

