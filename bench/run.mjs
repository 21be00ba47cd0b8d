// `npm run bench`: one run, one table. Countersign (the built headless entry, its own
// process) is measured next to references started in the same run: a bare node:http
// server for GET, a plain undici client for deliveries. Load comes from a separate
// process (bench/load.mjs); deliveries go to a separate counting receiver
// (bench/receiver.mjs). Everything binds to 127.0.0.1. Results: stdout and
// bench/results/latest.json. Flags: --profile (CPU profile of the service, summarised),
// --quick (shorter windows, for checking the harness), --keep (keep the data directory).
import { mkdtemp, mkdir, rm, writeFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startNode, stopChild, killAllChildren, rssOf } from './lib/procs.mjs';
import { call, getRaw, sleep } from './lib/http.mjs';
import { startCountersign } from './lib/countersign.mjs';
import {
  WARMUP_DELIVERIES,
  deliveryBacklog,
  deliveryBurst,
  deliveryReference,
  putCount,
  putPhase,
  seed,
  snapshot,
  waitHistory,
} from './lib/phases.mjs';
import { getPhase } from './lib/get-phase.mjs';
import { wrkMissing } from './lib/wrk.mjs';
import { millionPhase } from './lib/million.mjs';
import { soakPhase } from './lib/soak.mjs';
import { GC_HINT_NODE_ARGS } from './lib/gc-hint.mjs';
import { buildRows } from './lib/rows.mjs';
import { machineInfo, renderTable } from './lib/report.mjs';
import { summariseProfile } from './lib/profile.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const bench = join(root, 'bench');
const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const profile = args.has('--profile');
// --only=get,deliveries,history,million runs those groups of rows (history: rows 2 and 4-7); the others print "not run".
const GROUPS = ['get', 'deliveries', 'history', 'million'];
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : null;
for (const g of only ?? []) if (!GROUPS.includes(g)) throw new Error(`--only: unknown group "${g}" (groups: ${GROUPS.join(', ')})`);
const want = (group) => !only || only.has(group);
// --soak-seconds=N: the soak of rows 5-6 for N seconds (to iterate on memory); shorter than 3 minutes, it cannot PASS.
const soakArg = process.argv.find((a) => a.startsWith('--soak-seconds='));
const soakSeconds = soakArg ? Number(soakArg.slice('--soak-seconds='.length)) : quick ? 20 : 180;
if (!(soakSeconds > 0)) throw new Error(`--soak-seconds: not a positive number of seconds (${soakArg})`);
const WINDOW = quick ? { warmupMs: 500, durationMs: 2000 } : { warmupMs: 1000, durationMs: 5000 };
const P = {
  connections: 50,
  fanoutSubs: 50,
  fanoutPuts: quick ? 100 : 600,
  historyGoal: quick ? 20_000 : 130_000,
  referenceConnections: 64, // the engine's default COUNTERSIGN_DELIVERY_CONCURRENCY
  rounds: quick ? 2 : 3, // GET and PUT windows are repeated (GET alternated with its reference); the best is reported
  wrk: { threads: 2, connections: 64, seconds: quick ? 2 : 5, warmupSeconds: 1 },
  saturatedPct: 90, // the GET reference counts as saturated at this % of one core
  soak: { seconds: soakSeconds, getRate: 1000, putRate: 100, inboxRate: 100, inboxBodyBytes: 4096 },
  million: { count: quick ? 50_000 : 1_000_000, fanout: 10, cap: quick ? 60_000 : 1_100_000 },
};
const RUN_LIMIT_MS = 14 * 60_000;

function log(msg) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

