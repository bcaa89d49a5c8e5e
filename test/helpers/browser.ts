/**
 * Debian's chromium driven by playwright-core, for the tests that look at simjob's HTML report as a person would.
 * Chromium's own downloads are never used (`npx playwright install` is impossible here): .ci/run installs the
 * Debian package, and the tests skip without it locally but fail on CI.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { commandOnPath } from '../../src/util/on-path.js';

/** SIMJOB_CHROMIUM, else `chromium` on PATH (Debian's package puts it in /usr/bin). */
export const CHROMIUM = process.env.SIMJOB_CHROMIUM ?? commandOnPath('chromium', process.env) ?? 'chromium';
export const chromiumInstalled = existsSync(CHROMIUM);

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless chromium with a fresh profile folder, removed on close; `javaScript: false` as for a reader who turned it off. */
export async function launchBrowser(options: { javaScript?: boolean } = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'simjob-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1200, height: 900 },
      javaScriptEnabled: options.javaScript ?? true,
    });
    return {
      context,
      close: async () => {
        await context.close().catch(() => undefined);
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

/** What a page did while it loaded: every request it made, console errors, uncaught errors and dialogs. */
export interface Visit {
  page: Page;
  url: string;
  requests: string[];
  errors: string[];
  dialogs: string[];
}

/**
 * Open an HTML file. Every request is recorded and all but the file itself are refused, so a page that tried to
 * fetch anything (a font, a CDN script, an image) shows up in `requests`; `errors` gathers console errors and
 * uncaught exceptions; `dialogs` any alert() an injected script managed to run.
 */
export async function visit(browser: Browser, file: string): Promise<Visit> {
  const page = await browser.context.newPage();
  const url = pathToFileURL(file).href;
  const visit: Visit = { page, url, requests: [], errors: [], dialogs: [] };
  await page.route('**/*', (route) => {
    const requested = route.request().url();
    visit.requests.push(requested);
    return requested === url ? route.continue() : route.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') visit.errors.push(message.text());
  });
  page.on('pageerror', (error) => visit.errors.push(error.message));
  page.on('dialog', (dialog) => {
    visit.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  return visit;
}
