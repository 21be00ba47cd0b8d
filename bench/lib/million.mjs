// Figure 8: start-up with 1,000,000 deliveries of history, and the inspector over them.
//  1. A fresh Countersign (its own data directory) gets `fanout` subscriptions to the
//     bench receiver and one real delivery per subscription (a PUT); one of them, read
//     back through the API, is the template of every seeded delivery.
//  2. It is stopped; bench/seed-history.ts (bundled with rolldown, run in its own
//     process) appends `count` deliveries to its history through the real history-log
//     code, so the files are in the service's own format.
//  3. Countersign is started again on that directory (COUNTERSIGN_HISTORY_CAP above the
//     count, so all are kept): the time from spawn to its ready line and to its first
//     /v2 answer is the start-up time.
//  4. Paging, one request at a time (a person clicking): the inspector's first page (the
//     first inspector request after start-up), then pages
//     following next_cursor, deep pages of a subscription's delivery list via
//     starting_after spread over the whole history, and the inspector's detail of deep
//     deliveries (read from disk). "Instant" = p95 < 50 ms.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { runNode, rssOf, stopChild } from './procs.mjs';
import { call, waitFor } from './http.mjs';
import { startCountersign } from './countersign.mjs';
import { dirSize } from './disk.mjs';

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Times `get` over `urls`, one at a time. A failed request ends the measurement: it is reported, not hidden. */
async function timed(name, urls, get, { target = true } = {}) {
  const ms = [];
  let error = null;
  for (const u of urls) {
    const t0 = performance.now();
    try {
      await get(u);
    } catch (err) {
      error = String(err?.message ?? err).slice(0, 300);
      break;
    }
    ms.push(performance.now() - t0);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p) => (sorted.length ? pct(sorted, p) : null);
  return { name, n: ms.length, p50: at(50), p95: at(95), max: at(100), target, error };
}

/** Step 1: subscriptions, one real delivery each, the template. */
async function makeTemplate(cs, receiverUrl, fanout) {
  const subs = [];
  for (let i = 0; i < fanout; i++) {
    const url = `${receiverUrl}/cs/m${i}`;
    subs.push({ id: (await cs.createSubscription(url)).public_id, url });
  }
  const doc = (await cs.createDocument(0)).public_id;
  const headers = { 'x-api-key': cs.key };
  await call(`${cs.api}/documents/${doc}`, { method: 'PUT', headers, body: { title: 'Template for the 1M seeding' } });
  const sub = subs[0].id;
  const list = await waitFor(
    'the template delivery to succeed',
    async () => {
      const page = await call(`${cs.api}/v2/webhooks/${sub}/deliveries?limit=1`, { headers });
      return page.data[0]?.status === 'succeeded' ? page : null;
    },
    { timeoutMs: 30_000 },
  );
  const d = await call(`${cs.api}/v2/webhooks/${sub}/deliveries/${list.data[0].id}`, { headers });
  const { company_id } = await cs.consoleGet('/console/api/session');
  const detail = await cs.consoleGet(`/console/api/inspector/deliveries/${d.id}`);
  const { attempt_log, ...summary } = d;
  const a = attempt_log[attempt_log.length - 1];
  return {
    subs,
    company_id,
    template: {
      event: { ...detail.event, company_id, subscription_id: null },
      body: detail.event_body,
      delivery: { ...summary, company_id, next_attempt_at: null },
      attempt: { ...a, next_attempt_at: null },
    },
  };
}

