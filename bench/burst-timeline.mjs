// Figure 3's burst with a timeline (a diagnostic, not part of `npm run bench`): the same
// fan-out as bench/lib/phases.mjs deliveryBurst (600 PUTs x 50 subscriptions, 50
// connections) against the built headless service, `rounds` times, while every 5 ms it
// reads each thread's scheduler figures (/proc/<pid>/task/*/schedstat: time on a core
// and time RUNNABLE but waiting for one) for the service and the receiver, the machine's
// busy time (/proc/stat), the receiver's count and the engine's in-flight count (the
// console API's status, polled). Per bucket it prints where the service's main thread
// was: running, waiting for a core, or asleep (nothing to do). So "the main thread was
// busy only 75 % of the burst" can be told apart: waiting for a core is contention
// (other threads of ours, the receiver, the load generator, other programs), asleep is
// the service waiting for something (a commit's fsync, answers). After each round: the
// CPU of the main thread and of the other threads (V8's workers, libuv's pool) in the
// PUT phase (first PUT sent to last PUT answered) and in the drain after it.
// Run after `npm run build`:
//   node bench/burst-timeline.mjs [rounds=2] [bucketMs=100]
// Extra flags for the service's node (e.g. --trace-gc, --cpu-prof): BURST_NODE_ARGS="...".
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startNode, stopChild, killAllChildren, cpuSeconds } from './lib/procs.mjs';
import { sleep } from './lib/http.mjs';
import { startCountersign, receiverStats, waitDrained } from './lib/countersign.mjs';
import { load, putCount } from './lib/phases.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const rounds = Number(process.argv[2] ?? 2);
const bucketMs = Number(process.argv[3] ?? 100);
const PUTS = 600;
const SUBS = 50;

/** ns on a core and ns runnable-but-waiting, of the main thread and of all the others together. */
function threads(pid) {
  const t = { main: 0, mainWait: 0, others: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      if (Number(tid) === pid) [t.main, t.mainWait] = [run, wait];
      else t.others += run;
    } catch {
      // the thread ended between readdir and read
    }
  }
  return t;
}

function machineBusy() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - f[4], total };
}

async function burst(ctx) {
  const { cs, receiver } = ctx;
  const target = ctx.expectedCs + PUTS * SUBS;
  const samples = [];
  let received = ctx.expectedCs;
  let inFlight = 0;
  let polling = true;
  const pollers = [
    (async () => {
      while (polling) {
        received = (await receiverStats(receiver.url)).counts.cs;
        await sleep(5);
      }
    })(),
    (async () => {
      while (polling) {
        inFlight = await cs.inFlight();
        await sleep(20);
      }
    })(),
  ];
  const sample = () => ({
    at: performance.timeOrigin + performance.now(),
    cs: threads(cs.pid),
    rcv: threads(receiver.pid),
    m: machineBusy(),
    received,
    inFlight,
  });
  const timer = setInterval(() => samples.push(sample()), 5);
  const cpu0 = { all: cpuSeconds(cs.pid), main: cpuSeconds(cs.pid, true) };
  const put = load(
    {
      origin: cs.api,
      method: 'PUT',
      paths: ctx.docs.map((d) => `/documents/${d}`),
      headers: { 'x-api-key': cs.key, 'content-type': 'application/json' },
      body: { kind: 'title', tag: 'timeline' },
      connections: 50,
      count: PUTS,
    },
    'PUT fan-out load',
  );
  let putDone = null;
  void put.then(() => (putDone = sample()));
  const drainedAt = await waitDrained(cs, receiver.url, target, { timeoutMs: 150_000 });
  const end = sample();
  clearInterval(timer);
  polling = false;
  await Promise.all(pollers);
  const putLoad = await put;
  ctx.expectedCs = target;
  const seconds = (drainedAt - putLoad.startedAt) / 1000;
  const all = (cpuSeconds(cs.pid) - cpu0.all) / (PUTS * SUBS);
  const main = (cpuSeconds(cs.pid, true) - cpu0.main) / (PUTS * SUBS);
  return {
    samples: samples.filter((s) => s.at >= putLoad.startedAt - bucketMs),
    putLoad,
    putDone: putDone ?? end,
    end,
    seconds,
    all,
    main,
  };
}

