import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../src/core/resources/schemas.js';
import { barDomain, niceTicks } from '../../src/cli/output/html/charts.js';
import { safeHref, scriptJson, text } from '../../src/cli/output/html/escape.js';
import type { ReportJob } from '../../src/cli/output/html/model.js';
import { renderReport } from '../../src/cli/output/html/page.js';

const HOSTILE = `</script><script>alert(1)</script><!-- "' onload=alert(2) \u2028 \u001b]0;title\u0007 \u202eevil`;

function job(overrides: Partial<ResultRecord> = {}, names = ['a', 'b']): ReportJob {
  const record = {
    id: '519253542012420096',
    status: 'completed',
    build: { channel: 'nightly', commit: 'abcdef0123456789' },
    runtime: { simDurationMs: 1200, totalDurationMs: 3400 },
    links: { share: 'https://example.test/share/1' },
    metadata: null,
    result: {
      summary: {
        metric: 'dps',
        mainActor: {
          name: 'Fury',
          mean: 1000,
          mean_error: 5,
          profilesets: {
            count: names.length,
            results: names.map((name, i) => ({ name, mean: 1010 - i * 20, mean_error: 5 })),
          },
        },
      },
      artifacts: [],
    },
    ...overrides,
  } as ResultRecord;
  const sets = record.result.summary?.mainActor?.profilesets?.results ?? [];
  return { record, profilesets: sets, count: sets.length, origin: 'file x.json' };
}

const render = (jobs: ReportJob[]) =>
  renderReport(jobs, { top: 20, generatedAt: new Date('2026-11-24T12:00:00Z'), generator: 'simjob test' });

describe('HTML escaping', () => {
  it('text() leaves no markup, no quote to close an attribute, and shows control and bidi characters as escapes', () => {
    const out = text(HOSTILE);
    expect(out).not.toMatch(/[<>"']/);
    expect(out).toContain('&lt;/script&gt;');
    expect(out).toContain('\\x1b]0;title\\x07');
    expect(out).toContain('\\u202eevil');
  });

  it('scriptJson() cannot close its <script> element, and parses back to the same value', () => {
    const json = scriptJson({ name: HOSTILE });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ name: HOSTILE });
  });

  it('safeHref() follows http, https and file URLs only', () => {
    expect(safeHref('https://x.test/a?b=1')).toBe('https://x.test/a?b=1');
    expect(safeHref('file:///tmp/r.json')).toBe('file:///tmp/r.json');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('JaVaScRiPt:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,<script>')).toBeUndefined();
    expect(safeHref('not a url')).toBeUndefined();
  });
});

describe('renderReport', () => {
  it('shows hostile names, metadata, statuses and links as text: the page has only its own two scripts and no handler', () => {
    const html = render([
      job(
        {
          status: `completed" onmouseover="alert(3)`,
          links: { share: 'javascript:alert(4)' },
          metadata: { scenario: HOSTILE, profile: HOSTILE },
        },
        [HOSTILE, 'b'],
      ),
    ]);
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toMatch(/\son\w+="/);
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('javascript:alert(4)');
    const data = JSON.parse(html.split('<script type="application/json" id="simjob-data">')[1]!.split('</script>')[0]!);
    expect(data.jobs[0].profilesets[0][0]).toBe(HOSTILE);
    expect(data.jobs[0].metadata.scenario).toBe(HOSTILE);
  });

  it('allows only its own script by hash, and no requests, in its Content-Security-Policy', () => {
    const html = render([job()]);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-[A-Za-z0-9+/]+=*'/,
    );
  });

  it('several jobs without scenarios: one bar per job with Δ against the first; a job without a result is listed, not charted', () => {
    const failed = job({
      id: '519253542012420099',
      status: 'failed',
      errorCode: 'simulation_error',
      statusReason: 'Error: bad line',
      result: { summary: null, artifacts: [] },
    });
    const better = job({
      id: '519253542012420097',
      result: { summary: { metric: 'dps', mainActor: { name: 'Fury', mean: 1100, mean_error: 5 } }, artifacts: [] },
    });
    const html = render([job(), better, failed]);
    expect(html).toContain('<h1>Comparison of 3 jobs</h1>');
    const overview = html.split('<h2>Jobs side by side</h2>')[1]!.split('<section')[0]!;
    expect(overview.match(/<g class="row /g)).toHaveLength(2);
    expect(overview).toContain('<g class="row better">');
    expect(overview).toContain('+10.00%');
    expect(overview).toContain('<td class="text status-failed">failed</td>');
    expect(html).toContain('<p class="outcome"><strong>simulation_error</strong>: Error: bad line');
  });

  it('jobs that share profilesets get a table of them across the jobs, Δ against the first job', () => {
    const before = job({ id: '1' }, ['a', 'b', 'c']);
    const after = job({ id: '2' }, ['b', 'a', 'z']);
    const html = render([before, after]);
    const across = html.split('<table class="sortable across">')[1]!.split('</table>')[0]!;
    const rows = across.split('\n').filter((l) => l.startsWith('<tr>'));
    // a: 1010 in job 1, 1010 in job 2 (its first); b: 990 in job 1, 1010 in job 2 (+2.02%, significant: errors are 5)
    expect(rows).toEqual([
      '<tr><td class="text">a</td><td>1,010.0</td><td>990.0</td><td class="worse">−1.98%</td></tr>',
      '<tr><td class="text">b</td><td>990.0</td><td>1,010.0</td><td class="better">+2.02%</td></tr>',
    ]);
  });

  it('a scenario matrix groups jobs by the scenario and profile metadata, in the order given', () => {
    const jobs = ['ST', 'AoE'].flatMap((scenario) =>
      ['a.simc', 'b.simc'].map((profile, i) =>
        job({
          id: `${scenario}-${profile}`,
          metadata: { scenario, profile },
          result: { summary: { mainActor: { name: 'X', mean: 1000 + i * 50, mean_error: 5 } }, artifacts: [] },
        }),
      ),
    );
    const html = render(jobs);
    expect(html).toContain('<h1>Scenario matrix: 2 scenarios × 2 profiles</h1>');
    expect(html.match(/<figure class="scenario">/g)).toHaveLength(2);
    expect(html).toContain(
      '<tr><th scope="row" class="text">b.simc</th><td><a href="#job-2">1,050</a> ± 5</td><td><a href="#job-4">1,050</a> ± 5</td></tr>',
    );
  });

  it('a top-gear job is titled so, and its combinations keep their names', () => {
    const html = render([job({ metadata: { kind: 'topgear' } }, ['Trinket A + Ring B', 'Trinket C'])]);
    expect(html).toContain('<h1>Top gear: Fury</h1>');
    expect(html).toContain('Ranked combinations');
    expect(html).toContain('<td class="text">Trinket A + Ring B</td>');
  });
});

describe('chart scales', () => {
  it('niceTicks() gives round steps', () => {
    expect(niceTicks(0, 100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(114_389, 162_000)).toEqual([120_000, 130_000, 140_000, 150_000, 160_000]);
  });

  it('barDomain() starts on a round number below the lowest value, or at 0 when the spread is wide', () => {
    const close = barDomain([
      { mean: 120_000, error: 100 },
      { mean: 160_000, error: 100 },
    ]);
    expect(close.lo).toBe(110_000);
    expect(close.hi).toBeGreaterThan(160_100);
    expect(barDomain([{ mean: 10 }, { mean: 100 }]).lo).toBe(0);
  });
});
