// The measured phases. Each returns plain figures; run.mjs turns them into table rows.
import { join } from 'node:path';
import { Pool } from 'undici';
import { cpuSeconds, runNode, rssOf } from './procs.mjs';
import { call, sleep } from './http.mjs';
import { receiverStats, waitDrained } from './countersign.mjs';
import { countHistoryDeliveries, dirSize, fileSize } from './disk.mjs';

const here = new URL('..', import.meta.url).pathname;
const LOAD = join(here, 'load.mjs');

/** Untimed deliveries each side of row 3 makes before its measured window (the reference's requests, the service's deliveries). */
export const WARMUP_DELIVERIES = 5000;

export const load = (cfg, name) =>
  runNode(LOAD, [JSON.stringify(cfg)], { name, timeoutMs: (cfg.warmupMs ?? 0) + (cfg.durationMs ?? 0) + (cfg.maxMs ?? 120_000) + 30_000 });

/** What the data directory holds right now. */
export async function snapshot(ctx) {
  return {
    data_json_bytes: await fileSize(join(ctx.dataDir, 'data.json')),
    history_bytes: await dirSize(join(ctx.dataDir, 'history')),
    history_deliveries: await countHistoryDeliveries(join(ctx.dataDir, 'history')),
    rss_bytes: rssOf(ctx.cs.pid),
  };
}

/** Waits until the history files hold `expected` deliveries (its writer batches by a few ms). */
export async function waitHistory(ctx, expected, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let n = 0;
  for (let i = 0; i < 400 && Date.now() < deadline; i++) {
    n = await countHistoryDeliveries(join(ctx.dataDir, 'history'));
    if (n >= expected) return n;
    await sleep(50);
  }
  throw new Error(`history holds ${n} deliveries, expected ${expected}`);
}

function putBase(ctx, tag) {
  return {
    origin: ctx.cs.api,
    method: 'PUT',
    paths: ctx.docs.map((d) => `/documents/${d}`),
    headers: { 'x-api-key': ctx.cs.key, 'content-type': 'application/json' },
    body: { kind: 'title', tag },
  };
}

/** Sends exactly `count` PUTs (each one event, one delivery per subscription) and waits until all are delivered and logged. */
export async function putCount(ctx, count, connections, tag) {
  if (count <= 0) return null;
  const r = await load({ ...putBase(ctx, tag), connections, count }, 'PUT count load');
  if (r.errors) throw new Error(`PUT count load: ${r.errors} errors ${JSON.stringify(r.statuses)} ${r.firstError ?? ''}`);
  ctx.expectedCs += r.requests * ctx.subs.length;
  await waitDrained(ctx.cs, ctx.receiver.url, ctx.expectedCs);
  return r;
}

/**
 * Row 2: PUT for a fixed time, `rounds` times (each followed by a drain of the
 * deliveries it made); the best round is reported, with the history size at its start.
 */
export async function putPhase(ctx, { durationMs, connections, tag, rounds }) {
  const all = [];
  for (let i = 0; i < rounds; i++) {
    const before = await snapshot(ctx);
    const r = await load({ ...putBase(ctx, `${tag}-${i}`), connections, warmupMs: 0, durationMs, watchPids: [ctx.cs.pid] }, 'PUT load');
    const ok = r.statuses['200'] ?? 0;
    ctx.expectedCs += ok * ctx.subs.length;
    const rssAfterLoad = rssOf(ctx.cs.pid);
    await waitDrained(ctx.cs, ctx.receiver.url, ctx.expectedCs);
    all.push({ load: r, before, rssAfterLoad });
  }
  const top = all.reduce((a, b) => (b.load.rps > a.load.rps ? b : a));
  return {
    ...top,
    rounds: all.map((x) => ({ rps: x.load.rps, p99: x.load.latencyMs.p99, history_deliveries: x.before.history_deliveries })),
  };
}

