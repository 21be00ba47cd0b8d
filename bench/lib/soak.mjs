// Figures 5 and 6: a mixed soak on the service that already holds the seeded history,
// with its RSS read every second; then, once everything has drained, its idle RSS.
// Three load generators run at once for the whole soak, each in its own process and
// paced to a steady rate (so the mix is the same on a fast or a slow machine, and the
// service is busy but not asked for more than it can do):
//   GET  /documents/:id                        `getRate` per second;
//   PUT  /documents/:id (a new title)          `putRate` per second, each one event fanned
//                                              out to every subscription: 9 to the bench
//                                              receiver and 1 to an inbox of the service's
//                                              own receiver (so deliveries become captures);
//   POST <inbox>                               `inboxRate` per second of a `inboxBodyBytes`
//                                              JSON body, as a sender through the tunnel would.
// History retention (200,000 deliveries by default) is reached during the soak, so it
// also shows memory while old segments are dropped.
import { rssOf } from './procs.mjs';
import { call, sleep } from './http.mjs';
import { waitDrained } from './countersign.mjs';
import { load } from './phases.mjs';
import { collectGarbage } from './gc-hint.mjs';

function inboxBody(bytes) {
  const base = { type: 'order.updated', data: { id: 'ord_1', note: '' } };
  base.data.note = 'x'.repeat(Math.max(0, bytes - JSON.stringify(base).length));
  return JSON.stringify(base);
}

export async function soakPhase(ctx, { seconds, getRate, putRate, inboxRate, inboxBodyBytes, quick, log }) {
  const headers = { 'x-api-key': ctx.cs.key };
  const inbox = await call(`${ctx.cs.api}/v2/test_helpers/inboxes`, { method: 'POST', headers, body: { name: 'bench soak' } });
  const soakSubs = [];
  for (let i = 0; i < 8; i++) soakSubs.push((await ctx.cs.createSubscription(`${ctx.receiver.url}/cs/soak${i}`)).public_id);
  const inboxSub = (await ctx.cs.createSubscription(inbox.local_url)).public_id;
  const toReceiver = ctx.subs.length + soakSubs.length;
  log(
    `rows 5-6: ${seconds} s mixed soak: GET ${getRate}/s, PUT ${putRate}/s x ${toReceiver + 1} subscriptions, inbox POST ${inboxRate}/s of ${inboxBodyBytes} B`,
  );

  const sinceIso = new Date().toISOString();
  const samples = [];
  const t0 = performance.now();
  const sampler = setInterval(() => samples.push({ t: +((performance.now() - t0) / 1000).toFixed(1), rss: rssOf(ctx.cs.pid) }), 1000);
  const durationMs = seconds * 1000;
  const window = { warmupMs: 0, durationMs, maxMs: durationMs + 60_000 };
  const body = inboxBody(inboxBodyBytes);
  let gets, puts, posts;
  try {
    [gets, puts, posts] = await Promise.all([
      load(
        { ...window, origin: ctx.cs.api, method: 'GET', paths: [`/documents/${ctx.docs[0]}`], headers, connections: 8, rate: getRate },
        'soak GET',
      ),
      load(
        {
          ...window,
          origin: ctx.cs.api,
          method: 'PUT',
          paths: ctx.docs.map((d) => `/documents/${d}`),
          headers: { ...headers, 'content-type': 'application/json' },
          body: { kind: 'title', tag: 'soak' },
          connections: 8,
          rate: putRate,
        },
        'soak PUT',
      ),
      load(
        {
          ...window,
          origin: new URL(inbox.local_url).origin,
          method: 'POST',
          paths: [new URL(inbox.local_url).pathname],
          headers: { 'content-type': 'application/json' },
          body: { kind: 'fixed', text: body },
          connections: 8,
          rate: inboxRate,
        },
        'soak inbox POST',
      ),
    ]);
  } finally {
    clearInterval(sampler);
  }
  const endRss = rssOf(ctx.cs.pid);
  // Every PUT answered 200 made one delivery per subscription; wait for those to the bench receiver and for an empty engine.
  ctx.expectedCs += (puts.statuses['200'] ?? 0) * toReceiver;
  log('  soak over; draining');
  const drainStarted = performance.now();
  await waitDrained(ctx.cs, ctx.receiver.url, ctx.expectedCs, { timeoutMs: 180_000 });
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  const idleWaitMs = 10_000;
  await sleep(idleWaitMs);
  const idleRss = rssOf(ctx.cs.pid);
  // Then a full GC (Node's inspector, opened for this only) and a second more.
  let gc = null;
  let gcRss = null;
  try {
    await collectGarbage(ctx.cs.pid, ctx.cs.stderr);
    await sleep(1000);
    gcRss = rssOf(ctx.cs.pid);
  } catch (err) {
    gc = String(err?.message ?? err);
    log(`  no GC hint: ${gc}`);
  }
  // What the soak really did at the inbox: deliveries to it, by outcome, and what it captured (at most its retention).
  const inboxDeliveries = await ctx.cs.deliveryStatuses(inboxSub, sinceIso, 400);
  const inboxNow = await call(`${ctx.cs.api}/v2/test_helpers/inboxes/${inbox.id}`, { headers });
  const strip = (r) => ({
    requests: r.requests,
    rps: r.rps,
    errors: r.errors,
    statuses: r.statuses,
    latencyMs: r.latencyMs,
    firstError: r.firstError,
  });
  return {
    seconds,
    quick,
    peakRss: Math.max(...samples.map((s) => s.rss ?? 0), endRss ?? 0),
    endRss,
    samples,
    load: { get: strip(gets), put: strip(puts), inbox: strip(posts) },
    fanout: toReceiver + 1,
    asked: { getRate, putRate, inboxRate },
    inboxSubscription: inboxSub,
    inboxDeliveries,
    inboxCaptureCount: inboxNow.capture_count,
    drainSeconds,
    idle:
      gcRss != null
        ? { rss: gcRss, noGcRss: idleRss, how: `drained + ${idleWaitMs / 1000} s idle + full GC` }
        : { rss: idleRss, how: `drained + ${idleWaitMs / 1000} s idle, no GC (${gc})` },
  };
}