/** Processes and fixtures: the receiver, Countersign (idle RSS taken fresh), 50 documents, one subscription, the GET references. */
async function setUp(ctx) {
  const receiverProc = await startNode(join(bench, 'receiver.mjs'), [], { name: 'receiver' });
  ctx.receiver = { ...receiverProc.ready, pid: receiverProc.child.pid };
  if (profile) await mkdir(ctx.profDir, { recursive: true });
  // GC_HINT_NODE_ARGS start nothing; they let the soak ask for a full GC at its very end (lib/gc-hint.mjs).
  const nodeArgs = [...GC_HINT_NODE_ARGS, ...(profile ? ['--cpu-prof', '--cpu-prof-dir', ctx.profDir] : [])];
  ctx.cs = await startCountersign({ root, dataDir: ctx.dataDir, nodeArgs });
  log(`Countersign pid ${ctx.cs.pid} at ${ctx.cs.api}; receiver at ${ctx.receiver.url}`);
  await sleep(2000); // start-up work settles
  ctx.idle = { fresh: rssOf(ctx.cs.pid) };
  // Fixtures: 50 documents (made before any subscription, so they deliver nothing), one subscription of type all.
  for (let i = 0; i < 50; i++) ctx.docs.push((await ctx.cs.createDocument(i)).public_id);
  ctx.subs.push({ id: (await ctx.cs.createSubscription(`${ctx.receiver.url}/cs/0`)).public_id });
  const doc = await getRaw(`${ctx.cs.api}/documents/${ctx.docs[0]}`, { 'x-api-key': ctx.cs.key });
  const docFile = join(ctx.dataDir, 'bench-document.json');
  await writeFile(docFile, doc.bytes);
  const refProc = await startNode(join(bench, 'ref-server.mjs'), [docFile], { name: 'reference server' });
  ctx.ref = { url: refProc.ready.url, pid: refProc.child.pid, child: refProc.child };
  const expressProc = await startNode(join(bench, 'express-server.mjs'), [docFile], { name: 'bare Express server' });
  ctx.express = { url: expressProc.ready.url, pid: expressProc.child.pid, child: expressProc.child };
  ctx.idle.ref = rssOf(ctx.ref.pid);
}

async function phaseGet(ctx) {
  const missing = wrkMissing();
  if (missing) {
    log(`row 1 skipped: ${missing}`);
    return { skipped: missing, rss: { cs: rssOf(ctx.cs.pid), ref: rssOf(ctx.ref.pid) } };
  }
  log(
    `row 1: GET /documents/:id with wrk (${P.wrk.threads} threads, ${P.wrk.connections} connections): Countersign, bare node:http, bare Express, alternated`,
  );
  return getPhase(ctx, { ...P.wrk, rounds: P.rounds, extraRounds: quick ? 0 : 2, saturatedPct: P.saturatedPct, log });
}

async function phaseDeliveries(ctx) {
  log(`row 3: deliveries end to end, ${P.fanoutPuts} PUTs x ${P.fanoutSubs} subscriptions, then the reference client`);
  for (let i = ctx.subs.length; i < P.fanoutSubs; i++)
    ctx.subs.push({ id: (await ctx.cs.createSubscription(`${ctx.receiver.url}/cs/${i}`)).public_id });
  const nDeliveries = P.fanoutPuts * P.fanoutSubs;
  // The reference replays a captured delivery: with --only=deliveries none was made yet, so one PUT makes one.
  if (ctx.expectedCs === 0) await putCount(ctx, 1, 1, 'sample');
  // The same warm-up for both sides, each right before its own window: the reference client
  // sends WARMUP_DELIVERIES untimed requests before its window (deliveryReference), so the
  // service first makes as many deliveries, untimed and drained, right before its burst (its
  // first deliveries otherwise pay for V8 optimizing the path, and with the reference's round
  // between them the service idled long enough for the idle collection to let its history
  // index go, so the burst measured that index's rebuild: docs/benchmark.md, "Each side warmed
  // right before its window").
  const refRounds = [await deliveryReference(ctx, { n: nDeliveries, connections: P.referenceConnections })];
  const warmupPuts = Math.ceil(Math.min(WARMUP_DELIVERIES, nDeliveries) / P.fanoutSubs);
  log(`row 3 warm-up: ${warmupPuts} PUTs x ${P.fanoutSubs} subscriptions, untimed (the reference's warm-up is as many requests)`);
  await putCount(ctx, warmupPuts, P.connections, 'warmup');
  const burst = await deliveryBurst(ctx, { puts: P.fanoutPuts });
  const backlog = await deliveryBacklog(ctx, { puts: P.fanoutPuts });
  refRounds.push(await deliveryReference(ctx, { n: nDeliveries, connections: P.referenceConnections }));
  return {
    ...burst,
    backlog,
    ref: refRounds.reduce((a, b) => (b.rps > a.rps ? b : a)),
    refRounds,
    bodyBytes: refRounds[1].bodyBytes,
  };
}

