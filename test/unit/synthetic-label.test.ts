/**
 * Numbers from the stand-in simc are labelled in every view (issue 40): the report reader flags them, the summary
 * carries `synthetic: true`, and the terminal, the HTML page and the CI reports say "synthetic numbers (stand-in simc)".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../src/core/resources/schemas.js';
import { renderReport } from '../../src/cli/output/html/page.js';
import { Output } from '../../src/cli/output/io.js';
import { junitXml } from '../../src/cli/output/reports/junit.js';
import { SYNTHETIC_LABEL } from '../../src/cli/output/synthetic.js';
import { printComparison, type ComparisonView } from '../../src/cli/output/views/comparison.js';
import { printResult } from '../../src/cli/output/views/result.js';
import { parseReport, summarize } from '../../src/domain/report/report.js';
import { FIXTURES_DIR } from '../helpers/shared.js';
import { validateJunit } from '../helpers/junit.js';
import { memoryStream } from '../helpers/streams.js';

const dir = mkdtempSync(join(tmpdir(), 'simjob-synthetic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REAL = readFileSync(join(FIXTURES_DIR, 'reports', 'f560c5ca-f3c7-47cf-8463-00b422572ebe.json'), 'utf8');
const single = { enabled: false, reason: 'disabled_by_option', stages: [] };
const first = { index: 0, name: null };

/** The real fixture report with the stand-in's marker planted on its player, as test/fake-simc writes it. */
function standIn(): string {
  const report = JSON.parse(REAL.replace(/"seed":\d+/, '"seed":1'));
  report.sim.players[0].custom = { stand_in_simc: 'SYNTHETIC NUMBERS from the stand-in simc', true_dps: 1 };
  return JSON.stringify(report);
}

function record(synthetic: boolean): ResultRecord {
  const summary = summarize(parseReport(synthetic ? standIn() : REAL), first, single);
  return {
    id: 'local-abcdefghijklmnopqr',
    status: 'completed',
    errorCode: null,
    statusReason: null,
    result: { summary, artifacts: [] },
  } as unknown as ResultRecord;
}

function output() {
  const stdout = memoryStream(false, 100);
  const stderr = memoryStream(false, 100);
  return { out: new Output({ stdout, stderr, env: {}, json: false, noColor: true, quiet: true }), stdout, stderr };
}

describe('a report from the stand-in simc', () => {
  it('the summary says synthetic: true; a real report has no such field', () => {
    expect(record(true).result.summary?.synthetic).toBe(true);
    expect(record(false).result.summary).not.toHaveProperty('synthetic');
  });

  it('the terminal result says so on stderr (even with --quiet); a real result does not', () => {
    const made = output();
    printResult(made.out, record(true), {});
    expect(made.stderr.text()).toContain(`Warning: ${SYNTHETIC_LABEL}: made up by simjob's test/fake-simc`);
    expect(made.stdout.text()).not.toContain(SYNTHETIC_LABEL);
    const real = output();
    printResult(real.out, record(false), {});
    expect(real.stderr.text()).not.toContain(SYNTHETIC_LABEL);
  });

  it('compare says so when either side is synthetic', () => {
    const view = (synthetic: boolean): ComparisonView => ({
      a: { arg: 'a.json', results: [record(synthetic)] },
      b: { arg: 'b.json', results: [record(false)] },
      matches: [],
      unmatched: [],
      duplicates: [],
      threshold: undefined,
      regressions: [],
      unjudged: [],
      synthetic,
    });
    const made = output();
    printComparison(made.out, view(true), 20);
    expect(made.stderr.text()).toContain(SYNTHETIC_LABEL);
    const real = output();
    printComparison(real.out, view(false), 20);
    expect(real.stderr.text()).not.toContain(SYNTHETIC_LABEL);
  });

  it('the HTML page has a banner above the title, and its data says synthetic', () => {
    const page = (r: ResultRecord) =>
      renderReport([{ record: r, profilesets: [], count: 0, origin: 'a local job' }], {
        top: 20,
        generatedAt: new Date('2026-11-29T08:00:00Z'),
        generator: 'simjob test',
      });
    const html = page(record(true));
    expect(html).toContain(
      '<p class="synthetic" role="alert"><strong>Synthetic numbers (stand-in simc)</strong>: made up by simjob&#39;s',
    );
    expect(html.indexOf('class="synthetic"')).toBeLessThan(html.indexOf('<h1>'));
    expect(html).toContain('"synthetic":true');
    expect(page(record(false))).not.toContain('class="synthetic"');
  });

  it('JUnit: a suite property and a first output line, still valid against the schema', async () => {
    const xml = junitXml(
      'simjob submit',
      [{ name: 'fury', classname: 'simjob.submit.fury', output: 'job x' }],
      undefined,
      {
        synthetic: true,
      },
    );
    const path = join(dir, 'synthetic.xml');
    writeFileSync(path, xml);
    const report = await validateJunit(path);
    expect(report.tests).toBe(1);
    expect(xml).toContain(`<property name="synthetic" value="${SYNTHETIC_LABEL}: made up by`);
    expect(xml).toMatch(/<system-out>synthetic numbers \(stand-in simc\): [^\n]*\njob x<\/system-out>/);
    expect(junitXml('s', [{ name: 'a', classname: 'b' }])).not.toContain('synthetic');
  });
});
