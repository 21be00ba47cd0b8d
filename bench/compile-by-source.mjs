// What V8's optimizing compiler compiles during figure 3's bursts, by source file (a
// diagnostic, not part of `npm run bench`). The same sequence as bench/lib/phases.mjs
// deliveryBurst: 50 subscriptions, the untimed warm-up (100 PUTs x 50), then `bursts`
// bursts of 600 PUTs x 50 against the built headless service, which runs with V8's code
// log (--log-code). Per burst it prints the CPU a delivery of the service's main thread
// and of its other threads (V8's workers: the optimizing compiler and the garbage
// collector; libuv's pool), and the TurboFan code made between the burst's first PUT and
// its drain, by source file (the bundle's `// src-main/…` comments name them) with the
// functions compiled and how many times. Optimized code made again and again in later
// bursts is the churn that keeps the workers busy (docs/benchmark.md, figure 3). A module
// the bundler wrote without its comment is counted with the one before it (in the build
// of 2026-11-27, delivery/http-sender.ts with net/h1-request.ts).
// Run after `npm run build`:
//   node bench/compile-by-source.mjs [bursts=2] [top=30]
// Extra flags for the service's node (e.g. --trace-deopt): COMPILE_NODE_ARGS="...". With
// --log-deopt among them, each burst also prints its deoptimizations by reason.
// IDLE_BEFORE=k: before burst k the service idles until 75 s after its start (past HOLD_MS)
// and 6 s more, so that the idle collection lets its history index go and that burst
// rebuilds it first (docs/storage.md, "The delivery history in memory"). Only if that
// collection comes 60 s or more after the start with the history quiet: one that came
// sooner (3 quiet seconds after burst k-1) is not run again while nothing grows, and the
// release then comes after burst k, so a later burst rebuilds. The burst that rebuilt lists
// sidecar.ts applySidecar and index-state.ts buildLists among its compiled code.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startNode, stopChild, killAllChildren } from './lib/procs.mjs';
import { sleep } from './lib/http.mjs';
import { startCountersign } from './lib/countersign.mjs';
import { putCount, WARMUP_DELIVERIES } from './lib/phases.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const bursts = Number(process.argv[2] ?? 2);
const top = Number(process.argv[3] ?? 30);
const SUBS = 50;
const PUTS = 600;
const TICK = 100; // clock ticks a second in /proc/<pid>/task/*/stat (USER_HZ)

/** CPU ticks of the main thread and of all the others together. */
function threadTicks(pid) {
  const t = { main: 0, others: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(f[11]) + Number(f[12]);
      if (Number(tid) === pid) t.main += ticks;
      else t.others += ticks;
    } catch {
      // the thread ended between readdir and read
    }
  }
  return t;
}

/** The source file of a line of a bundled chunk, from the bundler's `// src-main/…ts` comments (read once per chunk). */
const regionsOf = new Map();
function sourceOf(file, line) {
  let regions = regionsOf.get(file);
  if (!regions) {
    regions = [];
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((l, i) => /^\/\/ src-\S+\.ts$/.test(l) && regions.push([i + 1, l.slice(3)]));
    regionsOf.set(file, regions);
  }
  let name = file.replace(/.*\//, '');
  for (const [at, src] of regions) if (at <= line) name = src;
  return name;
}

/** Where a code-creation entry's function lives: a src file, a package, or node's own module. */
function whereOf(desc) {
  const m = /(node:\S+?):\d+:\d+$/.exec(desc) ?? /(?:file:\/\/)?(\/\S+?):(\d+):\d+$/.exec(desc);
  if (!m) return '(other)';
  if (m[1].startsWith('node:')) return m[1];
  if (m[1].includes('/node_modules/')) return `package ${m[1].split('/node_modules/')[1].split('/')[0]}`;
  if (m[1].includes('/out/main/chunks/')) return sourceOf(m[1], Number(m[2]));
  return m[1];
}

/** TurboFan code made in [fromMs, toMs] of the log's clock (ms since the isolate started), by source. */
function turbofanBySource(logFile, fromMs, toMs) {
  const by = new Map();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.startsWith('code-creation,JS,')) continue;
    const f = line.split(',');
    if (f[f.length - 1] !== '*') continue; // '*' = TurboFan; '~' bytecode, '^' baseline
    const ms = Number(f[3]) / 1000;
    if (ms < fromMs || ms > toMs) continue;
    const desc = f.slice(6, f.length - 2).join(',');
    const where = whereOf(desc);
    const e = by.get(where) ?? { bytes: 0, n: 0, fns: new Map() };
    e.bytes += Number(f[5]);
    e.n++;
    const fn = desc.split(' ')[0] || '(anonymous)';
    e.fns.set(fn, (e.fns.get(fn) ?? 0) + 1);
    by.set(where, e);
  }
  return [...by.entries()].sort((a, b) => b[1].bytes - a[1].bytes);
}