/** Deliveries figure 7 (a) measures at least. */
const DISK_SAMPLE = 10_000;

/** Seeds the history to the goal through the real path (PUTs fanned out to 100 subscriptions); disk per delivery over the seeding. */
async function phaseSeed(ctx, before) {
  // At least DISK_SAMPLE deliveries are added, so figure 7 (a) always has a sample: on a fast
  // run the earlier rows alone can pass the goal (figure 4 is then read at a larger history).
  const goal = Math.max(P.historyGoal, ctx.expectedCs + DISK_SAMPLE);
  log(`seeding the history to ${goal.toLocaleString('en-US')} deliveries (PUTs fanned out to 100 subscriptions)`);
  for (let i = ctx.subs.length; i < 100; i++)
    ctx.subs.push({ id: (await ctx.cs.createSubscription(`${ctx.receiver.url}/cs/${i}`)).public_id });
  const seeded = await seed(ctx, goal, {});
  for (const sub of ctx.subs.splice(1)) await ctx.cs.deleteSubscription(sub.id);
  seeded.history_deliveries = await waitHistory(ctx, ctx.expectedCs);
  const after = await snapshot(ctx);
  const deliveries = after.history_deliveries - before.history_deliveries;
  const bytes = after.history_bytes - before.history_bytes;
  const disk = { deliveries, bytes, bytesPerDelivery: bytes / deliveries, fanout: 100, totalBytes: after.history_bytes };
  disk.exact = await exactCheck(ctx);
  return { seeded, after, disk };
}