/** Counts, over every subscription, the deliveries made since `sinceIso` by "status/attempts". */
async function loggedStatuses(ctx, sinceIso) {
  const statuses = {};
  for (const sub of ctx.subs) {
    const c = await ctx.cs.deliveryStatuses(sub.id, sinceIso);
    for (const [k, v] of Object.entries(c)) statuses[k] = (statuses[k] ?? 0) + v;
  }
  return statuses;
}

/**
 * Row 3: `puts` PUTs fan out to every subscription; the clock runs from the first PUT
 * sent to the moment the receiver has every delivery and the engine has none in flight
 * (so each attempt is logged). Every delivery is then checked in the delivery log.
 */
export async function deliveryBurst(ctx, { puts }) {
  const n = puts * ctx.subs.length;
  // The previous phase has drained, so every delivery made from now on belongs to this one.
  const sinceIso = new Date().toISOString();
  const target = ctx.expectedCs + n;
  const cpu0 = { cs: cpuSeconds(ctx.cs.pid), csMain: cpuSeconds(ctx.cs.pid, true), receiver: cpuSeconds(ctx.receiver.pid) };
  // How big the live store file gets while the burst is pending (every commit rewrites it).
  let maxDataJson = 0;
  const sampler = setInterval(() => {
    fileSize(join(ctx.dataDir, 'data.json')).then((n) => {
      maxDataJson = Math.max(maxDataJson, n);
    });
  }, 100);
  const loadDone = load({ ...putBase(ctx, 'fanout'), connections: 50, count: puts }, 'PUT fan-out load');
  let drainedAt;
  try {
    drainedAt = await waitDrained(ctx.cs, ctx.receiver.url, target, { timeoutMs: 150_000 });
  } finally {
    clearInterval(sampler);
  }
  const cpu = {
    cs: cpuSeconds(ctx.cs.pid) - cpu0.cs,
    csMain: cpuSeconds(ctx.cs.pid, true) - cpu0.csMain,
    receiver: cpuSeconds(ctx.receiver.pid) - cpu0.receiver,
  };
  const putLoad = await loadDone;
  if (putLoad.errors) throw new Error(`fan-out PUTs: ${putLoad.errors} errors ${JSON.stringify(putLoad.statuses)}`);
  ctx.expectedCs = target;
  const seconds = (drainedAt - putLoad.startedAt) / 1000;
  return {
    n,
    seconds,
    rate: n / seconds,
    cpu,
    maxDataJson,
    putLoad,
    rssAfter: rssOf(ctx.cs.pid),
    statuses: await loggedStatuses(ctx, sinceIso),
  };
}

/**
 * Diagnostic beside row 3: the same fan-out, but the receiver holds its answers while
 * the PUTs store the events, so a backlog of stored deliveries builds up; the clock runs
 * from the release to the last delivery logged. Separates the engine's own rate from
 * the cost of making the events.
 */
export async function deliveryBacklog(ctx, { puts }) {
  const n = puts * ctx.subs.length;
  const sinceIso = new Date().toISOString();
  const target = ctx.expectedCs + n;
  await call(`${ctx.receiver.url}/__hold`, { method: 'POST' });
  let putLoad;
  let released;
  // The service's CPU while it stores the PUTs (the receiver holds the 64 requests in flight):
  // the PUT side of a delivery (HTTP, the document, the fan-out, the commits) without its sending.
  const put0 = { cs: cpuSeconds(ctx.cs.pid), csMain: cpuSeconds(ctx.cs.pid, true) };
  const putCpu = {};
  try {
    putLoad = await load({ ...putBase(ctx, 'backlog'), connections: 50, count: puts }, 'PUT backlog load');
    await sleep(200); // the last commits' wake-ups reach the engine
    putCpu.cs = cpuSeconds(ctx.cs.pid) - put0.cs;
    putCpu.csMain = cpuSeconds(ctx.cs.pid, true) - put0.csMain;
  } finally {
    released = await call(`${ctx.receiver.url}/__release`, { method: 'POST' });
  }
  if (putLoad.errors) throw new Error(`backlog PUTs: ${putLoad.errors} errors`);
  // From just after the release (a few ms late): the service's CPU time while it sends the backlog.
  const cpu0 = cpuSeconds(ctx.cs.pid);
  const cpuMain0 = cpuSeconds(ctx.cs.pid, true);
  const drainedAt = await waitDrained(ctx.cs, ctx.receiver.url, target, { timeoutMs: 150_000 });
  const cpu = cpuSeconds(ctx.cs.pid) - cpu0;
  const cpuMain = cpuSeconds(ctx.cs.pid, true) - cpuMain0;
  ctx.expectedCs = target;
  const seconds = (drainedAt - released.at) / 1000;
  return {
    n,
    seconds,
    rate: n / seconds,
    releasedAt: released.at,
    drainedAt,
    cpu,
    cpuMain,
    held: released.released,
    enqueueSeconds: putLoad.seconds,
    putCpu,
    putsFrom: putLoad.startedAt,
    statuses: await loggedStatuses(ctx, sinceIso),
  };
}

