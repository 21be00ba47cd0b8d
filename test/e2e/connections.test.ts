// Connections end to end: two BUILT headless Countersigns as child processes, one playing
// the real service, and Debian's Chromium on the other's console. A connection is added
// on the Connections screen (its key from the local process's environment: headless has
// no keychain), picked in the frame's switcher, and a subscription is created (secret
// shown once) and deleted (confirmed) on the remote, each checked on the remote's own
// API. Then the remote is stopped mid-session: the console says it is offline, no hang.
// Screenshots at 800 and 1400 px, light and dark, go to /work/shots/connections (or
// COUNTERSIGN_SHOTS_DIR). Code run in the page is passed as strings (no DOM types here).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HEADLESS_ENTRY, startHeadless, type Headless } from '../helpers/headless.js';
import { callApi } from '../helpers/http.js';
import { chromiumAvailable, launchBrowser, newPage, type PageProblems } from '../helpers/browser.js';

const ready = existsSync(HEADLESS_ENTRY) && chromiumAvailable();
if (!ready) console.warn('connections e2e skipped: run `npm run build` and install Chromium (apt-get install -y chromium)');

const SHOTS = process.env.COUNTERSIGN_SHOTS_DIR ?? '/work/shots/connections';
const REMOTE_KEY = 'cs_e2e_remote_admin_key_000000000';

let remote: Headless;
let local: Headless;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: PageProblems;

const onRemote = (method: string, path: string, body?: unknown) => callApi(remote.urls.api_url, method, path, body, REMOTE_KEY);

/** The page at 800 and 1400 px wide, light and dark. */
async function shots(name: string) {
  await mkdir(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [800, 1400]) {
      await page.setViewportSize({ width, height: 900 });
      // Let the frame's drawer finish its slide after the resize (a picture, not an assertion).
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1360, height: 900 });
}

describe.skipIf(!ready)('the console on a remote connection, in Chromium', () => {
  beforeAll(async () => {
    remote = await startHeadless({ env: { COUNTERSIGN_ADMIN_KEY: REMOTE_KEY } });
    local = await startHeadless({ env: { STAGING_KEY: REMOTE_KEY, COUNTERSIGN_REMOTE_TIMEOUT_MS: '3000' } });
    browser = await launchBrowser();
    ({ context, page, problems } = await newPage(browser));
    await page.goto(local.urls.console_url);
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await local?.stop();
    await remote?.stop();
  });

  it('adds a connection with its key named, not typed (no keychain here)', async () => {
    const switcher = page.getByLabel('Connection', { exact: true });
    expect(await switcher.inputValue()).toBe('local');
    await page.getByText('Local', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Manage connections' }).click();
    await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
    expect(await page.getByRole('radio', { name: /Type it/ }).isDisabled()).toBe(true);
    await page.getByLabel('Name', { exact: true }).fill('Staging');
    await page.getByLabel('API address').fill(remote.urls.api_url);
    await page.getByLabel('App address').fill(remote.urls.app_url);
    await page.getByRole('radio', { name: 'An environment variable' }).check();
    await page.getByLabel('Variable name').fill('NOT_SET');
    await page.getByRole('button', { name: 'Add connection' }).click();
    await page.getByText(/NOT_SET is not set/).waitFor();
    await page.getByLabel('Variable name').fill('STAGING_KEY');
    await page.getByRole('button', { name: 'Add connection' }).click();
    await page.getByText('Added “Staging”.', { exact: false }).waitFor();
    await page.getByRole('cell', { name: 'variable STAGING_KEY' }).waitFor();
    await page.locator('td').getByText('online').waitFor();
    expect(await page.content()).not.toContain(REMOTE_KEY);
    await shots('connections-screen');
  });

  it('creates and deletes a subscription on the remote, with the same confirmations', async () => {
    await page.getByLabel('Connection', { exact: true }).selectOption({ label: 'Staging' });
    await page.locator('.connection-remote').getByText('Remote').waitFor();
    await page.locator('.connection-remote').getByText('Online').waitFor();
    expect(await page.evaluate<string>("document.documentElement.dataset.connection ?? ''")).toBe('remote');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/from-the-console');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Subscription created' });
    await dialog.waitFor();
    const secret = (await dialog.getByLabel('signing secret', { exact: true }).textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await shots('remote-secret-dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();

    const subs = (await onRemote('GET', '/v2/webhooks')).body.data;
    expect(subs.map((s: { url: string }) => s.url)).toEqual(['https://hooks.example.com/from-the-console']);
    expect((await local.api('GET', '/v2/webhooks')).body.data).toEqual([]);
    await page.getByRole('link', { name: 'https://hooks.example.com/from-the-console' }).waitFor();
    await shots('remote-webhooks');

    await page.getByRole('link', { name: 'https://hooks.example.com/from-the-console' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this subscription?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete subscription' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    expect((await onRemote('GET', `/v2/webhooks/${subs[0].public_id}`)).status).toBe(404);
  });

  it('opens a remote document from its link, and says what only the built-in service has', async () => {
    const doc = (
      await onRemote('POST', '/v2/test_helpers/documents', {
        title: 'Remote lease',
        recipients: [{ name: 'Ann', email: 'ann@example.com' }],
      })
    ).body;
    await page.getByRole('link', { name: 'Documents' }).click();
    await page.getByRole('heading', { name: 'Open a document' }).waitFor();
    await page.getByLabel('Document id or link').fill(`${remote.urls.app_url}/documents?d=${doc.public_id}`);
    await page.getByRole('button', { name: 'Open document' }).click();
    await page.getByRole('heading', { name: 'Remote lease', level: 1 }).waitFor();
    await page.getByText(/test helpers of the built-in service only/).waitFor();
    expect(await page.getByRole('link', { name: 'Open in its web app' }).getAttribute('href')).toBe(
      `${remote.urls.app_url}/documents?d=${doc.public_id}`,
    );
    await shots('remote-document');
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.getByText('Notifications: only on the built-in service').waitFor();
    await shots('remote-local-only');
  });

  it('shows a clear offline state when the remote goes away, not a hang', async () => {
    expect(await remote.stop()).toBe(0);
    // A fresh page (no cached list): the list's call fails at once and says why, and the switcher turns to Offline.
    await page.goto(`${local.urls.app_url}/settings/integrations/webhooks`);
    const started = Date.now();
    await page
      .getByText(/Could not reach Staging/)
      .first()
      .waitFor({ timeout: 10_000 });
    await page.locator('.connection-remote').getByText('Offline').waitFor({ timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    await shots('remote-offline');
    await page.getByLabel('Connection', { exact: true }).selectOption('local');
    await page.locator('.connection-local').waitFor();
    expect(problems.errors).toEqual([]);
  });
});