/** The last delivery the receiver got, byte for byte, against what the inspector's detail says was sent. */
async function exactCheck(ctx) {
  const sample = await call(`${ctx.receiver.url}/__sample`);
  const id = sample.headers['webhook-id'];
  const detail = await ctx.cs.consoleGet(`/console/api/inspector/deliveries/${id}`);
  const sent = detail.attempts[detail.attempts.length - 1]?.request;
  const diffs = [];
  if (sent?.body !== sample.body) diffs.push('body');
  for (const h of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'])
    if (sent?.headers?.[h] !== sample.headers[h]) diffs.push(h);
  return { delivery: id, bodyBytes: Buffer.byteLength(sample.body), diffs };
}

/** Rows 2 and 4-7: PUT at a small history, seeding to the goal, PUT at the large history, the soak. */
async function phaseHistory(ctx) {
  log('row 2: PUT /documents/:id at 1,000 deliveries in history');
  await putCount(ctx, 1000, P.connections, 'seed1k');
  await waitHistory(ctx, ctx.expectedCs);
  const beforePutSmall = await snapshot(ctx);
  const putSmall = await putPhase(ctx, { durationMs: WINDOW.durationMs, connections: P.connections, tag: 'small', rounds: P.rounds });
  await waitHistory(ctx, ctx.expectedCs);
  const afterPutSmall = await snapshot(ctx);
  // Disk per delivery with one subscription: every delivery has an event of its own (nothing shared).
  const diskSingle = {
    deliveries: afterPutSmall.history_deliveries - beforePutSmall.history_deliveries,
    bytes: afterPutSmall.history_bytes - beforePutSmall.history_bytes,
  };
  diskSingle.bytesPerDelivery = diskSingle.bytes / diskSingle.deliveries;
  // The deliveries phase, when it runs, comes between the two PUT figures (it adds history too).
  const deliveries = want('deliveries') ? await phaseDeliveries(ctx) : null;
  const afterDeliveries = await snapshot(ctx);

  const { seeded, after: afterSeed, disk } = await phaseSeed(ctx, afterDeliveries);
  disk.bodyBytes = disk.exact.bodyBytes;
  disk.single = diskSingle;

  log(`row 2: PUT /documents/:id at ${seeded.history_deliveries.toLocaleString('en-US')} deliveries in history`);
  const putLarge = await putPhase(ctx, { durationMs: WINDOW.durationMs, connections: P.connections, tag: 'large', rounds: P.rounds });
  const afterPutLarge = await snapshot(ctx);

  const soak = await soakPhase(ctx, { ...P.soak, quick, log });
  ctx.idle.afterSoak = soak.idle.rss;
  ctx.idle.afterSoakHow = soak.idle.how;
  ctx.idle.afterSoakNoGc = soak.idle.noGcRss;
  return {
    putSmall,
    putLarge,
    deliveries,
    seeded,
    disk,
    soak,
    snapshots: { afterPutSmall, afterDeliveries, afterSeed, afterPutLarge },
  };
}

async function measure(ctx) {
  await setUp(ctx);
  const get = want('get') ? await phaseGet(ctx) : null;
  const history = want('history') ? await phaseHistory(ctx) : { deliveries: want('deliveries') ? await phaseDeliveries(ctx) : null };

  log('stopping Countersign (SIGTERM)');
  const stopStarted = performance.now();
  const exitCode = await stopChild(ctx.cs.child, 30_000);
  const stop = { exitCode, seconds: (performance.now() - stopStarted) / 1000 };
  await stopChild(ctx.ref.child, 5000);
  await stopChild(ctx.express.child, 5000);

  // A failure here (the seeder, a start-up that never ends) is a MISS in the table with its reason, not a lost run.
  const million = want('million')
    ? await millionPhase({ root, receiverUrl: ctx.receiver.url, ...P.million, log }).catch((err) => {
        log(`row 8 failed: ${err?.stack ?? err}`);
        return { skipped: `failed: ${String(err?.message ?? err).slice(0, 500)}` };
      })
    : null;
  return { params: { ...P, ...WINDOW, quick, only: only ? [...only] : 'all' }, get, ...history, idle: ctx.idle, stop, million };
}

async function addProfile(results, ctx) {
  const w = (name, l) => ({ name, from: l.startedAt, to: l.endedAt });
  const { get, putSmall, putLarge, deliveries } = results;
  results.profile = await summariseProfile(ctx.profDir, await readdir(ctx.profDir), {
    spawnedAt: ctx.cs.spawnedAt,
    windows: [
      ...(get && !get.skipped ? [w('GET window (best Countersign round)', get.cs)] : []),
      ...(putSmall ? [w('PUT window at the small history', putSmall.load)] : []),
      ...(deliveries
        ? [
            {
              name: 'delivery burst window',
              from: deliveries.putLoad.startedAt,
              to: deliveries.putLoad.startedAt + deliveries.seconds * 1000,
            },
            { name: 'backlog PUTs stored (receiver holding)', from: deliveries.backlog.putsFrom, to: deliveries.backlog.releasedAt },
            { name: 'delivery backlog window (engine only)', from: deliveries.backlog.releasedAt, to: deliveries.backlog.drainedAt },
          ]
        : []),
      ...(putLarge ? [w('PUT window at the large history', putLarge.load)] : []),
    ],
  });
}

function report(results) {
  const { machine, deliveries, stop } = results;
  const out = [];
  out.push(
    `Countersign benchmark — ${new Date().toISOString()}${quick ? ' — QUICK RUN (harness check: shorter windows, smaller history; not the figures)' : ''}`,
  );
  out.push(`Commit: ${machine.commit}`);
  out.push(`Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memory_gib} GiB, Node ${machine.node}, ${machine.platform}`);
  out.push(`Load average before the run: ${machine.loadavg_before.join(' / ')}; busy processes: ${machine.busy_before || 'none over 5%'}`);
  out.push(
    `GET: wrk, ${P.wrk.threads} threads, ${P.wrk.connections} connections, ${P.wrk.warmupSeconds} s warm-up + ${P.wrk.seconds} s measured per window, ${results.get?.rounds?.ref?.length ?? 0} rounds alternating Countersign, reference and bare Express (${P.rounds}, and up to 2 more while the reference had not reached ${P.saturatedPct}% of a core), best of each shown (for the reference, best of its saturated windows if any). PUT: undici, ${P.connections} connections, ${P.rounds} windows of ${WINDOW.durationMs / 1000} s at each history size, best shown.`,
  );
  if (only) out.push(`Only the groups ${[...only].join(', ')} were run (--only); every other figure says "not run".`);
  if (deliveries)
    out.push(
      `Deliveries: ${deliveries.n.toLocaleString('en-US')} (${P.fanoutPuts} PUTs x ${P.fanoutSubs} subscriptions of type all, ${deliveries.bodyBytes} B bodies), timed from the first PUT to the last attempt logged; reference: the same body POSTed ${deliveries.n.toLocaleString('en-US')} times at ${P.referenceConnections} in flight (the engine's concurrency), best of ${deliveries.refRounds.length}.`,
    );
  out.push('', renderTable(results.rows), '');
  for (const r of results.rows) if (r.note) out.push(`Note on "${r.metric.trim()}": ${r.note}`);
  out.push(
    `Stop: exit code ${stop.exitCode} after ${stop.seconds.toFixed(1)} s. Total run ${results.total_seconds.toFixed(0)} s. Load average after: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}.`,
  );
  if (results.profile)
    out.push(
      '',
      'CPU profile of the service (self time, top functions; profiling slows the service, so the figures above are not comparable):',
      ...results.profile.lines,
    );
  return out.join('\n');
}

async function main() {
  if (!existsSync(join(root, 'out/main/headless.js')))
    throw new Error('out/main/headless.js is missing: run `npm run build` first (npm run bench does)');
  const machine = machineInfo();
  const t0 = performance.now();
  const dataDir = await mkdtemp(join(os.tmpdir(), 'countersign-bench-'));
  const ctx = { dataDir, docs: [], subs: [], expectedCs: 0, profDir: join(bench, 'results', 'prof') };
  try {
    log(`data directory ${dataDir}`);
    const results = { machine, ...(await measure(ctx)) };
    results.total_seconds = (performance.now() - t0) / 1000;
    results.rows = buildRows(results);
    if (profile) await addProfile(results, ctx);
    console.log(report(results));
    await mkdir(join(bench, 'results'), { recursive: true });
    await writeFile(join(bench, 'results', 'latest.json'), JSON.stringify(results, null, 2) + '\n');
    log('wrote bench/results/latest.json');
  } finally {
    killAllChildren();
    if (!args.has('--keep')) await rm(dataDir, { recursive: true, force: true });
    else log(`kept ${dataDir}`);
  }
}

const watchdog = setTimeout(() => {
  log(`the run exceeded ${RUN_LIMIT_MS / 60000} minutes; stopping`);
  killAllChildren();
  process.exit(2);
}, RUN_LIMIT_MS);
watchdog.unref();
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    killAllChildren();
    process.exit(130);
  });

main().then(
  () => clearTimeout(watchdog),
  (err) => {
    console.error(`bench failed: ${err?.stack ?? err}`);
    killAllChildren();
    process.exitCode = 1;
  },
);
