// The load generator, run as its own process (so it never shares an event loop with the
// server under test). One undici Pool, `connections` keep-alive connections, one request
// in flight per connection. Two modes:
//   duration: warm up for warmupMs, then count requests that complete in the next
//             durationMs (latency only for requests started inside that window);
//   count:    send exactly `count` requests, timed from the first send to the last answer
//             (after `warmupCount` untimed ones, if given).
// `rate` (optional) paces either mode to that many requests per second.
// argv[2] is the JSON config; one JSON result line goes to stdout. Loopback only.
// CPU time used inside the measured window is reported for this process and for each
// pid in `watchPids` (the server under test): a figure much less disturbed by other
// programs on the machine than requests per second.
import { Pool } from 'undici';
import { cpuSeconds } from './lib/procs.mjs';

const cfg = JSON.parse(process.argv[2]);
const origin = new URL(cfg.origin);
if (origin.hostname !== '127.0.0.1') throw new Error('load generator: loopback only');
const now = () => performance.now();
const epoch = (t) => performance.timeOrigin + t;

const pool = new Pool(cfg.origin, { connections: cfg.connections, pipelining: 1, keepAliveTimeout: 60_000 });
const paths = cfg.paths;
const fixedBody = cfg.body?.kind === 'fixed' ? cfg.body.text : undefined;
let seq = 0;
function nextRequest() {
  const n = seq++;
  const path = paths[n % paths.length];
  let body;
  if (cfg.body?.kind === 'title') body = JSON.stringify({ title: `Bench title ${n} ${cfg.body.tag ?? ''}`.trim() });
  else body = fixedBody;
  return { path, method: cfg.method, headers: cfg.headers, body };
}

const maxSamples = 4_000_000;
const lat = new Float64Array(maxSamples);
let nLat = 0;
let completed = 0;
let measured = 0;
let errors = 0;
const statuses = {};
let firstError = null;

let measureFrom = Infinity;
let measureTo = Infinity;
let stop = false;
let remaining = cfg.count ?? Infinity;

async function one() {
  const t0 = now();
  try {
    const res = await pool.request(nextRequest());
    await res.body.arrayBuffer();
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 400) errors++;
  } catch (err) {
    errors++;
    firstError ??= String(err?.message ?? err);
  }
  const t1 = now();
  completed++;
  if (t1 >= measureFrom && t1 <= measureTo) {
    measured++;
    if (t0 >= measureFrom && nLat < maxSamples) lat[nLat++] = t1 - t0;
  }
}

// Optional pacing (`rate`, requests per second over all connections): request k is not
// sent before start + k / rate, so a soak holds a steady mix instead of flooding.
let tickets = 0;
let paceFrom = 0;
async function paced() {
  const due = paceFrom + (tickets++ / cfg.rate) * 1000;
  const wait = due - now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
}

async function worker() {
  while (!stop && remaining > 0) {
    remaining--;
    if (cfg.rate) await paced();
    if (stop) break;
    await one();
  }
}

const watch = cfg.watchPids ?? [];
let cpuFrom = null;
function cpuMark() {
  return { self: process.cpuUsage(), selfMain: cpuSeconds(process.pid, true), pids: watch.map((p) => cpuSeconds(p)) };
}
function cpuSince(mark) {
  const u = process.cpuUsage(mark.self);
  const main = cpuSeconds(process.pid, true);
  const now = watch.map((p) => cpuSeconds(p));
  return {
    self: (u.user + u.system) / 1e6,
    selfMain: main != null && mark.selfMain != null ? +(main - mark.selfMain).toFixed(2) : null,
    pids: Object.fromEntries(watch.map((p, i) => [p, now[i] != null && mark.pids[i] != null ? +(now[i] - mark.pids[i]).toFixed(2) : null])),
  };
}

function pct(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  let start = now();
  paceFrom = start;
  const inFlight = cfg.inFlight ?? cfg.connections;
  let result;
  if (cfg.count !== undefined) {
    // Optional untimed warm-up (connections opened, code optimised) before the clock starts.
    if (cfg.warmupCount) {
      remaining = cfg.warmupCount;
      measureTo = -1;
      await Promise.all(Array.from({ length: Math.min(inFlight, cfg.warmupCount) }, worker));
      remaining = cfg.count;
      completed = 0;
      errors = 0;
      for (const k of Object.keys(statuses)) delete statuses[k];
      measureTo = Infinity;
      start = now();
    }
    measureFrom = start;
    cpuFrom = cpuMark();
    // Hard bound: a stuck server must not hold the benchmark forever.
    const timer = setTimeout(() => {
      stop = true;
    }, cfg.maxMs ?? 120_000);
    const workers = Array.from({ length: Math.min(inFlight, cfg.count) }, worker);
    await Promise.all(workers);
    clearTimeout(timer);
    const end = now();
    const cpu = cpuSince(cpuFrom);
    result = {
      mode: 'count',
      cpu,
      requests: completed,
      seconds: (end - start) / 1000,
      rps: completed / ((end - start) / 1000),
      startedAt: epoch(start),
      endedAt: epoch(end),
    };
  } else {
    measureFrom = start + cfg.warmupMs;
    measureTo = measureFrom + cfg.durationMs;
    // Hard bound: however slow the server, stop issuing at the end of the window.
    const timer = setTimeout(() => {
      stop = true;
    }, cfg.warmupMs + cfg.durationMs);
    if (!cfg.warmupMs) cpuFrom = cpuMark();
    const markTimer = cfg.warmupMs
      ? setTimeout(() => {
          cpuFrom = cpuMark();
        }, cfg.warmupMs)
      : null;
    let cpu = null;
    const endTimer = setTimeout(() => {
      cpu = cpuSince(cpuFrom);
    }, cfg.warmupMs + cfg.durationMs);
    const workers = Array.from({ length: inFlight }, worker);
    await Promise.all(workers);
    clearTimeout(timer);
    clearTimeout(markTimer);
    clearTimeout(endTimer);
    cpu ??= cpuSince(cpuFrom ?? cpuMark());
    result = {
      mode: 'duration',
      cpu,
      requests: measured,
      total: completed,
      seconds: cfg.durationMs / 1000,
      rps: measured / (cfg.durationMs / 1000),
      startedAt: epoch(measureFrom),
      endedAt: epoch(measureTo),
    };
  }
  const sorted = lat.subarray(0, nLat).sort();
  result.latencyMs = { p50: pct(sorted, 50), p99: pct(sorted, 99), max: nLat ? sorted[nLat - 1] : null, samples: nLat };
  result.errors = errors;
  result.statuses = statuses;
  if (firstError) result.firstError = firstError;
  await pool.close();
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((err) => {
  process.stderr.write(`load generator failed: ${err?.stack ?? err}\n`);
  process.exitCode = 1;
});
