import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { expect } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { REPO_ROOT } from './shared.js';

/** The schema CI systems read (Jenkins/Surefire JUnit XML); see the file's header. */
const SCHEMA = resolve(REPO_ROOT, 'test', 'fixtures', 'junit.xsd');

export interface JunitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  cases: string[];
}

/**
 * Validate with a real XML Schema validator (libxml2's xmllint, built to WebAssembly by the xmllint-wasm package, so
 * no system package is needed) and count the test cases.
 */
export async function validateJunit(path: string): Promise<JunitCounts> {
  const xml = { fileName: basename(path), contents: readFileSync(path, 'utf8') };
  const schema = { fileName: 'junit.xsd', contents: readFileSync(SCHEMA, 'utf8') };
  const checked = await validateXML({ xml, schema });
  if (!checked.valid) throw new Error(`${path} is not valid JUnit XML:\n${checked.rawOutput}`);
  expect(checked.errors).toEqual([]);
  const xpath = async (expr: string) => {
    const withXpath = (args: string[]) => ['--xpath', expr, ...args.filter((arg) => arg !== '--noout')];
    return (await validateXML({ xml, schema: [], modifyArguments: withXpath })).normalized.trim();
  };
  const names = await xpath('//testcase/@name');
  return {
    tests: Number(await xpath('count(//testcase)')),
    failures: Number(await xpath('count(//testcase[failure])')),
    errors: Number(await xpath('count(//testcase[error])')),
    skipped: Number(await xpath('count(//testcase[skipped])')),
    cases: [...names.matchAll(/name="([^"]*)"/g)].map((m) => decode(m[1]!)),
  };
}

/** The entities xmllint writes back in attribute values. */
function decode(value: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
  const entity = (m: string, e: string) => {
    if (!e.startsWith('#')) return named[e] ?? m;
    return String.fromCodePoint(Number(e.startsWith('#x') ? `0x${e.slice(2)}` : e.slice(1)));
  };
  return value.replace(/&(#x?[0-9a-f]+|\w+);/gi, entity);
}
