/**
 * The HTML report of a tied top gear job in headless chromium, as a person would see it at 1280 px and in print:
 * it opens with the answer (the same words as `simjob result`: the tie, what would separate it, the vault pick),
 * every chart label shows the whole combination, and no text runs past a chart's edge. The job is a saved
 * `--json` record made here with long names and a tie (numbers made up for the page, not a simulation). Screenshots
 * go to .tmp/topgear-report-browser/ for a person to look at.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, launchBrowser, visit, type Browser, type Visit } from '../helpers/browser.js';
import { simjob } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/shared.js';

const SHOTS = resolve(REPO_ROOT, '.tmp', 'topgear-report-browser');
const TIED = [
  "Voidbreaker's Veil (289) in head, Amulet of the Abyssal Hymn (282) in neck, Sin'dorei Band of Hope (282) in finger1",
  "Voidbreaker's Veil (289) in head, Amulet of the Abyssal Hymn (282) in neck, Sin'dorei Band of Hope (282) in finger2",
  "Heart of Ancient Hunger (298, vault) in trinket2, Voidbreaker's Veil (289) in head",
  "Voidbreaker's Veil (289) in head, Amulet of the Abyssal Hymn (282) in neck",
];

/** A finished top gear job as `simjob result --json` saves it: 4 tied at the top, the equipped set after #351. */
function tiedRecord(): unknown {
  const results = TIED.map((name, i) => ({ name, mean: 50_600 - i * 4, mean_error: 25, mean_stddev: 12.8, stage: 3 }));
  for (let i = 0; i < 356; i++) {
    results.push({
      name: `Filler Ring ${i} (276) in finger${1 + (i % 2)}, Alnhara Lantern (285) in trinket1`,
      mean: 50_400 - i * 2,
      mean_error: 60,
      mean_stddev: 30,
      stage: 1,
    });
  }
  const stages = [
    { stage: 1, label: 'initial', profilesets: 360, culled: 340 },
    { stage: 2, label: 'final', profilesets: 20, culled: 16 },
  ];
  return {
    id: 'local-01m86tj19efvvza325',
    status: 'completed',
    metadata: { kind: 'topgear' },
    createdAt: '2026-11-28T12:00:00Z',
    completedAt: '2026-11-28T12:05:00Z',
    result: {
      summary: {
        metric: 'dps',
        mainActor: {
          name: 'Examplewar',
          mean: 49_700,
          mean_error: 30,
          mean_stddev: 15,
          profilesets: { count: results.length, results },
        },
        multiStage: { enabled: true, stages },
      },
      artifacts: [],
    },
  };
}

/**
 * Every text of every chart that reaches past its SVG's viewBox, as "text (x from … to …)". Run in the page, as
 * source (the test's TypeScript has no DOM types).
 */
const CLIPPED = `(() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg.chart')) {
    const box = svg.viewBox.baseVal;
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5) out.push(t.textContent + ' (x from ' + b.x + ' to ' + (b.x + b.width) + ')');
    }
  }
  return out;
})()`;
const clipped = (v: Visit) => v.page.evaluate<string[]>(CLIPPED);

describe.skipIf(!chromiumInstalled && !process.env.CI)('the report of a tied top gear job in chromium', () => {
  let dir: string;
  let page: string;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'simjob-topgear-report-'));
    writeFileSync(join(dir, 'tied.json'), JSON.stringify(tiedRecord()));
    page = join(dir, 'tied.html');
    const r = await simjob(['report', join(dir, 'tied.json'), '-o', page]);
    expect(r.exitCode, r.stderr).toBe(0);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens with the answer: the tie, its combinations, what would separate them, the vault pick', async () => {
    const v = await visit(browser, page);
    await v.page.setViewportSize({ width: 1280, height: 900 });
    const first = await v.page.evaluate<string[]>(
      "Array.from(document.querySelector('main').children).slice(0, 3).map((e) => e.className || e.tagName)",
    );
    expect(first).toEqual(['H1', 'sub', 'answer']);
    const answer = await v.page.locator('section.answer').innerText();
    expect(answer).toMatch(
      /^4 combinations are within the error of the best: Voidbreaker's Veil \(289\) in head, Amulet of the Abyssal Hymn \(282\) in neck, Sin'dorei Band of Hope \(282\) in finger1 \(\+900\.0 dps ± 39\.1/,
    );
    for (const name of TIED) expect(answer).toContain(name);
    expect(answer).toContain('What would separate them:');
    expect(answer).toContain('Great Vault: Heart of Ancient Hunger (298, vault) in trinket2');
    expect(await v.page.locator('section.answer').isVisible()).toBe(true);
    await v.page.screenshot({ path: join(SHOTS, 'topgear-tied-1280.png'), fullPage: true });
    await v.page.close();
  });

  it('chart labels say in full what each bar changes, and no label is clipped at 1280 px or in print', async () => {
    const v = await visit(browser, page);
    await v.page.setViewportSize({ width: 1280, height: 900 });
    type Lines = { querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }> };
    const labels = await v.page
      .locator('svg.chart.bars text.label')
      .evaluateAll((ts) =>
        ts.map((t) => Array.from((t as unknown as Lines).querySelectorAll('tspan'), (s) => s.textContent).join(' ')),
      );
    TIED.forEach((name, i) => expect(labels[i]).toBe(`${i + 1}. ${name}`));
    expect(labels).toContain('equipped set (Examplewar)');
    const notes = await v.page.locator('svg.chart.bars text.value').allTextContents();
    expect(notes.some((n) => n.includes('baseline (after #355)'))).toBe(true);
    expect(await clipped(v)).toEqual([]);

    await v.page.emulateMedia({ media: 'print' });
    await v.page.setViewportSize({ width: 794, height: 1123 }); // A4 at 96 dpi
    expect(await clipped(v)).toEqual([]);
    await v.page.screenshot({ path: join(SHOTS, 'topgear-tied-print.png'), fullPage: true });
    await v.page.close();
  });
});
