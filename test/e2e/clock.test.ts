// The test clock's control in Chromium against the built headless entry: freeze, then
// advance by a preset and by a typed number of seconds until a failing endpoint (a real
// loopback server answering 503) has had all eight attempts of the default schedule;
// the inspector says its times are virtual. Screenshots at 800 and 1400 px, light and
// dark, go to /work/shots/clocks/ (or COUNTERSIGN_SHOTS_DIR) for a person to look at.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HEADLESS_ENTRY, startHeadless, type Headless } from '../helpers/headless.js';
import { startSink, type Sink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';
import { chromiumAvailable, launchBrowser, newPage, type PageProblems } from '../helpers/browser.js';

const ready = existsSync(HEADLESS_ENTRY) && chromiumAvailable();
if (!ready) console.warn('clock e2e skipped: run `npm run build` and install Chromium (apt-get install -y chromium)');
const SHOTS = process.env.COUNTERSIGN_SHOTS_DIR ?? join('test-results', 'shots', 'clocks');

let hl: Headless;
let sink: Sink;
let browser: Browser;
let page: Page;
let problems: PageProblems;

async function shots(p: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme: scheme });
    for (const width of [800, 1400]) {
      await p.setViewportSize({ width, height: 900 });
      await p.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
  await p.emulateMedia({ colorScheme: 'light' });
  await p.setViewportSize({ width: 1360, height: 900 });
}

describe.skipIf(!ready)('the test clock control in Chromium', () => {
  beforeAll(async () => {
    sink = await startSink();
    sink.respond = (_req, res) => ((res.statusCode = 503), res.end('down'));
    hl = await startHeadless({ env: { COUNTERSIGN_RETRY_SCHEDULE: '' } }); // the default schedule: 5 s … 10 h
    browser = await launchBrowser();
    ({ page, problems } = await newPage(browser));
    await page.goto(hl.urls.console_url);
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await hl?.stop();
    await sink?.close();
  });

  it('freezes, advances by a preset and by seconds, and plays all eight attempts', async () => {
    const control = page.getByRole('region', { name: 'Test clock' });
    await control.getByText('Running').waitFor();
    expect(await control.getByTestId('clock-offset').textContent()).toBe('on wall time');
    await control.getByRole('button', { name: 'Freeze' }).click();
    await control.getByText('Frozen').waitFor();
    const frozenAt = (await hl.api('GET', '/v2/test_helpers/clock')).body.now as string;

    const sub = (await hl.api('POST', '/v2/webhooks', { url: sink.url, type: 'document.created' })).body;
    await hl.api('POST', '/v2/test_helpers/documents', { title: 'Lease', recipients: [{ name: 'Ann', email: 'ann@example.com' }] });
    await sink.waitFor(1);

    await control.getByRole('button', { name: 'Advance 1 day' }).click();
    await waitUntil(
      'the preset to play',
      async () => (await control.getByText('Advance').first().isEnabled()) && sink.received.length === 7,
    );
    await control.getByPlaceholder('seconds').fill('14000');
    await control.getByRole('button', { name: 'Advance', exact: true }).click();
    await waitUntil('the typed advance to play', async () => sink.received.length === 8);
    await waitUntil('the offset to show', async () => (await control.getByTestId('clock-offset').textContent())?.startsWith('1 d 3 h'));
    const view = (await hl.api('GET', '/v2/test_helpers/clock')).body;
    expect(Date.parse(view.now) - Date.parse(frozenAt)).toBe((86_400 + 14_000) * 1000);
    const deliveries = (await hl.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data;
    expect(deliveries[0]).toMatchObject({ status: 'failed', attempts: 8 });
    await shots(page, 'clock-control-advanced');

    await page.goto(`${hl.urls.app_url}/inspector`);
    await page.getByTestId('virtual-time').waitFor();
    expect(await page.getByTestId('virtual-time').textContent()).toContain('frozen');
    await shots(page, 'inspector-virtual-time');

    await page.getByRole('region', { name: 'Test clock' }).getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('region', { name: 'Test clock' }).getByText('Running').waitFor();
    expect((await hl.api('GET', '/v2/test_helpers/clock')).body.frozen).toBe(false);
    expect(problems.errors).toEqual([]);
  });

  it('says why a bad number is refused', async () => {
    const control = page.getByRole('region', { name: 'Test clock' });
    await control.getByPlaceholder('seconds').fill('-3');
    await control.getByRole('button', { name: 'Advance', exact: true }).click();
    await control.getByRole('alert').waitFor();
    expect(await control.getByRole('alert').textContent()).toContain('seconds');
  });

  it('sets faults from the subscription screen; the attempt is marked and the endpoint gets it twice', async () => {
    const twice = await startSink();
    try {
      const sub = (await hl.api('POST', '/v2/webhooks', { url: twice.url, type: 'document.sent' })).body;
      await page.goto(`${hl.urls.app_url}/settings/integrations/webhooks/${sub.public_id}`);
      const card = page.getByRole('region', { name: 'Faults' });
      await card.getByText('None on.').waitFor();
      await card.getByRole('checkbox', { name: 'Duplicate (the same request twice)' }).check();
      await card.getByRole('checkbox', { name: 'Stale timestamp' }).check();
      await card.getByRole('button', { name: 'Save faults' }).click();
      await card.getByText('2 on.').waitFor();
      expect((await hl.api('GET', `/v2/test_helpers/webhooks/${sub.public_id}/faults`)).body.faults).toEqual({
        duplicate: {},
        stale_timestamp: { seconds: 600 },
      });

      const doc = (
        await hl.api('POST', '/v2/test_helpers/documents', { title: 'NDA', recipients: [{ name: 'Bo', email: 'bo@example.com' }] })
      ).body;
      await hl.api('POST', `/v2/test_helpers/documents/${doc.public_id}/send`);
      const [a, b] = await twice.waitFor(2);
      expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
      await page.getByRole('button', { name: /Attempts of document.sent/ }).click();
      await page.getByText('fault: duplicate').first().waitFor();
      await page.getByText('fault: stale timestamp').first().waitFor();
      await shots(page, 'subscription-faults');

      await card.getByRole('checkbox', { name: 'Delay before sending' }).check();
      await card
        .getByRole('textbox', { name: /Delay before sending: ms/ })
        .or(card.getByLabel('Delay before sending: ms'))
        .fill('999999');
      await card.getByRole('button', { name: 'Save faults' }).click();
      await card.getByText('The faults were not saved.').waitFor();
      expect(await card.textContent()).toContain('delay.ms');
      expect(problems.errors).toEqual([]);
    } finally {
      await twice.close();
    }
  });
});
