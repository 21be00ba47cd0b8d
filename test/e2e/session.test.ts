// The console session in a real browser (Debian's Chromium against the built headless
// entry): a browser that opened the console link once opens any console link in any tab
// (the HttpOnly session cookie), a browser that never had the token gets the sign-in page
// and gets in with the pasted token, and a page of another origin cannot use the session.
// The "other origin" is a plain loopback server on another port (same site as the
// console, other origin) and the same server under localhost (another site).
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { HEADLESS_ENTRY, startHeadless, type Headless } from '../helpers/headless.js';
import { chromiumAvailable, launchBrowser, newPage } from '../helpers/browser.js';
import { waitUntil } from '../helpers/wait.js';

const ready = existsSync(HEADLESS_ENTRY) && chromiumAvailable();
if (!ready) console.warn('session e2e skipped: run `npm run build` and install Chromium (apt-get install -y chromium)');

let hl: Headless;
let browser: Browser;
let attacker: Server;
let attackerPort: number;
let docId: string;
let docUrl: string;

/** A page of another origin that tries to use the console session: a write with credentials, and a link to a read. */
function attackerPage(api: string): string {
  return `<!doctype html><title>other site</title>
<a id="read" href="${api}/console/api/session">read the session</a>
<script>
fetch(${JSON.stringify(`${api}/console/api/api-keys`)}, {
  method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: { 'content-type': 'text/plain' }, body: '{"role":"admin","label":"made by another site"}',
}).finally(() => { document.title = 'sent'; });
</script>`;
}

describe.skipIf(!ready)('console session in Chromium', () => {
  beforeAll(async () => {
    hl = await startHeadless();
    browser = await launchBrowser();
    const doc = await hl.api('POST', '/v2/test_helpers/documents', {
      title: 'Lease for the deep link',
      recipients: [{ name: 'Ada Lovelace', email: 'ada@example.com' }],
    });
    expect(doc.status).toBe(201);
    docId = doc.body.public_id;
    docUrl = doc.body.url;
    attacker = createServer((_req, res) => res.setHeader('content-type', 'text/html').end(attackerPage(hl.urls.api_url)));
    await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
    attackerPort = (attacker.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await browser?.close();
    await hl?.stop();
    await new Promise((r) => attacker?.close(r));
  });

  it('opens the document URL in a second tab of a browser that opened the console link once', async () => {
    expect(docUrl).toBe(`${hl.urls.app_url}/documents?d=${docId}`);
    const { context, page, problems } = await newPage(browser);
    await page.goto(hl.urls.console_url);
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
    const cookies = await context.cookies(hl.urls.api_url + '/console/api');
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console/api', expires: -1 });
    expect(cookies[0].value).not.toBe(hl.consoleToken);
    expect(await page.evaluate('JSON.stringify([Object.keys(sessionStorage), Object.keys(localStorage)])')).toBe('[[],[]]');

    const second = await context.newPage();
    await second.goto(docUrl);
    await second.getByRole('heading', { name: 'Lease for the deep link', level: 1 }).waitFor();
    await second.reload();
    await second.getByRole('heading', { name: 'Lease for the deep link', level: 1 }).waitFor();
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('shows a browser that never had the token the sign-in page, which takes the pasted link', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(docUrl);
    await page.getByRole('heading', { name: 'Sign in to the console', level: 1 }).waitFor();
    const field = page.getByLabel('Console link or token');
    await field.fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That is not the token of this run').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill(hl.urls.console_url);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Lease for the deep link', level: 1 }).waitFor();
    expect(page.url()).toBe(docUrl);
    // Signed in: a new tab of the same browser needs nothing more.
    const other = await context.newPage();
    await other.goto(`${hl.urls.app_url}/settings/integrations/webhooks`);
    await other.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await context.close();
  });

  it('lets no page of another origin or site use the session', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(hl.urls.console_url);
    await page.getByRole('heading', { name: 'Documents', level: 1 }).waitFor();
    const before = await hl.consoleApi('GET', '/api-keys');
    for (const host of [`127.0.0.1:${attackerPort}`, `localhost:${attackerPort}`]) {
      await page.goto(`http://${host}/`);
      await waitUntil('the other page’s request', async () => (await page.title()) === 'sent');
      // A link followed from that page: the browser sends the cookie (same site) but says where it comes from.
      await page.click('#read');
      await page.waitForURL(`${hl.urls.api_url}/console/api/session`);
      const body = JSON.parse((await page.locator('body').textContent()) ?? '{}');
      expect(['forbidden', 'unauthorized']).toContain(body.error?.code);
      expect(body.api_key).toBeUndefined();
    }
    const after = await hl.consoleApi('GET', '/api-keys');
    expect(after.body.data.length).toBe(before.body.data.length);
    expect(JSON.stringify(after.body)).not.toContain('made by another site');
    await context.close();
  });
});
