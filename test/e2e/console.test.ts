// The console end to end: the BUILT headless entry (a child process, as scripts and CI
// run it), driven by Debian's Chromium through playwright-core. Every screen is
// photographed to test-results/screenshots/ (light and dark) for a person to look at.
// Deliveries go to a real loopback HTTP server (test/helpers/sink.ts). Code run inside
// the page is passed as strings: this file is type-checked without the DOM library.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HEADLESS_ENTRY, startHeadless, type Headless } from '../helpers/headless.js';
import { startSink, type Sink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';
import { chromiumAvailable, launchBrowser, newPage, screenshot, type PageProblems } from '../helpers/browser.js';

const ready = existsSync(HEADLESS_ENTRY) && chromiumAvailable();
if (!ready) console.warn('console e2e skipped: run `npm run build` and install Chromium (apt-get install -y chromium)');

let hl: Headless;
let sink: Sink;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: PageProblems;
const dialogs: string[] = [];

const api = (method: string, path: string, body?: unknown) => hl.api(method, path, body);

async function makeDocument(
  title: string,
  recipients = [
    { name: 'Ada Lovelace', email: 'ada@example.com' },
    { name: 'Alan Turing', email: 'alan@example.com' },
  ],
) {
  const res = await api('POST', '/v2/test_helpers/documents', { title, recipients, metadata: { crm_id: 'A-1' } });
  expect(res.status).toBe(201);
  return res.body as { public_id: string; url: string; recipients: { public_id: string }[] };
}

/** Goes to an in-app path (the browser is signed in by the console link: its session cookie). */
async function go(path: string) {
  await page.goto(`${hl.urls.app_url}${path}`);
  await page.locator('main h1').first().waitFor();
}

describe.skipIf(!ready)('console in Chromium against the headless entry', () => {
  beforeAll(async () => {
    sink = await startSink();
    hl = await startHeadless();
    browser = await launchBrowser();
    ({ context, page, problems } = await newPage(browser, { origin: new URL(hl.urls.api_url).origin }));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(hl.urls.console_url);
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await hl?.stop();
    await sink?.close();
  });

  it('takes the token from the link and removes it from the address bar', async () => {
    expect(page.url()).not.toContain('token');
    expect(page.url()).toBe(`${hl.urls.app_url}/documents`);
    expect(await page.getByText('Live').textContent()).toBe('Live');
  });

  it('creates a subscription and shows its secret exactly once', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await screenshot(page, 'webhooks-empty');
    await page.getByLabel('Endpoint URL').fill('ftp://nope.example');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByText(/must be an https:\/\/ URL/).waitFor();
    await screenshot(page, 'webhooks-validation-error');

    await page.getByLabel('Endpoint URL').fill(`${sink.url}/hook`);
    await page.getByLabel('Subscription type').selectOption('all');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Subscription created' });
    await dialog.waitFor();
    const secret = (await dialog.getByLabel('signing secret', { exact: true }).textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(await dialog.getByText(/will not be shown again/).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Copy signing secret' }).click();
    await dialog.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    await screenshot(page, 'webhooks-secret-dialog');

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret);
    const subs = (await api('GET', '/v2/webhooks')).body.data;
    expect(subs).toHaveLength(1);
    expect(JSON.stringify(subs)).not.toContain(secret);

    await page.reload();
    await page.getByRole('link', { name: `${sink.url}/hook` }).waitFor();
    expect(await page.content()).not.toContain(secret);
    const stored = await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })');
    expect(stored).not.toContain(secret.slice(6, 30));
    // Only the fingerprint remains.
    const fingerprint = await page.evaluate<string>(
      "Object.values(JSON.parse(localStorage.getItem('countersign.secret-fingerprints')))[0]",
    );
    expect(fingerprint).toMatch(/^[0-9a-f]{8}$/);
    await page.getByText(fingerprint).waitFor();
    await screenshot(page, 'webhooks-list');
  });

  it('shows a delivery appear live in the delivery log, with its attempts', async () => {
    await page.getByRole('link', { name: `${sink.url}/hook` }).click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    const sub = (await api('GET', '/v2/webhooks')).body.data[0];
    const before = sink.received.length;
    // Triggered from outside the page: only the live stream can tell it.
    const doc = await makeDocument('Live delivery contract');
    await sink.waitFor(before + 1);
    const row = page.getByRole('button', { name: /^Attempts of document\.created/ });
    await row.waitFor({ timeout: 8000 });
    await page
      .locator('.delivery')
      .filter({ hasText: 'document.created' })
      .getByText(/succeeded · 200/)
      .waitFor({ timeout: 8000 });
    await row.click();
    await page.getByText('Attempt 1').waitFor();
    await page.getByText('HTTP 200').waitFor();
    await screenshot(page, 'subscription-delivery-log');

    // "Send test event" from the page, then "Redeliver".
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('button', { name: /^Attempts of webhook\.test/ }).waitFor({ timeout: 8000 });
    const count = sink.received.length;
    await page.getByRole('button', { name: /^Redeliver document\.created/ }).click();
    await sink.waitFor(count + 1);
    const redelivered = sink.received[sink.received.length - 1];
    expect(JSON.parse(redelivered.body).data.document.public_id).toBe(doc.public_id);
    const deliveries = (await api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data;
    expect(deliveries.map((d: { event_type: string }) => d.event_type)).toContain('webhook.test');
  });

  it('asks before deleting a subscription', async () => {
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this subscription?' });
    await confirm.waitFor();
    await screenshot(page, 'subscription-delete-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await api('GET', '/v2/webhooks')).body.data).toHaveLength(1);
  });

  it('sends an old subscription link to Settings → Integrations → Webhooks, each step a page reached by its breadcrumb', async () => {
    const sub = (await api('GET', '/v2/webhooks')).body.data[0];
    await page.goto(`${hl.urls.app_url}/settings/webhooks/${sub.public_id}`);
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    expect(page.url()).toBe(`${hl.urls.app_url}/settings/integrations/webhooks/${sub.public_id}`);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await crumbs.getByRole('link').allTextContents()).toEqual(['Settings', 'Integrations', 'Webhooks']);

    await crumbs.getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor();
    expect(page.url()).toBe(`${hl.urls.app_url}/settings/integrations`);
    await screenshot(page, 'settings-integrations');
    await crumbs.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await screenshot(page, 'settings');

    const main = page.getByRole('main');
    await main.getByRole('link', { name: 'Integrations' }).click();
    await main.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    expect(page.url()).toBe(`${hl.urls.app_url}/settings/integrations/webhooks`);
    // A deep path reloads as itself (the page and its assets come back).
    await page.reload();
    await page.getByRole('link', { name: `${sink.url}/hook` }).waitFor();
  });

  it('opens a document by its app URL, and again after a reload', async () => {
    const doc = await makeDocument('Deep link agreement');
    expect(doc.url).toBe(`${hl.urls.app_url}/documents?d=${encodeURIComponent(doc.public_id)}`);
    await page.goto(doc.url);
    await page.getByRole('heading', { name: 'Deep link agreement', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Deep link agreement', level: 1 }).waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('Deep link agreement');
    await page.getByText('document.created').first().waitFor();
    await screenshot(page, 'document-draft');
  });

  it('refuses a reminder while DRAFT, with the reason, and sends one while OUT_FOR_SIGNATURE', async () => {
    const doc = await makeDocument('Follow-up agreement');
    await go(`/documents?d=${doc.public_id}`);
    const remind = page.getByRole('button', { name: 'Send reminder' });
    expect(await remind.isDisabled()).toBe(true);
    const reason = await page.locator(`#${await remind.getAttribute('aria-describedby')}`).textContent();
    expect(reason).toMatch(/only while the document is out for signature/);

    await page.getByRole('button', { name: 'Send for signature' }).click();
    await waitUntil('reminder to be enabled', async () => !(await remind.isDisabled()), 5000, 50);
    await page.getByRole('button', { name: 'View as Ada Lovelace' }).click();
    await page.getByRole('button', { name: 'Sign as Ada Lovelace' }).click();
    await page.getByRole('button', { name: 'Sign as Ada Lovelace' }).waitFor({ state: 'detached' });
    await remind.click();
    await page.getByText('Reminder sent to 1 recipient.').waitFor();
    await screenshot(page, 'document-out-for-signature');

    await page.getByRole('link', { name: 'See notifications' }).click();
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await page.getByRole('cell', { name: 'Reminder', exact: true }).first().waitFor();
    // Only the recipient who has not signed is reminded.
    const rows = await page
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    const reminded = rows.filter((cells) => cells[1] === 'Reminder').map((cells) => cells[2]);
    expect(reminded).toEqual(['Alan Turing <alan@example.com>']);
    await go('/notifications');
    await screenshot(page, 'notifications');
  });

  it('saves an edited title that the API then returns', async () => {
    const doc = await makeDocument('Title before');
    await go(`/documents?d=${doc.public_id}`);
    await page.getByLabel('Title').fill('Title after the edit');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    const got = await api('GET', `/documents/${doc.public_id}`);
    expect(got.body.title).toBe('Title after the edit');
    await page.getByRole('heading', { name: 'Title after the edit', level: 1 }).waitFor();
  });

  it('shows a title containing HTML as text, everywhere', async () => {
    const evil = '<img src=x onerror=alert(1)> quarterly NDA';
    const doc = await makeDocument(evil);
    await go(`/documents?d=${doc.public_id}`);
    expect(await page.locator('main h1').textContent()).toBe(evil);
    await go('/documents');
    await page.getByRole('link', { name: evil }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    await screenshot(page, 'documents-list');
  });

  it('makes a new document from the keyboard and lands on its page', async () => {
    await go('/documents');
    await page.getByRole('button', { name: 'New document' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New document' });
    await dialog.waitFor();
    // Focus starts in the dialog, on the title.
    expect(await page.evaluate<string>('document.activeElement.id')).toBe(await dialog.getByLabel('Title').getAttribute('id'));
    await page.keyboard.type('Keyboard contract');
    await dialog.getByLabel('Recipient 1 name').fill('Grace Hopper');
    await dialog.getByLabel('Recipient 1 email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Create document' }).click();
    await dialog.getByText('must be an email address').waitFor();
    await screenshot(page, 'new-document-dialog');
    await dialog.getByLabel('Recipient 1 email').fill('grace@example.com');
    await dialog.getByLabel('Recipient 1 email').press('Enter');
    await page.getByRole('heading', { name: 'Keyboard contract', level: 1 }).waitFor();
    expect(page.url()).toContain('/app/documents?d=doc_');
    await page.keyboard.press('Escape'); // nothing open: harmless
  });

  it('manages API keys: a key shown once, then revoked', async () => {
    await go('/settings/api-keys');
    await page.getByLabel('Label').fill('Nightly job');
    await page.getByLabel('Role').selectOption('admin');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'API key created' });
    const key = (await dialog.getByLabel('API key', { exact: true }).textContent())!;
    await screenshot(page, 'api-key-created');
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect(await page.content()).not.toContain(key);
    await screenshot(page, 'api-keys');
    await page.getByRole('button', { name: /^Revoke Nightly job/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('cell', { name: 'Nightly job', exact: true }).waitFor({ state: 'detached' });
    const res = await fetch(`${hl.urls.api_url}/v2/webhooks`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(401);
  });

  it('looks right in the dark theme too', async () => {
    const dark = await newPage(browser, { colorScheme: 'dark' });
    try {
      await dark.page.goto(hl.urls.console_url);
      await dark.page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
      const bg = await dark.page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
      expect(bg).toBe('rgb(14, 14, 17)');
      await screenshot(dark.page, 'dark-documents-list');
      const doc = (await api('GET', '/v2/webhooks')).body.data[0];
      await dark.page.goto(`${hl.urls.app_url}/settings/integrations/webhooks/${doc.public_id}`);
      await dark.page.getByRole('heading', { name: 'Delivery log' }).waitFor();
      await dark.page
        .getByRole('button', { name: /^Attempts of document\.created/ })
        .first()
        .click();
      await dark.page.getByText('Attempt 1').first().waitFor();
      await screenshot(dark.page, 'dark-subscription');
      const docs = await fetch(`${hl.urls.api_url}/console/api/documents?q=Follow-up`, {
        headers: { 'x-console-token': hl.urls.console_url.split('#token=')[1] },
      }).then((r) => r.json() as Promise<any>);
      await dark.page.goto(docs.data[0].url);
      await dark.page.getByRole('heading', { name: 'Follow-up agreement' }).waitFor();
      await screenshot(dark.page, 'dark-document');
      expect(dark.problems.errors).toEqual([]);
    } finally {
      await dark.context.close();
    }
  });

  it('tells a visitor without the token how to get in, and a wrong path that it is wrong', async () => {
    const stranger = await newPage(browser);
    try {
      await stranger.page.goto(`${hl.urls.app_url}/documents`);
      await stranger.page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      await screenshot(stranger.page, 'no-token');
    } finally {
      await stranger.context.close();
    }
    await go('/no/such/screen');
    await page.getByText('Nothing lives at /no/such/screen.').waitFor();
  });

  it('ran without page errors or Content-Security-Policy violations', () => {
    expect(problems.errors).toEqual([]);
    // 4xx answers the tests provoked on purpose are logged by Chromium as "Failed to load resource".
    expect(problems.consoleErrors.filter((m) => !m.startsWith('Failed to load resource'))).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
