/**
 * simjob's HTML report in a real browser (Debian's chromium, headless): the three pages of issue 14 — a job with 20
 * profilesets, a multistage job with 1,000, and a 3×3 scenario batch — made by the built CLI from test-server jobs
 * (synthetic numbers). Each page must render its charts, log no error, request nothing but itself, sort and filter
 * its table, and never run a script hidden in a name. Screenshots go to .tmp/report-browser/ (gitignored, emptied
 * at the start of each run) for a person to look at.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, launchBrowser, visit, type Browser, type Visit } from '../helpers/browser.js';
import { simjob } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { noteSkipped } from '../helpers/skip-note.js';
import { startServer, type TestServer } from '../server/index.js';
import { userEnv } from './wait-helpers.js';

const SHOTS = resolve(REPO_ROOT, '.tmp', 'report-browser');
const EVIL_NAME = '<script>alert(1)</script>';
const EVIL_META = '"><img src=x onerror=alert(2)>';

if (!chromiumInstalled && !process.env.CI) {
  const why = process.env.SIMJOB_CHROMIUM
    ? `SIMJOB_CHROMIUM (${process.env.SIMJOB_CHROMIUM}) does not exist`
    : 'chromium is not on PATH';
  noteSkipped('the report browser tests', `${why} (apt-get install chromium; .ci/run does)`);
}

describe.skipIf(!chromiumInstalled && !process.env.CI)('simjob report in headless chromium', () => {
  let server: TestServer;
  let env: Record<string, string>;
  let dir: string;
  let browser: Browser;
  let thousandPage: string | undefined;

  beforeAll(async () => {
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'simjob-report-browser-'));
    server = await startServer({ queueMs: 20, runMs: 100, concurrency: 9 });
    env = userEnv(server);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A profile with the given profileset names. */
  function profile(name: string, sets: string[]): string {
    const path = join(dir, `${name}.simc`);
    writeFileSync(
      path,
      [
        `warrior="${name}"`,
        'level=80',
        'spec=fury',
        ...sets.map((s, i) => `profileset."${s}"+=trinket1=,id=${200_000 + i}`),
        '',
      ].join('\n'),
    );
    return path;
  }

  async function submit(args: string[]): Promise<string> {
    const r = await simjob(['submit', ...args, '--channel', 'nightly', '--json'], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).id as string;
    await server.waitForJob(id);
    return id;
  }

  async function report(inputs: string[], name: string): Promise<string> {
    const out = join(dir, `${name}.html`);
    const r = await simjob(['report', ...inputs, '-o', out], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Wrote ${out}`);
    return out;
  }

  async function shoot(v: Visit, name: string): Promise<void> {
    await v.page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  /** The page loaded cleanly: nothing but the file requested, no console errors, no dialog from an injected script. */
  function clean(v: Visit): void {
    expect(v.requests).toEqual([v.url]);
    expect(v.errors).toEqual([]);
    expect(v.dialogs).toEqual([]);
  }

  const cellTexts = (v: Visit, table: string, column: number) =>
    v.page
      .locator(`${table} tbody tr:not([hidden])`)
      .evaluateAll(
        (rows, c) =>
          rows.map(
            (r) => (r as unknown as { cells: ArrayLike<{ textContent: string | null }> }).cells[c]!.textContent ?? '',
          ),
        column,
      );
  const number = (s: string) => Number(s.replace(/,/g, '').replace('−', '-'));

  it('a job with 20 profilesets: 21 bars, the name <script> shown as text and never run, sorting and filtering', async () => {
    const names = [...Array.from({ length: 19 }, (_, i) => `trinket_${i + 1}`), EVIL_NAME];
    const id = await submit([profile('Fury', names), '--meta', `note=${EVIL_META}`]);
    const file = await report([id], 'twenty');
    const v = await visit(browser, file);
    clean(v);
    await shoot(v, '20-profilesets');

    // 20 profilesets and the baseline, each a bar with an error bar; no overview line (all fit in the chart).
    expect(await v.page.locator('svg.bars g.row').count()).toBe(21);
    expect(await v.page.locator('svg.bars g.row.reference').count()).toBe(1);
    expect(await v.page.locator('svg.bars path.err').count()).toBe(21);
    expect(await v.page.locator('svg.distribution').count()).toBe(0);
    expect(await v.page.locator('svg.funnel').count()).toBe(0);
    // Every chart has a text alternative.
    for (const svg of await v.page.locator('svg.chart').all()) {
      expect(await svg.getAttribute('role')).toBe('img');
      expect((await svg.locator('title').first().textContent())?.length).toBeGreaterThan(10);
      expect((await svg.locator('desc').first().textContent())?.length).toBeGreaterThan(10);
    }

    // The hostile strings are text: in the table, the chart, the headline; no element or handler came of them.
    const table = 'table.sets';
    expect(await cellTexts(v, table, 1)).toContain(EVIL_NAME);
    expect(await v.page.locator('svg.bars text.label', { hasText: EVIL_NAME }).count()).toBe(1);
    expect(await v.page.locator('dl.headline').textContent()).toContain(`note=${EVIL_META}`);
    expect(await v.page.locator('body script').count()).toBe(2);
    expect(await v.page.locator('img').count()).toBe(0);
    // The data block reads back exactly, hostile name included.
    const data = JSON.parse((await v.page.locator('#simjob-data').textContent())!);
    expect(data.jobs[0].profilesets.map((p: unknown[]) => p[0])).toContain(EVIL_NAME);
    expect(data.jobs[0].metadata.note).toBe(EVIL_META);

    // Ranked best first; the DPS header sorts ascending, then descending again; names sort alphabetically.
    const dps = async () => (await cellTexts(v, table, 2)).map(number);
    const ranked = await dps();
    expect(ranked).toHaveLength(21);
    expect(ranked).toEqual([...ranked].sort((a, b) => b - a));
    await v.page.locator(`${table} th button`, { hasText: 'DPS' }).click();
    expect(await v.page.locator(`${table} th`, { hasText: 'DPS' }).getAttribute('aria-sort')).toBe('ascending');
    expect(await dps()).toEqual([...ranked].sort((a, b) => a - b));
    await v.page.locator(`${table} th button`, { hasText: 'DPS' }).click();
    expect(await dps()).toEqual(ranked);
    await v.page.locator(`${table} th button`, { hasText: 'Profileset' }).click();
    const byName = await cellTexts(v, table, 1);
    expect(byName).toEqual(
      [...byName].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0)),
    );

    // The filter keeps matching names (and the baseline) and says how many.
    await v.page.getByLabel('Filter').fill('trinket_1');
    const shown = await cellTexts(v, table, 1);
    const expected = names.filter((n) => n.includes('trinket_1'));
    expect(shown.filter((n) => !n.startsWith('baseline')).sort()).toEqual([...expected].sort());
    expect(shown.some((n) => n.startsWith('baseline'))).toBe(true);
    expect(await v.page.locator('.controls [aria-live]').textContent()).toBe(`${expected.length} of 20 shown`);
    await shoot(v, '20-profilesets-filtered');
    expect(v.dialogs).toEqual([]);

    // Printed: the filter controls go, the charts stay.
    await v.page.getByLabel('Filter').fill('');
    await v.page.emulateMedia({ media: 'print' });
    expect(await v.page.locator('.controls').isVisible()).toBe(false);
    expect(await v.page.locator('svg.bars').isVisible()).toBe(true);
    await shoot(v, '20-profilesets-print');
    await v.page.close();
  });

  it('a multistage job with 1,000 profilesets: top 20 bars, all 1,000 as a line and in the table, the funnel', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `trinket_${i + 1}`);
    const id = await submit([profile('Arms', names), '--multistage', '--meta', 'test.profilesets=1000']);
    const file = await report([id], 'thousand');
    thousandPage = file;
    expect(readFileSync(file).length).toBeLessThan(1024 * 1024);
    const v = await visit(browser, file);
    clean(v);
    await shoot(v, '1000-profilesets');

    expect(await v.page.locator('svg.bars g.row').count()).toBe(21);
    const truth = server.jobs.get(id)!.result!.allProfilesets;
    const actor = server.jobs.get(id)!.result!.summary!.mainActor!;
    const above = truth.filter((p) => p.mean >= actor.mean).length;
    expect(above).toBeGreaterThan(20);
    expect(await v.page.locator('svg.bars g.row.reference text.value').textContent()).toContain(
      `baseline (after #${above.toLocaleString('en-US')})`,
    );
    expect(await v.page.locator('svg.distribution path.line').count()).toBe(1);
    expect(await v.page.locator('svg.distribution path.band').count()).toBe(1);
    // Three stages: 1,000 → 400 → 200 (the test server culls 60% then half), with the counts in words.
    expect(await v.page.locator('svg.funnel rect.stage').count()).toBe(3);
    const funnel = await v.page.locator('svg.funnel').textContent();
    expect(funnel).toContain('initial: 1,000 candidates, 600 culled');
    expect(funnel).toContain('intermediate: 400 candidates, 200 culled');
    expect(funnel).toContain('final: 200 candidates');

    // Every profileset is in the table (read from the JSON reports, as result --all does), with its stage.
    const table = 'table.sets';
    expect(await v.page.locator(`${table} tbody tr`).count()).toBe(1001);
    const stages = await cellTexts(v, table, 7);
    const rows = await cellTexts(v, table, 1);
    const stageOf = new Map(rows.map((n, i) => [n, stages[i]]));
    for (const p of truth) expect(stageOf.get(p.name)).toBe(String(p.stage));

    await v.page.locator(`${table} th button`, { hasText: 'Stage' }).click();
    const sortedStages = (await cellTexts(v, table, 7)).filter(Boolean).map(Number);
    expect(sortedStages).toEqual([...sortedStages].sort((a, b) => b - a));
    await v.page.getByLabel('Filter').fill('profileset_09');
    const expected = truth.filter((p) => p.name.includes('profileset_09')).length;
    expect(expected).toBeGreaterThan(0);
    expect((await cellTexts(v, table, 1)).filter((n) => !n.startsWith('baseline'))).toHaveLength(expected);
    expect(await v.page.locator('.controls [aria-live]').textContent()).toBe(`${expected} of 1000 shown`);
    await v.page.close();
  });

  it('without JavaScript the 1,000-profileset page still shows every chart and every row, in rank order', async () => {
    expect(thousandPage, 'made by the test before').toBeDefined();
    const noScript = await launchBrowser({ javaScript: false });
    try {
      const v = await visit(noScript, thousandPage!);
      clean(v);
      expect(await v.page.locator('svg.bars g.row').count()).toBe(21);
      expect(await v.page.locator('svg.distribution path.line').count()).toBe(1);
      expect(await v.page.locator('svg.funnel rect.stage').count()).toBe(3);
      expect(await v.page.locator('table.sets tbody tr').count()).toBe(1001);
      const dps = (await v.page.locator('table.sets tbody tr td:nth-child(3)').allTextContents()).map(number);
      expect(dps).toEqual([...dps].sort((a, b) => b - a));
      // No dead controls: the filter and the sort buttons are the script's to add.
      expect(await v.page.locator('.controls, th button').count()).toBe(0);
      await shoot(v, '1000-profilesets-no-js');
      await v.page.close();
    } finally {
      await noScript.close();
    }
  });

  it('a 3×3 scenario batch: a chart per scenario, the matrix, a section per job', async () => {
    const scenarios = ['Patchwerk', 'Dungeon slice', '<b>AoE</b>'];
    const profiles = ['fury', 'arms', 'prot'].map((p) => profile(p, ['set_1', 'set_2', 'set_3', 'set_4']));
    // The batch as `submit --json` saves it (one submission per job); report looks each up by its id.
    const submissions: unknown[] = [];
    for (const scenario of scenarios) {
      for (const p of profiles) {
        const r = await simjob(
          [
            'submit',
            p,
            '--channel',
            'nightly',
            '--json',
            '--meta',
            `scenario=${scenario}`,
            '--meta',
            `profile=${p.split('/').pop()}`,
          ],
          { env },
        );
        expect(r.exitCode, r.stderr).toBe(0);
        submissions.push(JSON.parse(r.stdout));
      }
    }
    for (const s of submissions) await server.waitForJob((s as { id: string }).id);
    const saved = join(dir, 'batch.json');
    writeFileSync(saved, JSON.stringify(submissions));
    const file = await report([saved], 'matrix');
    const v = await visit(browser, file);
    clean(v);
    await shoot(v, 'scenario-matrix');

    expect(await v.page.locator('h1').textContent()).toBe('Scenario matrix: 3 scenarios × 3 profiles');
    const charts = v.page.locator('figure.scenario svg.bars');
    expect(await charts.count()).toBe(3);
    for (const chart of await charts.all()) {
      expect(await chart.locator('g.row').count()).toBe(3);
      expect(await chart.locator('g.row.reference').count()).toBe(1);
    }
    expect(await v.page.locator('h3', { hasText: '<b>AoE</b>' }).count()).toBe(1);
    expect(await v.page.locator('b').count()).toBe(0);
    const matrix = v.page.locator('table.matrix');
    expect(await matrix.locator('thead th').allTextContents()).toEqual(['Profile', ...scenarios]);
    expect(await matrix.locator('tbody th').allTextContents()).toEqual(['fury.simc', 'arms.simc', 'prot.simc']);
    expect(await matrix.locator('tbody td a').count()).toBe(9);
    // Each job has its own section, with its 4 profilesets and the baseline charted.
    expect(await v.page.locator('section[id^="job-"]').count()).toBe(9);
    expect(await v.page.locator('section[id^="job-"] svg.bars g.row').count()).toBe(9 * 5);
    // The jobs table sorts by scenario.
    await v.page.locator('table.jobs th button', { hasText: 'Scenario' }).click();
    const byScenario = await cellTexts(v, 'table.jobs', 2);
    expect(byScenario).toEqual([...byScenario].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    await v.page.close();
  });
});
