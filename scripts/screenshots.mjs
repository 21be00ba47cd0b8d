#!/usr/bin/env node
// Every console screen, photographed: `node scripts/screenshots.mjs <out-dir>`.
//
// Starts the BUILT headless entry (building first when out/ is stale) on free ports with
// a throw-away data directory, seeds it with data a person would have after a few minutes
// (documents in every state, subscriptions that deliver, retry and fail, inboxes with
// captures, an API key), then drives Debian's Chromium (/usr/bin/chromium, or
// CHROMIUM_PATH) through playwright-core and writes `<screen>-<width>-<scheme>.png` for
// every screen at every width, light and dark. Nothing is downloaded.
//
// Options: --widths 800,1024,1400,1920   --schemes light,dark   --only documents,inspector
// Other helpers and tests reuse the parts: seedDemo(), SCREENS and shoot() are exported.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { ROOT, ensureBuilt } from './build-state.mjs';

export const WIDTHS = [800, 1024, 1400, 1920];
export const SCHEMES = ['light', 'dark'];
const ADMIN_KEY = 'cs_screenshots_admin_key_0123456789';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];

/** Starts out/main/headless.js on free ports; resolves with its ready line and a stop(). */
export async function startInstance(env = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-shots-'));
  const child = spawn(
    process.execPath,
    [join(ROOT, 'out/main/headless.js'), '--port', '0', '--receiver-port', '0', '--data-dir', dataDir],
    {
      env: { ...process.env, COUNTERSIGN_ADMIN_KEY: ADMIN_KEY, COUNTERSIGN_RETRY_SCHEDULE: '1,600,3600', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((r) => child.once('exit', r));
  const ready = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once('line', (line) => ok(JSON.parse(line)));
    void exited.then((code) => fail(new Error(`headless exited (${code}) before ready: ${stderr}`)));
  });
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  return { ...ready, adminKey: ADMIN_KEY, stop };
}

async function call(base, method, path, body, headers) {
  const res = await fetch(base + path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const until = async (what, check, ms = 15000) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/**
 * Seeds an instance: two inboxes (one answers 200, one 503 so its deliveries wait for a
 * retry), a subscription to each plus one to a closed port, documents in every state,
 * a member API key. Resolves with ids the screens' URLs need.
 */
export async function seedDemo(inst) {
  const token = new URLSearchParams(new URL(inst.console_url).hash.slice(1)).get('token');
  const api = (m, p, b) => call(inst.api_url, m, p, b, { 'x-api-key': inst.adminKey });
  const con = (m, p, b) => call(inst.api_url, m, `/console/api${p}`, b, { 'x-console-token': token });

  const orders = await con('POST', '/inboxes', { name: 'Orders endpoint' });
  const flaky = await con('POST', '/inboxes', { name: 'Flaky endpoint', response: { mode: 'status', status: 503 } });
  const sub = (await con('POST', `/inboxes/${orders.id}/subscribe`, { type: 'all' })).subscription;
  await con('POST', `/inboxes/${flaky.id}/subscribe`, { type: 'document.completed' });
  await api('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/webhooks/countersign', type: 'all' });
  await api('POST', '/v2/webhooks', {
    url: 'https://hooks.example.com/a/very/long/path/that/does/not/fit/countersign',
    type: 'document.recipient_completed',
  });
  // A second subscription to the orders inbox's URL: the lists tell the two apart by id and type.
  await api('POST', '/v2/webhooks', { url: orders.local_url, type: 'document.voided' });
  // The same webhook-id twice, as a sender's retry after a lost answer: the second capture is a duplicate.
  for (let i = 0; i < 2; i++)
    await fetch(orders.local_url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_seenbefore',
        'webhook-timestamp': '1767225600',
        'webhook-signature': 'v1,AAAA',
      },
      body: '{"type":"document.sent"}',
    }).then((r) => r.arrayBuffer());
  await con('POST', '/api-keys', { role: 'member', label: 'CI pipeline' });
  await con('POST', '/import', importedFile());

  const people = [
    { name: 'Ada Lovelace', email: 'ada@example.com' },
    { name: 'Alan Turing', email: 'alan.turing.with.a.long.address@example.org' },
  ];
  const make = (title) => api('POST', '/v2/test_helpers/documents', { title, recipients: people, metadata: { crm_id: 'A-1' } });
  const act = (id, action, recipient_id) => api('POST', `/v2/test_helpers/documents/${id}/${action}`, recipient_id ? { recipient_id } : {});
  await make('Draft lease (not sent yet)');
  const lease = await make('Office lease 2026 — Building C, floors 3 to 5, with parking annex');
  await act(lease.public_id, 'send');
  await act(lease.public_id, 'view', lease.recipients[0].public_id);
  await act(lease.public_id, 'complete', lease.recipients[0].public_id);
  const nda = await make('Mutual NDA');
  await act(nda.public_id, 'send');
  await act(nda.public_id, 'complete', nda.recipients[0].public_id);
  await act(nda.public_id, 'complete', nda.recipients[1].public_id);
  const voided = await make('Voided offer letter');
  await act(voided.public_id, 'send');
  await act(voided.public_id, 'void');

  // Wait until the inbox has its captures and a delivery is waiting for its retry.
  const deliveries = await until('deliveries', async () => {
    const page = await api('GET', `/v2/webhooks/${sub.public_id}/deliveries?limit=10`);
    return page.data.length >= 3 && page.data.every((d) => d.status !== 'pending') ? page.data : null;
  });
  const feed = await until('the inspector feed', async () => {
    const page = await con('GET', '/inspector/feed?limit=50');
    return page.data.some((r) => r.kind === 'capture') ? page.data : null;
  });
  const capture = feed.find((r) => r.kind === 'capture');
  const delivery = feed.find((r) => r.kind === 'delivery');
  return { token, document: lease.public_id, subscription: sub.public_id, delivery: deliveries[0].id, capture, row: delivery };
}

