import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from './shared.js';

/** The schema CI systems read (Jenkins/Surefire JUnit XML); see the file's header. */
const SCHEMA = resolve(REPO_ROOT, 'test', 'fixtures', 'junit.xsd');

/** Validate with a real XML Schema validator (libxml2's xmllint; .ci/run installs it) and count the test cases. */
export function validateJunit(path: string): { tests: number; failures: number; errors: number; skipped: number; cases: string[] } {
  let out: string;
  try {
    out = execFileSync('xmllint', ['--noout', '--schema', SCHEMA, path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('xmllint is not installed: apt-get install libxml2-utils (.ci/run installs it).');
    throw new Error(`${path} is not valid JUnit XML:\n${e.stderr ?? e.message}`);
  }
  expect(out).toBe('');
  const xpath = (expr: string) => execFileSync('xmllint', ['--xpath', expr, path], { encoding: 'utf8' }).trim();
  const names = xpath('//testcase/@name');
  return {
    tests: Number(xpath('count(//testcase)')),
    failures: Number(xpath('count(//testcase[failure])')),
    errors: Number(xpath('count(//testcase[error])')),
    skipped: Number(xpath('count(//testcase[skipped])')),
    cases: [...names.matchAll(/name="([^"]*)"/g)].map((m) => decode(m[1]!)),
  };
}

/** The entities xmllint writes back in attribute values. */
function decode(value: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
  return value.replace(/&(#x?[0-9a-f]+|\w+);/gi, (m, e: string) => (e.startsWith('#') ? String.fromCodePoint(Number(e.startsWith('#x') ? `0x${e.slice(2)}` : e.slice(1))) : named[e] ?? m));
}
