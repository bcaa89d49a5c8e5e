/**
 * Numbers from the stand-in simc are labelled end to end (issue 40): the built CLI runs local jobs on test/fake-simc,
 * and submit, result, --json, compare (with its CI reports) and the HTML report each say "synthetic numbers (stand-in
 * simc)". A page made in headless chromium shows the banner (screenshot in .tmp/synthetic-label/synthetic.png).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumInstalled, launchBrowser, visit } from '../helpers/browser.js';
import { validateJunit } from '../helpers/junit.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { noteSkipped } from '../helpers/skip-note.js';
import { cleanUp, json, localEnv, profileFile, run } from './local-helpers.js';

const LABEL = 'synthetic numbers (stand-in simc)';
const env = localEnv({ FAKE_SIMC_ITER_US: '0' });
const folder = join(env.SIMJOB_DATA_DIR, '..');
afterAll(() => cleanUp(env));

const profile = profileFile(
  env,
  'fury.simc',
  'warrior="Fury"\nspec=fury\nlevel=90\niterations=500\nprofileset."no_flask"=flask=disabled\n',
);

describe('stand-in numbers are labelled in every view', () => {
  let saved: string;
  let id: string;

  it('submit --wait: the answer on stdout, one line on stderr saying the numbers are synthetic; its Markdown report', async () => {
    const md = join(folder, 'submit.md');
    const batch = await run(env, ['submit', profile, '--local', '--wait', '--report', `markdown=${md}`]);
    expect(batch.exitCode, batch.stderr).toBe(0);
    expect(batch.stdout).toContain('Best profileset');
    expect(batch.stderr).toContain(`Warning: ${LABEL}`);
    expect(readFileSync(md, 'utf8')).toContain(`> :warning: **${LABEL}**`);
    const r = await run(env, ['submit', profile, '--local', '--wait']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Actor +Fury/);
    expect(r.stderr).toContain(
      `Warning: ${LABEL}: made up by simjob's test/fake-simc, not simulated by SimulationCraft`,
    );
    expect(r.stdout).not.toContain(LABEL);
  });

  it('--json: the result summary carries synthetic: true; result says it again', async () => {
    const r = await run(env, ['submit', profile, '--local', '--wait', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const body = json(r);
    expect(body.result.summary.synthetic).toBe(true);
    expect(body.result.summary.mainActor.name).toBe('Fury');
    id = body.id;
    saved = join(folder, 'saved.json');
    writeFileSync(saved, r.stdout);
    const shown = await run(env, ['result', id]);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stderr).toContain(LABEL);
  });

  it('compare: the table, --json and the JUnit and Markdown reports say so', async () => {
    const xml = join(folder, 'compare.xml');
    const md = join(folder, 'compare.md');
    const r = await run(env, ['compare', saved, id, '--report', `junit=${xml}`, '--report', `markdown=${md}`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(LABEL);
    const asJson = await run(env, ['compare', saved, id, '--json']);
    expect(json(asJson).synthetic).toBe(true);
    expect(await validateJunit(xml)).toMatchObject({ tests: 1 });
    expect(readFileSync(xml, 'utf8')).toContain(`<property name="synthetic" value="${LABEL}: made up by`);
    expect(readFileSync(md, 'utf8')).toContain(`> :warning: **${LABEL}**: made up by simjob's test/fake-simc`);
  });

  it('the HTML report has a banner above the title', async () => {
    const page = join(folder, 'report.html');
    const r = await run(env, ['report', id, '-o', page]);
    expect(r.exitCode, r.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(
      html.indexOf('<p class="synthetic" role="alert"><strong>Synthetic numbers (stand-in simc)</strong>'),
    ).toBeLessThan(html.indexOf('<h1>'));
    if (!chromiumInstalled && !process.env.CI) {
      noteSkipped('the synthetic banner in chromium', 'chromium is not on PATH (apt-get install chromium)');
      return;
    }
    const browser = await launchBrowser();
    try {
      const v = await visit(browser, page);
      expect(v.errors).toEqual([]);
      const banner = v.page.locator('p.synthetic');
      expect(await banner.isVisible()).toBe(true);
      expect(await banner.textContent()).toContain('Synthetic numbers (stand-in simc): made up by');
      const box = (await banner.boundingBox())!;
      const title = (await v.page.locator('h1').boundingBox())!;
      expect(box.y).toBeLessThan(title.y);
      const shots = resolve(REPO_ROOT, '.tmp', 'synthetic-label');
      mkdirSync(shots, { recursive: true });
      await v.page.screenshot({ path: join(shots, 'synthetic.png') });
    } finally {
      await browser.close();
    }
  });
});