/** Deoptimizations in [fromMs, toMs] (logged with --log-deopt), by reason. */
function deoptsIn(logFile, fromMs, toMs) {
  const by = new Map();
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.startsWith('code-deopt,')) continue;
    const f = line.split(',');
    const ms = Number(f[1]) / 1000;
    if (ms < fromMs || ms > toMs) continue;
    const reason = f[f.length - 1].replace(/"/g, '');
    by.set(reason, (by.get(reason) ?? 0) + 1);
  }
  return [...by.entries()].sort((a, b) => b[1] - a[1]);
}

function printBurst(r, logFile) {
  const per = (ticks) => ((ticks / TICK) * 1e6) / (PUTS * SUBS);
  const rows = turbofanBySource(logFile, r.fromMs, r.toMs);
  const bytes = rows.reduce((a, [, e]) => a + e.bytes, 0);
  const n = rows.reduce((a, [, e]) => a + e.n, 0);
  console.log(
    `burst ${r.i}: ${r.seconds.toFixed(2)} s; CPU a delivery: main thread ${per(r.main).toFixed(1)} µs, other threads ${per(r.others).toFixed(1)}; ` +
      `TurboFan code made: ${n} functions, ${(bytes / 1024).toFixed(0)} KB; load average ${os.loadavg()[0].toFixed(1)}`,
  );
  const deopts = deoptsIn(logFile, r.fromMs, r.toMs);
  if (deopts.length) console.log(`  deoptimizations: ${deopts.map(([why, k]) => `${why} x${k}`).join('; ')}`);
  for (const [where, e] of rows.slice(0, top)) {
    const fns = [...e.fns.entries()].sort((a, b) => b[1] - a[1]).map(([fn, k]) => (k > 1 ? `${fn} x${k}` : fn));
    console.log(
      `  ${String((e.bytes / 1024).toFixed(1)).padStart(6)} KB ${String(e.n).padStart(3)}  ${where.padEnd(48)} ${fns.slice(0, 8).join(', ')}`,
    );
  }
}

const dataDir = await mkdtemp(join(os.tmpdir(), 'countersign-compile-'));
const logFile = join(dataDir, 'v8.log');
try {
  const rp = await startNode(join(root, 'bench/receiver.mjs'), [], { name: 'receiver' });
  const receiver = { ...rp.ready, pid: rp.child.pid };
  const extra = process.env.COMPILE_NODE_ARGS ? process.env.COMPILE_NODE_ARGS.split(' ').filter(Boolean) : [];
  const nodeArgs = ['--log-code', `--logfile=${logFile}`, '--no-logfile-per-isolate', ...extra];
  const cs = await startCountersign({ root, dataDir: join(dataDir, 'data'), nodeArgs });
  // The log's clock starts with the isolate, a few ms after the spawn: windows are that much late, never early.
  const sinceStart = () => Date.now() - cs.spawnedAt;
  const ctx = { cs, receiver, dataDir: join(dataDir, 'data'), docs: [], subs: [], expectedCs: 0 };
  for (let i = 0; i < SUBS; i++) ctx.docs.push((await cs.createDocument(i)).public_id);
  for (let i = 0; i < SUBS; i++) ctx.subs.push({ id: (await cs.createSubscription(`${receiver.url}/cs/${i}`)).public_id });
  await putCount(ctx, Math.ceil(WARMUP_DELIVERIES / SUBS), SUBS, 'warm-up');
  const results = [];
  for (let i = 0; i < bursts; i++) {
    if (i === Number(process.env.IDLE_BEFORE ?? -1)) {
      while (Date.now() - cs.spawnedAt < 75_000) await sleep(1000);
      await sleep(6000);
    }
    await sleep(1000);
    const t0 = threadTicks(cs.pid);
    const fromMs = sinceStart();
    await putCount(ctx, PUTS, SUBS, 'burst');
    const toMs = sinceStart();
    const t1 = threadTicks(cs.pid);
    results.push({ i, fromMs, toMs, seconds: (toMs - fromMs) / 1000, main: t1.main - t0.main, others: t1.others - t0.others });
  }
  await stopChild(cs.child, 30_000);
  for (const r of results) printBurst(r, logFile);
} finally {
  killAllChildren();
  await rm(dataDir, { recursive: true, force: true });
}