/** The reference for row 3: a plain undici client POSTing the captured body `n` times (after a warm-up), nothing stored. */
export async function deliveryReference(ctx, { n, connections }) {
  const sample = await call(`${ctx.receiver.url}/__sample`);
  const headers = { 'content-type': 'application/json' };
  for (const h of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) headers[h] = sample.headers[h];
  const r = await load(
    {
      origin: ctx.receiver.url,
      method: 'POST',
      paths: ['/ref/0'],
      headers,
      body: { kind: 'fixed', text: sample.body },
      connections,
      count: n,
      warmupCount: Math.min(WARMUP_DELIVERIES, n),
      watchPids: [ctx.receiver.pid],
    },
    'reference delivery client',
  );
  return { ...r, bodyBytes: Buffer.byteLength(sample.body) };
}

/**
 * Seeds the history up to `goal` deliveries through the real path (PUTs fanned out to
 * every subscription), keeping at most `maxBacklog` deliveries waiting, then drains.
 */
export async function seed(ctx, goal, { maxBacklog = 10_000, batch = 50, timeoutMs = 150_000 }) {
  const started = performance.now();
  const fan = ctx.subs.length;
  const need = Math.ceil(Math.max(0, goal - ctx.expectedCs) / fan);
  const pool = new Pool(ctx.cs.api, { connections: batch, pipelining: 1 });
  const headers = { 'x-api-key': ctx.cs.key, 'content-type': 'application/json' };
  let sent = 0;
  const deadline = Date.now() + timeoutMs;
  const maxRounds = need * 4 + 10_000;
  try {
    for (let round = 0; sent < need && round < maxRounds; round++) {
      if (Date.now() > deadline) throw new Error(`seeding: not done within ${timeoutMs} ms (${sent}/${need} PUTs)`);
      const arrived = (await receiverStats(ctx.receiver.url)).counts.cs;
      if (ctx.expectedCs + sent * fan - arrived > maxBacklog) {
        await sleep(10);
        continue;
      }
      const k = Math.min(batch, need - sent);
      const results = await Promise.all(
        Array.from({ length: k }, (_, i) => {
          const doc = ctx.docs[(sent + i) % ctx.docs.length];
          return pool
            .request({ path: `/documents/${doc}`, method: 'PUT', headers, body: JSON.stringify({ title: `Seed ${sent + i}` }) })
            .then(async (res) => {
              await res.body.dump();
              return res.statusCode;
            });
        }),
      );
      const bad = results.filter((s) => s !== 200);
      if (bad.length) throw new Error(`seeding: PUT answered ${bad[0]}`);
      sent += k;
    }
  } finally {
    await pool.close();
  }
  ctx.expectedCs += sent * fan;
  await waitDrained(ctx.cs, ctx.receiver.url, ctx.expectedCs, { timeoutMs });
  return { puts: sent, deliveries: sent * fan, seconds: (performance.now() - started) / 1000 };
}
