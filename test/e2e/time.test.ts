// Relative times in a real browser read right whatever the clocks say: the browser's
// clock set ten minutes behind the service's (playwright's clock), and then the
// service's test clock moved a day ahead. A document the service just stamped reads
// "now" or "… ago", never "in …"; its exact time is on hover (title).
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HEADLESS_ENTRY, startHeadless, type Headless } from '../helpers/headless.js';
import { chromiumAvailable, launchBrowser, newPage } from '../helpers/browser.js';

const ready = existsSync(HEADLESS_ENTRY) && chromiumAvailable();
if (!ready) console.warn('time e2e skipped: run `npm run build` and install Chromium (apt-get install -y chromium)');

let hl: Headless;
let browser: Browser;

async function updatedCellOf(page: Page, title: string) {
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: title }) });
  await row.waitFor();
  const time = row.locator('time').first();
  return { text: (await time.textContent()) ?? '', title: (await time.getAttribute('title')) ?? '' };
}

describe.skipIf(!ready)('relative times against skewed clocks', () => {
  beforeAll(async () => {
    hl = await startHeadless();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await hl?.stop();
  });

  it('reads a past event as past with the browser ten minutes behind, the exact time on hover', async () => {
    expect(
      (await hl.api('POST', '/v2/test_helpers/documents', { title: 'Skewed lease', recipients: [{ name: 'Ada', email: 'a@example.com' }] }))
        .status,
    ).toBe(201);
    const { context, page } = await newPage(browser);
    await page.clock.setFixedTime(Date.now() - 10 * 60_000);
    await page.goto(hl.urls.console_url);
    const cell = await updatedCellOf(page, 'Skewed lease');
    expect(cell.text).not.toMatch(/^in |from now|tomorrow/);
    expect(cell.text).toMatch(/now|ago/);
    expect(cell.title).toMatch(/\d/);
    await context.close();
  });

  it('reads a past event as past when the service’s test clock is a day ahead', async () => {
    expect((await hl.api('POST', '/v2/test_helpers/clock/advance', { seconds: 86_400 })).status).toBe(200);
    expect(
      (
        await hl.api('POST', '/v2/test_helpers/documents', {
          title: 'Tomorrow lease',
          recipients: [{ name: 'Ada', email: 'a@example.com' }],
        })
      ).status,
    ).toBe(201);
    const { context, page } = await newPage(browser);
    await page.goto(hl.urls.console_url);
    await page.getByRole('region', { name: 'Test clock' }).waitFor();
    const cell = await updatedCellOf(page, 'Tomorrow lease');
    expect(cell.text).not.toMatch(/^in |from now|tomorrow/);
    expect(cell.text).toMatch(/now|ago/);
    await context.close();
  });
});
