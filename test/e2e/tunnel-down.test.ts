// The inspector's "tunnel down" mark in Chromium: a delivery to an inbox's public tunnel
// URL fails while the tunnel is off; its row carries the badge and its detail pane says
// the tunnel was offline and what to do. The backend runs in this process (serving the
// built console) so the tunnel's state can be set by hand: the ngrok cloud cannot be
// reached from a test (the one fake here); the public URL is on the reserved `.invalid`
// domain so the attempts really fail. Screenshots at 800 and 1400 px, light and dark, go
// to COUNTERSIGN_SHOTS_DIR (else test-results/shots/tunnel-down).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { waitUntil } from '../helpers/wait.js';
import { chromiumAvailable, launchBrowser, newPage } from '../helpers/browser.js';
import type { TunnelState } from '@shared/receiver-types.js';

const RENDERER = resolve('out/renderer');
const ready = existsSync(join(RENDERER, 'index.html')) && chromiumAvailable();
if (!ready) console.warn('tunnel-down e2e skipped: run `npm run build` and install Chromium (apt-get install -y chromium)');
const SHOTS = process.env.COUNTERSIGN_SHOTS_DIR ?? join('test-results', 'shots', 'tunnel-down');

let t: TestBackend;
let browser: Browser;
let page: Page;
let tunnel: TunnelState = { status: 'offline' };
const setTunnel = (state: TunnelState) => {
  tunnel = state;
  t.backend.bus.emit({ kind: 'tunnel', state: state.status });
};

async function shots(p: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme: scheme });
    for (const width of [800, 1400]) {
      await p.setViewportSize({ width, height: 900 });
      await p.screenshot({ path: join(SHOTS, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
}

describe.skipIf(!ready)('a delivery that failed while the tunnel was down, in Chromium', () => {
  beforeAll(async () => {
    t = await startTestBackend({ retrySchedule: [0.05] }, undefined, { rendererDir: RENDERER });
    t.backend.tunnel.state = () => tunnel;
    browser = await launchBrowser();
    ({ page } = await newPage(browser));
  });
  afterAll(async () => {
    await browser?.close();
    await t?.destroy();
  });

  it('marks the row and explains in the detail pane', async () => {
    const inbox = (await t.consoleApi('POST', '/inboxes', { name: 'Behind the tunnel' })).body;
    setTunnel({ status: 'online', public_url: 'https://shots-tunnel.invalid' });
    const sub = (await t.consoleApi('POST', `/inboxes/${inbox.id}/subscribe`, { type: 'all' })).body.subscription;
    setTunnel({ status: 'off' });
    expect((await t.api('POST', `/v2/webhooks/${sub.public_id}/test`)).status).toBe(202);
    const d = await waitUntil('the delivery to fail', async () => {
      const first = (await t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data[0];
      return first?.status === 'failed' ? first : undefined;
    });

    await page.goto(t.urls.console_url.replace('/app/#', `/app/inspector?row=d:${d.id}#`));
    const row = page
      .getByRole('listbox', { name: /newest first/ })
      .getByRole('option')
      .first();
    await row.getByText('tunnel down').waitFor();
    const notice = page.getByRole('note').filter({ hasText: 'The tunnel was offline when this was attempted' });
    await notice.waitFor();
    expect(await notice.getByRole('link', { name: 'receiver screen' }).getAttribute('href')).toContain('/receiver');
    await page.getByText('The tunnel was offline when this attempt was made.').first().waitFor();
    await shots(page, 'inspector-tunnel-down');
  });
});
