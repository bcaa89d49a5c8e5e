/**
 * JUnit XML, as Jenkins, GitLab, GitHub test reporters and Surefire read it (test/fixtures/junit.xsd is the schema
 * the tests validate against): one <testsuite> per command run, one <testcase> per job or compared match.
 */
import { SYNTHETIC_NOTE } from '../synthetic.js';

export interface TestCase {
  name: string;
  classname: string;
  timeSeconds?: number;
  /** The check failed: a job ended unsuccessful, a DPS regressed. */
  failure?: Problem;
  /** It could not be checked: the job was never sent, the wait failed. */
  error?: Problem;
  /** Nothing to check: a match present on one side only. */
  skipped?: string;
  /** Shown by CI next to the case: the job id, the figures. */
  output?: string;
}

export interface Problem {
  type: string;
  message: string;
  detail?: string;
}

/**
 * `simjob.<command>.<profile>`: CI readers take what is before the last dot as the package, so the profile keeps no dot
 * of its own: its file name without folder and extension, other dots as `_` (`profiles/fury.simc` → `fury`).
 */
export function junitClassName(command: string, profile: string): string {
  const name = profile
    .replace(/^.*[/\\]/, '')
    .replace(/\.[^.]+$/, '')
    .replaceAll('.', '_');
  return `simjob.${command}.${name || profile.replaceAll('.', '_')}`;
}

export interface SuiteOptions {
  /** The numbers came from the stand-in simc: a suite property and a first line in each case's output say so. */
  synthetic?: boolean;
}

export function junitXml(
  suite: string,
  cases: readonly TestCase[],
  timestamp = new Date(),
  options: SuiteOptions = {},
): string {
  const count = (pick: (c: TestCase) => unknown) => cases.filter(pick).length;
  const time = cases.reduce((sum, c) => sum + (c.timeSeconds ?? 0), 0);
  const totals = `tests="${cases.length}" failures="${count((c) => c.failure)}" errors="${count((c) => c.error)}" skipped="${count((c) => c.skipped !== undefined)}" time="${seconds(time)}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="simjob" ${totals}>`,
    `  <testsuite name="${attr(suite)}" ${totals} timestamp="${timestamp.toISOString().replace(/\.\d+Z$/, '')}">`,
  ];
  if (options.synthetic) {
    lines.push(
      '    <properties>',
      `      <property name="synthetic" value="${attr(SYNTHETIC_NOTE)}"/>`,
      '    </properties>',
    );
  }
  for (const c of cases) {
    const head = `    <testcase name="${attr(c.name)}" classname="${attr(c.classname)}" time="${seconds(c.timeSeconds ?? 0)}"`;
    const body: string[] = [];
    if (c.skipped !== undefined) body.push(`      <skipped message="${attr(c.skipped)}"/>`);
    for (const [tag, p] of [
      ['error', c.error],
      ['failure', c.failure],
    ] as const) {
      if (p)
        body.push(
          `      <${tag} message="${attr(p.message)}" type="${attr(p.type)}">${text(p.detail ?? p.message)}</${tag}>`,
        );
    }
    const output = options.synthetic ? [SYNTHETIC_NOTE, c.output].filter(Boolean).join('\n') : c.output;
    if (output) body.push(`      <system-out>${text(output)}</system-out>`);
    lines.push(body.length ? `${head}>\n${body.join('\n')}\n    </testcase>` : `${head}/>`);
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

function seconds(s: number): string {
  return (Math.round(s * 1000) / 1000).toFixed(3);
}

/** Characters XML 1.0 cannot carry at all (most C0 controls, lone surrogates, U+FFFE/F) become visible escapes. */
const NOT_XML = /^[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]$/;

function clean(s: string): string {
  let out = '';
  // for…of walks code points: a surrogate pair is one step, a lone surrogate is one bad character.
  for (const ch of s) out += NOT_XML.test(ch) ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}` : ch;
  return out;
}

function text(s: string): string {
  return clean(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
