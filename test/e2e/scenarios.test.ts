// Webhooks → Scenarios, end to end: the BUILT headless entry (a child process) driven by
// Debian's Chromium through playwright-core. A shipped scenario run from the screen
// shows each step with its outcome and the deliveries it caused, the same steps the
// API's run has; a demo pack loaded from the screen puts its documents in the console.
// Code run in the page is passed as strings: this file is type-checked without the DOM.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HEADLESS_ENTRY, startHeadless, type Headless } from '../helpers/headless.js';
import { chromiumAvailable, launchBrowser, newPage, screenshot, type PageProblems } from '../helpers/browser.js';

const ready = existsSync(HEADLESS_ENTRY) && chromiumAvailable();
if (!ready) console.warn('scenarios e2e skipped: run `npm run build` and install Chromium (apt-get install -y chromium)');

let hl: Headless;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: PageProblems;

describe.skipIf(!ready)('the Scenarios screen in Chromium', () => {
  beforeAll(async () => {
    hl = await startHeadless();
    browser = await launchBrowser();
    ({ context, page, problems } = await newPage(browser));
    await page.goto(hl.urls.console_url);
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await hl?.stop();
  });

  it('runs a shipped scenario and shows each step beside the deliveries it caused', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Scenarios' }).click();
    await page.getByRole('heading', { name: 'Scenarios', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Run declined-then-resent' }).click();
    await page.locator('.check-verdict').getByText('Passed', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.locator('.check-summary').textContent()).toBe('1 of 1 expectations held');
    const steps = (await page.evaluate(
      `[...document.querySelectorAll('.scenario-step')].map((li) => li.querySelector('.check-item-status').textContent)`,
    )) as string[];
    const file = (await hl.api('GET', '/v2/test_helpers/scenarios/declined-then-resent')).body;
    expect(steps).toEqual(file.steps.map(() => 'Passed'));
    // The send step caused the document.sent delivery: its id is shown beside it.
    const sendStep = page.locator('.scenario-step').nth(1);
    expect(await sendStep.locator('.scenario-delivery-id').count()).toBe(1);
    await screenshot(page, 'scenarios-run-light');
    expect(problems.errors).toEqual([]);
  });

  it('loads a demo pack: its documents appear in the console', async () => {
    await page.getByRole('button', { name: 'Load demo lease-signing' }).click();
    await page.getByText('Loaded lease-signing: 2 documents, 1 inbox.').waitFor({ timeout: 30_000 });
    await page.getByRole('navigation').getByRole('link', { name: 'Documents' }).click();
    await page.getByText('Residential lease: 12 Harbour Row, flat 3').first().waitFor();
    expect(problems.errors).toEqual([]);
  });
});
