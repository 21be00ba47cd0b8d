// Webhooks → Check an endpoint, end to end: the BUILT headless entry (a child process)
// driven by Debian's Chromium through playwright-core, checking small loopback
// endpoints written in the test (test/helpers/check-endpoints.ts). The screen must show
// the same result as the API (and so as `countersign check`), and its link must open
// the check's deliveries in the inspector. Code run in the page is passed as strings:
// this file is type-checked without the DOM library.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HEADLESS_ENTRY, startHeadless, type Headless } from '../helpers/headless.js';
import { chromiumAvailable, launchBrowser, newPage, screenshot, type PageProblems } from '../helpers/browser.js';
import { acceptEverything, verifyingEndpoint, type Endpoint } from '../helpers/check-endpoints.js';
import { generateSecret } from '../../src-main/backend/delivery/signing.js';
import type { CheckResult } from '../../src-shared/check-types.js';

const ready = existsSync(HEADLESS_ENTRY) && chromiumAvailable();
if (!ready) console.warn('check e2e skipped: run `npm run build` and install Chromium (apt-get install -y chromium)');

const secret = generateSecret();
let hl: Headless;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: PageProblems;
let good: Endpoint;
let lax: Endpoint;

async function runCheck(url: string) {
  await page.getByLabel('Endpoint URL').fill(url);
  await page.getByLabel('Signing secret').fill(secret);
  await page.getByRole('button', { name: 'Run check' }).click();
}

/** Each item's title and status as the screen shows them. */
const shownItems = () =>
  page.evaluate(`[...document.querySelectorAll('.check-item')].map((li) => ({
    title: li.querySelector('.check-item-title').firstChild.textContent,
    status: li.querySelector('.check-item-status').textContent.toLowerCase(),
  }))`) as Promise<{ title: string; status: string }[]>;

describe.skipIf(!ready)('the "Check an endpoint" screen in Chromium', () => {
  beforeAll(async () => {
    [hl, good, lax] = await Promise.all([startHeadless(), verifyingEndpoint(secret), acceptEverything()]);
    browser = await launchBrowser();
    ({ context, page, problems } = await newPage(browser));
    await page.goto(hl.urls.console_url);
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await Promise.all([hl?.stop(), good?.close(), lax?.close()]);
  });

  it('is in the navigation, and shows the same scorecard as the API, with why and how to fix each failure', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Check an endpoint' }).click();
    await page.getByRole('heading', { name: 'Check an endpoint', level: 1 }).waitFor();
    await runCheck(lax.url);
    await page.locator('.check-verdict').getByText('Failed', { exact: true }).waitFor({ timeout: 30_000 });
    const fromApi = (await hl.api('POST', '/v2/test_helpers/checks', { url: lax.url, secret })).body as CheckResult;
    expect(await page.locator('.check-score').textContent()).toBe(`${fromApi.score.passed}/${fromApi.score.total}`);
    expect(await page.locator('.check-summary').textContent()).toBe(fromApi.summary);
    expect(await shownItems()).toEqual(fromApi.items.map((i) => ({ title: i.title, status: i.status })));
    const unsigned = page.locator('.check-item', { hasText: 'Refuses a delivery without signature headers' });
    await expect
      .poll(() => unsigned.locator('dd').allTextContents())
      .toEqual([fromApi.items.find((i) => i.id === 'refuses_unsigned')!.why, fromApi.items.find((i) => i.id === 'refuses_unsigned')!.fix]);
    await screenshot(page, 'check-failed-light');
    expect(problems.errors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
  });

  it('passes a correct endpoint, and links to its deliveries in the inspector, tagged as a check', async () => {
    await runCheck(good.url);
    await page.locator('.check-verdict').getByText('Passed', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.locator('.check-score').textContent()).toBe('14/14');
    expect(await page.locator('.check-item-advice').count()).toBe(0);
    await page.getByRole('link', { name: 'See its deliveries in the inspector' }).click();
    await page.getByRole('heading', { name: 'Inspector', level: 1 }).waitFor();
    expect(new URL(page.url()).searchParams.get('origin')).toBe('check');
    const rows = page.getByRole('listbox', { name: /newest first/ }).getByRole('option');
    await rows.first().waitFor({ timeout: 10_000 });
    await expect.poll(() => rows.filter({ hasText: 'check' }).count()).toBeGreaterThan(0);
    expect(await rows.filter({ hasNotText: 'check' }).count()).toBe(0);
    expect(await page.getByLabel('Origin').inputValue()).toBe('check');
    // A row opens as a check's request: its check, not a deleted subscription; never sent again.
    await rows.first().click();
    await page.getByText('Endpoint check', { exact: true }).waitFor();
    await page.getByText('Sent by an endpoint check: a check sends each request once.').waitFor();
    expect(await page.getByText('(deleted)').count()).toBe(0);
  });

  it('names a bad field beside it, and sends nothing', async () => {
    await page.goto(`${hl.urls.app_url}/check`);
    await page.getByRole('heading', { name: 'Check an endpoint', level: 1 }).waitFor();
    const before = lax.received.length;
    await page.getByLabel('Endpoint URL').fill('http://example.com/hook');
    await page.getByLabel('Signing secret').fill('not-a-secret');
    await page.getByRole('button', { name: 'Run check' }).click();
    await page.getByText(/must use https:\/\//).waitFor();
    await page
      .getByText(/whsec_/)
      .first()
      .waitFor();
    expect(lax.received.length).toBe(before);
  });
});
