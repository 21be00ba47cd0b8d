// The PUT side of figure 3, thread by thread (a diagnostic, not part of `npm run bench`).
// The same sequence as bench/lib/phases.mjs: 50 subscriptions, the untimed warm-up
// (100 PUTs x 50), one burst (600 x 50), then `rounds` rounds of the backlog's PUT phase:
// the receiver holds its answers while 600 PUTs fan out to the 50 subscriptions, so the
// service only stores (no sending), then it is released and drained. Per round it prints
// the service's CPU a delivery over the PUTs (and 200 ms after, as the bench's row "CPU
// per delivery storing the backlog") for each thread: `main`, and the others by their
// task id's distance from the process id (t2-t5 are V8's four platform workers: the
// optimizing compiler and the garbage collector; t7 and up libuv's pool: fsync, file
// writes), with the history's segment count (a round of 30,000 deliveries closes 1-2
// segments of 25,000 at the default cap). With `--trace-opt` among the service's flags,
// it also prints the TurboFan compiles each round made, by function (code compiled again
// at every segment close shows here: docs/benchmark.md, figure 3). Last, the mean of the
// rounds after the first (what an A/B compares: the first round's close runs cold code).
// Run after `npm run build`:
//   node bench/backlog-threads.mjs [rounds=4]
// Environment: BACKLOG_NODE_ARGS="--trace-opt" (flags for the service's node),
// BACKLOG_CAP=10000000 (COUNTERSIGN_HISTORY_CAP: no close within the rounds),
// BACKLOG_OUT=file (the service's stdout, with a line `=== MARK round N` / `end round N`).
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { startNode, stopChild, killAllChildren } from './lib/procs.mjs';
import { call, sleep } from './lib/http.mjs';
import { startCountersign, waitDrained } from './lib/countersign.mjs';
import { load, putCount, WARMUP_DELIVERIES } from './lib/phases.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const rounds = Number(process.argv[2] ?? 4);
const SUBS = 50;
const PUTS = 600;
const TICK = 100; // clock ticks a second in /proc/<pid>/task/*/stat (USER_HZ)
const nodeArgs = (process.env.BACKLOG_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** CPU ticks by thread (`main`, `t<tid - pid>`) and of the whole process (`all`, exited threads included). */
function threadTicks(pid) {
  const t = new Map();
  const ticksOf = (stat) => {
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between readdir and read
    }
    t.set(Number(tid) === pid ? 'main' : `t${Number(tid) - pid}`, ticksOf(stat));
  }
  t.set('all', ticksOf(readFileSync(`/proc/${pid}/stat`, 'utf8')));
  return t;
}

/** TurboFan compiles by function in the service's --trace-opt output between two marks. */
function compilesIn(text) {
  const by = new Map();
  for (const m of text.matchAll(/completed compiling \S+ <JSFunction (\S*) .*?took [\d.]+, ([\d.]+), [\d.]+ ms/g)) {
    const e = by.get(m[1]) ?? { n: 0, ms: 0 };
    e.n++;
    e.ms += Number(m[2]);
    by.set(m[1], e);
  }
  return [...by.entries()].sort((a, b) => b[1].ms - a[1].ms);
}

const dataDir = await mkdtemp(join(os.tmpdir(), 'countersign-backlog-'));
try {
  const rp = await startNode(join(root, 'bench/receiver.mjs'), [], { name: 'receiver' });
  const receiver = { ...rp.ready, pid: rp.child.pid };
  const extraEnv = process.env.BACKLOG_CAP ? { COUNTERSIGN_HISTORY_CAP: process.env.BACKLOG_CAP } : {};
  const cs = await startCountersign({ root, dataDir: join(dataDir, 'data'), nodeArgs, extraEnv });
  let out = '';
  const file = process.env.BACKLOG_OUT ? createWriteStream(process.env.BACKLOG_OUT) : null;
  cs.child.stdout.on('data', (c) => {
    out += c;
    file?.write(c);
  });
  const mark = (m) => {
    out += `\n=== MARK ${m}\n`;
    file?.write(`\n=== MARK ${m}\n`);
  };
  const ctx = { cs, receiver, dataDir: join(dataDir, 'data'), docs: [], subs: [], expectedCs: 0 };
  for (let i = 0; i < SUBS; i++) ctx.docs.push((await cs.createDocument(i)).public_id);
  for (let i = 0; i < SUBS; i++) ctx.subs.push({ id: (await cs.createSubscription(`${receiver.url}/cs/${i}`)).public_id });
  await putCount(ctx, Math.ceil(WARMUP_DELIVERIES / SUBS), SUBS, 'warm-up');
  await putCount(ctx, PUTS, SUBS, 'burst');
  const paths = ctx.docs.map((d) => `/documents/${d}`);
  const headers = { 'x-api-key': cs.key, 'content-type': 'application/json' };
  const perDelivery = (ticks) => (((ticks / TICK) * 1e6) / (PUTS * SUBS)).toFixed(1);
  const later = { all: 0, main: 0, n: 0 }; // rounds after the first (its close is the first after the burst's: cold code)
  for (let r = 0; r < rounds; r++) {
    await sleep(300);
    await call(`${receiver.url}/__hold`, { method: 'POST' });
    const at = out.length;
    mark(`round ${r}`);
    const t0 = threadTicks(cs.pid);
    const put = { origin: cs.api, method: 'PUT', paths, headers, body: { kind: 'title', tag: `backlog-${r}` } };
    const stored = await load({ ...put, connections: SUBS, count: PUTS }, 'PUT backlog load');
    await sleep(200); // the last commits' wake-ups, as the bench's row
    const t1 = threadTicks(cs.pid);
    mark(`end round ${r}`);
    await call(`${receiver.url}/__release`, { method: 'POST' });
    if (stored.errors) throw new Error(`backlog PUTs: ${stored.errors} errors`);
    ctx.expectedCs += PUTS * SUBS;
    await waitDrained(cs, receiver.url, ctx.expectedCs, { timeoutMs: 150_000 });
    const segs = readdirSync(join(ctx.dataDir, 'history')).filter((f) => f.endsWith('.jsonl')).length;
    const threads = [...t1].map(([k, v]) => [k, v - (t0.get(k) ?? 0)]).filter(([, v]) => v > 0);
    if (r > 0) {
      later.all += t1.get('all') - t0.get('all');
      later.main += t1.get('main') - t0.get('main');
      later.n++;
    }
    console.log(
      `round ${r}: PUTs ${stored.seconds.toFixed(2)} s, ${segs} segments; CPU a delivery (µs): ` +
        threads.map(([k, v]) => `${k} ${perDelivery(v)}`).join(' · ') +
        `; load average ${os.loadavg()[0].toFixed(1)}`,
    );
    const compiles = compilesIn(out.slice(at));
    if (compiles.length > 0) {
      const n = compiles.reduce((a, [, e]) => a + e.n, 0);
      const fns = compiles.slice(0, 25).map(([fn, e]) => `${fn || '(anonymous)'}${e.n > 1 ? ` x${e.n}` : ''}`);
      console.log(`  TurboFan: ${n} compiles; by compile time: ${fns.join(', ')}`);
    }
  }
  if (later.n > 0)
    console.log(
      `rounds 1-${rounds - 1}: CPU a delivery (µs): all ${perDelivery(later.all / later.n)} · main ${perDelivery(later.main / later.n)}`,
    );
  await stopChild(cs.child, 30_000);
} finally {
  killAllChildren();
  await rm(dataDir, { recursive: true, force: true });
}
