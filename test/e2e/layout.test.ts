// The layout holds at 800 px, measured with element boxes in Chromium, on every screen
// of a seeded instance (scripts/screenshots.mjs seeds it the way the screenshots are
// taken): the page never scrolls sideways, no table cell is narrower than the first word
// of its content (a cell that truncates on purpose shows an ellipsis and has the full
// value in its title), no button's text is clipped or hidden by a scrolling box, and
// under 1000 px the sidebar is a drawer behind the header's "Menu" button.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HEADLESS_ENTRY } from '../helpers/headless.js';
import { chromiumAvailable, launchBrowser } from '../helpers/browser.js';
import { waitUntil } from '../helpers/wait.js';
// @ts-expect-error: a plain .mjs script without type declarations
import { SCREENS, seedDemo, startInstance } from '../../scripts/screenshots.mjs';

const ready = existsSync(HEADLESS_ENTRY) && chromiumAvailable();
if (!ready) console.warn('layout e2e skipped: run `npm run build` and install Chromium (apt-get install -y chromium)');

interface Screen {
  name: string;
  path: (seed: unknown) => string;
  signedOut?: boolean;
}

let inst: { console_url: string; app_url: string; stop: () => Promise<void> };
let seed: unknown;
let browser: Browser;

/** Runs in the page: what does not fit, as readable lines (empty when all is well). */
const MEASURE = `(() => {
  const problems = [];
  const label = (el) => (el.tagName.toLowerCase() + ' "' + (el.textContent || '').trim().slice(0, 40) + '"');
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    problems.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px wide');
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
  for (const cell of document.querySelectorAll('main td, main th')) {
    if (cell.getClientRects().length === 0) continue;
    const visible = cell.cloneNode(true);
    for (const hidden of visible.querySelectorAll('.visually-hidden')) hidden.remove();
    const first = (visible.textContent || '').trim().split(/\\s+/)[0];
    if (!first) continue;
    const truncating = [cell, ...cell.querySelectorAll('*')].find((el) => getComputedStyle(el).textOverflow === 'ellipsis');
    if (truncating) {
      if (!(truncating.title || cell.title)) problems.push('truncates without its full value in a title: ' + label(cell));
      continue;
    }
    const style = getComputedStyle(cell);
    probe.style.font = style.font;
    probe.style.letterSpacing = style.letterSpacing;
    probe.textContent = first;
    cell.appendChild(probe);
    const wordWidth = probe.getBoundingClientRect().width;
    probe.remove();
    const inner = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    // A long token (a signature, a header value) may wrap, in a cell wide enough to read it in chunks.
    if (first.length > 24 && /anywhere|break-word/.test(style.overflowWrap) && inner >= 150) continue;
    if (inner + 1 < wordWidth) problems.push('cell narrower than its first word (' + Math.round(inner) + ' < ' + Math.round(wordWidth) + ' px): ' + label(cell));
  }
  for (const button of document.querySelectorAll('button, .btn')) {
    if (button.getClientRects().length === 0 || button.closest('[hidden]')) continue;
    if (button.scrollWidth > button.clientWidth + 1) { problems.push('button text clipped: ' + label(button)); continue; }
    const r = button.getBoundingClientRect();
    for (let el = button.parentElement; el && el !== document.body; el = el.parentElement) {
      const s = getComputedStyle(el);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const c = el.getBoundingClientRect();
      if (r.left < c.left - 1 || r.right > c.right + 1) { problems.push('button hidden by a scrolling box: ' + label(button)); break; }
    }
  }
  return problems;
})()`;

async function settled(page: Page) {
  await page.locator('main h1').first().waitFor({ timeout: 15000 });
  // Polled from here: the page's CSP forbids the string evaluation waitForFunction needs.
  await waitUntil(
    'the screen to load',
    async () => !(await page.evaluate("/Loading/.test(document.querySelector('main')?.textContent ?? '')")),
    15000,
  );
}