/** A bug report's export: an inbox that answered 503 and a delivery waiting for a retry when exported. */
function importedFile() {
  const at = Date.now() - 5 * 60_000;
  return {
    format: 'countersign-export',
    version: 1,
    inboxes: [
      {
        id: 'inb_fromreport',
        name: 'From a bug report',
        created_at: new Date(at).toISOString(),
        response: { mode: 'status', status: 503 },
      },
    ],
    captures: [],
    events: [],
    deliveries: [
      {
        delivery: {
          id: 'msg_fromreport',
          event_id: 'evt_fromreport',
          event_type: 'document.completed',
          subscription_id: 'wh_elsewhere',
          company_id: 'co_elsewhere',
          document_id: 'doc_fromreport',
          url: 'https://example.com/webhooks',
          status: 'pending',
          attempts: 2,
          created_at: new Date(at).toISOString(),
          last_attempt_at: new Date(at + 60_000).toISOString(),
          last_status_code: 503,
          last_error: null,
          last_duration_ms: 14,
          next_attempt_at: at + 10 * 60_000,
        },
        attempts: [],
      },
    ],
  };
}

/** Every screen: its file name and its in-app path (under app_url) for a seeded instance. */
export const SCREENS = [
  { name: 'documents', path: () => '/documents' },
  { name: 'document', path: (s) => `/documents?d=${s.document}` },
  { name: 'notifications', path: () => '/notifications' },
  { name: 'inspector', path: () => '/inspector' },
  { name: 'inspector-delivery', path: (s) => `/inspector?row=${encodeURIComponent(s.row.ref)}` },
  { name: 'inspector-imported', path: () => `/inspector?row=${encodeURIComponent('d:msg_fromreport')}` },
  { name: 'inspector-compare', path: (s) => `/inspector?row=${encodeURIComponent(s.capture.ref)}&compare=${s.capture.id}` },
  { name: 'receiver', path: () => '/receiver' },
  { name: 'check', path: () => '/check' },
  { name: 'scenarios', path: () => '/scenarios' },
  { name: 'events', path: () => '/events' },
  { name: 'settings', path: () => '/settings' },
  { name: 'integrations', path: () => '/settings/integrations' },
  { name: 'webhooks', path: () => '/settings/integrations/webhooks' },
  { name: 'subscription', path: (s) => `/settings/integrations/webhooks/${s.subscription}?delivery=${s.delivery}` },
  { name: 'api-keys', path: () => '/settings/api-keys' },
  // A browser that never opened the console link: the sign-in page.
  { name: 'sign-in', path: (s) => `/documents?d=${s.document}`, signedOut: true },
];

/** Waits until the screen has its heading and nothing says "Loading". */
async function settled(page) {
  await page.locator('main h1').first().waitFor({ timeout: 15000 });
  // Polled from here: the page's CSP forbids the string evaluation waitForFunction needs.
  await until(
    'the screen to load',
    async () => !(await page.evaluate("/Loading/.test(document.querySelector('main')?.textContent ?? '')")),
  );
  await page.waitForTimeout(300); // fonts and the last paint
}

/** Photographs `screens` of a seeded instance into `dir`; resolves with the files written. */
export async function shoot({ inst, seed, dir, widths = WIDTHS, schemes = SCHEMES, screens = SCREENS }) {
  await mkdir(dir, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const files = [];
  const problems = [];
  try {
    for (const scheme of schemes) {
      for (const width of widths) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
        const page = await context.newPage();
        page.on('pageerror', (e) => problems.push(`${scheme} ${width}: ${e.message}`));
        await page.goto(inst.console_url);
        await settled(page);
        const stranger = await (await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme })).newPage();
        for (const screen of screens) {
          const tab = screen.signedOut ? stranger : page;
          await tab.goto(`${inst.app_url}${screen.path(seed)}`);
          await settled(tab);
          const file = join(dir, `${screen.name}-${width}-${scheme}.png`);
          await tab.screenshot({ path: file, fullPage: true });
          files.push(file);
        }
        await stranger.context().close();
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return { files, problems };
}

function parseArgs(argv) {
  const opts = { dir: '', widths: WIDTHS, schemes: SCHEMES, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--widths') opts.widths = argv[++i].split(',').map(Number);
    else if (a === '--schemes') opts.schemes = argv[++i].split(',');
    else if (a === '--only') opts.only = argv[++i].split(',');
    else if (!a.startsWith('--')) opts.dir = resolve(a);
    else throw new Error(`unknown option ${a}`);
  }
  if (!opts.dir)
    throw new Error(
      'usage: node scripts/screenshots.mjs <out-dir> [--widths 800,1400] [--schemes light,dark] [--only documents,inspector]',
    );
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!ensureBuilt()) process.exit(1);
  const inst = await startInstance();
  try {
    const seed = await seedDemo(inst);
    const screens = opts.only ? SCREENS.filter((s) => opts.only.includes(s.name)) : SCREENS;
    const { files, problems } = await shoot({ inst, seed, dir: opts.dir, widths: opts.widths, schemes: opts.schemes, screens });
    console.log(`${files.length} screenshots in ${opts.dir}`);
    for (const p of problems) console.error(`page error: ${p}`);
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    await inst.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