async function bundleSeeder(root, outFile) {
  execFileSync(
    join(root, 'node_modules/.bin/rolldown'),
    [join(root, 'bench/seed-history.ts'), '--platform', 'node', '--format', 'esm', '--file', outFile],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

/** Starts Countersign on `dataDir`; times spawn -> ready line and spawn -> first /v2 answer. */
async function timedStart(root, dataDir, extraEnv) {
  const t0 = performance.now();
  const cs = await startCountersign({ root, dataDir, extraEnv, timeoutMs: 10 * 60_000 });
  const readySeconds = (performance.now() - t0) / 1000;
  await waitFor('a first /v2 answer', () => call(`${cs.api}/v2/webhooks?limit=1`, { headers: { 'x-api-key': cs.key } }).then(() => true), {
    timeoutMs: 60_000,
    intervalMs: 5,
  });
  return { cs, readySeconds, firstAnswerSeconds: (performance.now() - t0) / 1000 };
}

export async function millionPhase({ root, receiverUrl, count, fanout, cap, log }) {
  const dataDir = await mkdtemp(join(os.tmpdir(), 'countersign-bench-1m-'));
  const extraEnv = { COUNTERSIGN_HISTORY_CAP: String(cap) };
  try {
    log(`row 8: a data directory with ${count.toLocaleString('en-US')} deliveries (${dataDir}); cap ${cap.toLocaleString('en-US')}`);
    const first = await startCountersign({ root, dataDir, extraEnv });
    const { subs, template } = await makeTemplate(first, receiverUrl, fanout);
    await stopChild(first.child, 30_000);

    const seederFile = join(dataDir, 'seed-history.mjs');
    await bundleSeeder(root, seederFile);
    const configFile = join(dataDir, 'seed-config.json');
    const stepMs = Math.floor((10 * 24 * 3600 * 1000) / Math.ceil(count / fanout)); // spread over the 10 days before the template
    const startMs = Date.parse(template.event.timestamp) - 10 * 24 * 3600 * 1000 - 60_000;
    await writeFile(
      configFile,
      JSON.stringify({ dir: join(dataDir, 'history'), cap, count, subscriptions: subs, template, startMs, stepMs, sampleIds: 40 }),
    );
    log(`  seeding ${count.toLocaleString('en-US')} deliveries through the history-log code`);
    const seeded = await runNode(seederFile, [configFile], { name: 'history seeder', timeoutMs: 10 * 60_000 });
    const historyBytes = await dirSize(join(dataDir, 'history'));
    log(`  seeded in ${seeded.seconds.toFixed(1)} s (${(historyBytes / 2 ** 30).toFixed(2)} GiB); starting Countersign on it`);

    const { cs, readySeconds, firstAnswerSeconds } = await timedStart(root, dataDir, extraEnv);
    log(`  ready line after ${readySeconds.toFixed(2)} s, first /v2 answer after ${firstAnswerSeconds.toFixed(2)} s; paging`);
    const paging = await page(cs, subs[0].id, seeded.sample_ids);
    const rss = rssOf(cs.pid);
    // A failed request is explained by the service's own log (its stderr), kept in the JSON.
    const serviceLog = paging.some((p) => p.error) ? cs.stderr().slice(-4000) : undefined;
    const logged = /unexpected error: ([^\n]+)/.exec(serviceLog ?? '')?.[1];
    for (const p of paging) {
      const status = / -> (\d{3}) /.exec(p.error ?? '')?.[1];
      if (p.error) p.short = status ? `HTTP ${status}${logged ? `: ${logged}` : ''}` : p.error;
    }
    await stopChild(cs.child, 60_000);
    // A second start on the same directory (context: what the first start left behind, if anything, helps the next).
    const again = await timedStart(root, dataDir, extraEnv);
    await stopChild(again.cs.child, 60_000);
    log(`  second start: first /v2 answer after ${again.firstAnswerSeconds.toFixed(2)} s`);
    const restart = { readySeconds: again.readySeconds, firstAnswerSeconds: again.firstAnswerSeconds };
    return {
      history: count + fanout,
      seeded,
      historyBytes,
      startup: { readySeconds, firstAnswerSeconds },
      restart,
      paging,
      rss,
      serviceLog,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Step 4: the inspector and the delivery list over the seeded history. */
async function page(cs, subId, sampleIds) {
  const out = [];
  const headers = { 'x-api-key': cs.key };
  let feed;
  out.push(
    await timed('inspector: first page after start-up', ['/console/api/inspector/feed?limit=100'], async (u) => {
      feed = await cs.consoleGet(u);
    }),
  );
  if (feed && feed.data.length !== 100) out[0].error = `${feed.data.length} rows, expected 100`;
  out.push(
    await timed('inspector: next pages via next_cursor', Array.from({ length: 30 }), async () => {
      if (!feed?.next_cursor) throw new Error('no cursor to follow (the page before failed or was the last)');
      feed = await cs.consoleGet(`/console/api/inspector/feed?limit=100&cursor=${feed.next_cursor}`);
    }),
  );
  out.push(
    await timed(
      'delivery list: deep pages via starting_after',
      sampleIds.map((id) => `${cs.api}/v2/webhooks/${subId}/deliveries?limit=100&starting_after=${id}`),
      async (u) => {
        const p = await call(u, { headers });
        if (p.data.length === 0 && p.has_more) throw new Error('deep page empty');
      },
    ),
  );
  out.push(
    await timed(
      'inspector: detail of deep deliveries (from disk)',
      sampleIds.map((id) => `/console/api/inspector/deliveries/${id}`),
      async (u) => {
        const d = await cs.consoleGet(u);
        if (d.attempts.length !== 1 || d.attempts[0].request.body !== d.event_body)
          throw new Error(`detail ${u}: attempt body differs from the event body`);
      },
    ),
  );
  out.push(
    await timed('inspector: first page again (warm)', Array.from({ length: 20 }), () =>
      cs.consoleGet('/console/api/inspector/feed?limit=100'),
    ),
  );
  return out;
}