describe.skipIf(!ready)('layout from 800 px up', () => {
  beforeAll(async () => {
    inst = await startInstance();
    seed = await seedDemo(inst);
    browser = await launchBrowser();
  }, 60000);

  afterAll(async () => {
    await browser?.close();
    await inst?.stop();
  });

  it.each([800, 1024])(
    'fits every screen at %i px: no sideways page, no cell narrower than its first word, no clipped button',
    async (width) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(inst.console_url);
      await settled(page);
      const found: string[] = [];
      for (const screen of (SCREENS as Screen[]).filter((s) => !s.signedOut)) {
        await page.goto(`${inst.app_url}${screen.path(seed)}`);
        await settled(page);
        for (const p of (await page.evaluate(MEASURE)) as string[]) found.push(`${screen.name}: ${p}`);
      }
      expect(found).toEqual([]);
      await context.close();
    },
  );

  it('says a delivery waiting for its next try in one word and one colour on every screen', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(inst.console_url);
    await settled(page);
    // Delivery badges: not a recipient's ("pending" is a recipient's own state).
    const badges = `[...document.querySelectorAll('main .badge')].filter((b) => b.closest('table')?.caption?.textContent !== 'Recipients').map((b) => [b.textContent.trim(), b.className])`;
    // The subscription to a closed port: every one of its deliveries is waiting for a retry.
    await page.goto(`${inst.app_url}/settings/integrations/webhooks`);
    await settled(page);
    const closed = page.getByRole('link', { name: /127\.0\.0\.1:9\// });
    const subscriptionPath = new URL((await closed.getAttribute('href'))!, inst.app_url).pathname.replace(/^\/app/, '');
    const screens = [
      '/settings/integrations/webhooks',
      subscriptionPath,
      '/inspector',
      SCREENS.find((s: Screen) => s.name === 'document').path(seed),
    ];
    for (const path of screens) {
      await page.goto(`${inst.app_url}${path}`);
      await settled(page);
      await waitUntil(`a retrying delivery on ${path}`, async () =>
        ((await page.evaluate(badges)) as [string, string][]).some(([t]) => t.startsWith('retrying')),
      );
      const found = (await page.evaluate(badges)) as [string, string][];
      for (const [text, cls] of found) {
        expect(text, path).not.toMatch(/^pending/);
        if (text.startsWith('retrying')) expect(cls, `${path}: ${text}`).toContain('badge-warning');
      }
    }
    expect(await page.locator('.chart-legend, main').getByText('retrying').first().isVisible()).toBe(true);
    await context.close();
  });

  it('clears a stale URL error when a button fills the field, and warns of a URL already subscribed', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(inst.console_url);
    await settled(page);
    await page.goto(`${inst.app_url}/settings/integrations/webhooks`);
    await settled(page);
    const form = page.getByRole('form', { name: 'New subscription' });
    const field = form.getByLabel('Endpoint URL');
    await form.getByRole('button', { name: 'Create subscription' }).click();
    await waitUntil('the URL error', async () => (await field.getAttribute('aria-invalid')) === 'true');
    await form.getByRole('button', { name: 'Use the local receiver' }).click();
    await waitUntil('the error cleared', async () => (await field.getAttribute('aria-invalid')) !== 'true');
    await field.fill('http://127.0.0.1:9/webhooks/countersign');
    await form.getByText(/This URL is already subscribed \(wh_\w+, all\)/).waitFor();
    await field.fill('http://127.0.0.1:9/webhooks/elsewhere');
    await form.getByText(/already subscribed/).waitFor({ state: 'detached' });
    await context.close();
  });

  it('folds the sidebar behind "Menu" under 1000 px, and keeps it beside the content above', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
    const page = await context.newPage();
    await page.goto(inst.console_url);
    await settled(page);
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Receiver' }).waitFor();
    await page.keyboard.press('Escape');
    await waitUntil('focus back on Menu', () => page.evaluate("document.activeElement?.textContent?.includes('Menu')"));
    await nav.waitFor({ state: 'hidden' });
    await menu.click();
    await nav.getByRole('link', { name: 'Receiver' }).click();
    await page.getByRole('heading', { name: 'Receiver', level: 1 }).waitFor();
    await nav.waitFor({ state: 'hidden' });

    await page.setViewportSize({ width: 1400, height: 900 });
    expect(await nav.isVisible()).toBe(true);
    expect(await menu.isVisible()).toBe(false);
    await context.close();
  });
});