const pct = (ns, ms) => String(Math.round((100 * ns) / (ms * 1e6))).padStart(4);

function printRound(i, r) {
  const { samples, putLoad } = r;
  console.log(
    `round ${i}: ${r.seconds.toFixed(3)} s (${Math.round((PUTS * SUBS) / r.seconds)} deliveries/s); PUTs ${putLoad.seconds.toFixed(3)} s ` +
      `(p50 ${putLoad.latencyMs.p50.toFixed(0)} ms); CPU ${(r.all * 1e6).toFixed(1)} µs a delivery, main thread ${(r.main * 1e6).toFixed(1)}; load average ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log('    ms  received  main: run wait sleep  other threads  receiver: run wait  machine  in flight');
  const t0 = putLoad.startedAt;
  for (let b = 0, prev = samples[0]; prev; b++) {
    const inBucket = samples.filter((s) => s.at >= t0 + b * bucketMs && s.at < t0 + (b + 1) * bucketMs);
    const last = inBucket.at(-1);
    if (!last) break;
    const ms = last.at - prev.at;
    const run = last.cs.main - prev.cs.main;
    const wait = last.cs.mainWait - prev.cs.mainWait;
    const sleepNs = Math.max(0, ms * 1e6 - run - wait);
    const machine = (200 * (last.m.busy - prev.m.busy)) / Math.max(1, last.m.total - prev.m.total);
    console.log(
      `${String(b * bucketMs).padStart(6)} ${String(last.received - prev.received).padStart(9)}      ${pct(run, ms)} ${pct(wait, ms)} ${pct(sleepNs, ms)}           ${pct(last.cs.others - prev.cs.others, ms)}            ${pct(last.rcv.main - prev.rcv.main, ms)} ${pct(last.rcv.mainWait - prev.rcv.mainWait, ms)}     ${String(Math.round(machine)).padStart(4)}       ${String(last.inFlight).padStart(4)}`,
    );
    prev = last;
  }
  const first = samples[0];
  const phase = (a, b) =>
    `main ${((b.cs.main - a.cs.main) / 1e6).toFixed(0)} ms run, ${((b.cs.mainWait - a.cs.mainWait) / 1e6).toFixed(0)} ms waiting; other threads ${((b.cs.others - a.cs.others) / 1e6).toFixed(0)} ms`;
  console.log(`  PUT phase: ${phase(first, r.putDone)}\n  drain:     ${phase(r.putDone, r.end)}`);
}

const dataDir = await mkdtemp(join(os.tmpdir(), 'countersign-timeline-'));
try {
  const rp = await startNode(join(root, 'bench/receiver.mjs'), [], { name: 'receiver' });
  const receiver = { ...rp.ready, pid: rp.child.pid };
  const nodeArgs = process.env.BURST_NODE_ARGS ? process.env.BURST_NODE_ARGS.split(' ').filter(Boolean) : [];
  const cs = await startCountersign({ root, dataDir, nodeArgs });
  await sleep(2000);
  const ctx = { cs, receiver, dataDir, docs: [], subs: [], expectedCs: 0 };
  for (let i = 0; i < 50; i++) ctx.docs.push((await cs.createDocument(i)).public_id);
  for (let i = 0; i < SUBS; i++) ctx.subs.push({ id: (await cs.createSubscription(`${receiver.url}/cs/${i}`)).public_id });
  await putCount(ctx, 1, 1, 'sample');
  for (let i = 0; i < rounds; i++) {
    await sleep(1500);
    printRound(i, await burst(ctx));
  }
  await stopChild(cs.child, 30_000);
} finally {
  killAllChildren();
  await rm(dataDir, { recursive: true, force: true });
}
