// Turns the measured figures into the table's rows: the issue-9 targets, one numbered
// figure each (1–8), with adjacent unnumbered rows that make a figure checkable (CPU use
// beside a rate, so saturation is visible) and context rows marked `info`. A figure that
// was not measured in this run is a MISS that says why, never a silent gap.
import { verdict } from './report.mjs';

const MiB = 2 ** 20;
const k = (n) => (n == null ? '—' : Math.round(n).toLocaleString('en-US'));
const ratio = (a, b) => (a == null || !b ? null : a / b);
const us = (cpuS, n) => (cpuS == null || !n ? null : (cpuS * 1e6) / n);
const pctCore = (v) => (v == null ? '—' : `${v.toFixed(0)}% of a core`);
const mib = (b) => (b == null ? '—' : `${(b / MiB).toFixed(1)} MiB`);

/** Figure 1: GET, the service vs a reference saturated by wrk. */
function getRows(r, rows) {
  const g = r.get;
  if (g.skipped) {
    rows.push({
      metric: '1. GET /documents/:id vs bare node:http',
      countersign: 'not measured',
      target: '>= 80% of saturated reference',
      verdict: 'MISS',
      note: g.skipped,
    });
    return;
  }
  const getRatio = ratio(g.cs.rps, g.ref.rps);
  const refCpu = g.ref.cpu.server;
  const saturated = refCpu != null && refCpu >= r.params.saturatedPct;
  const clean = g.cs.non2xx === 0 && g.cs.socketErrors === 0 && g.ref.non2xx === 0;
  rows.push({
    metric: '1. GET /documents/:id vs bare node:http (wrk)',
    unit: 'req/s',
    countersign: g.cs.rps,
    reference: g.ref.rps,
    ratio: getRatio,
    target: saturated
      ? '>= 80% of saturated reference'
      : `>= 80%; reference not saturated (${pctCore(refCpu)}, machine ${g.ref.cpu.machine}% busy)`,
    verdict: verdict(saturated && getRatio >= 0.8 && clean),
  });
  rows.push({
    metric: '   server CPU during its window (wrk / machine)',
    countersign: `${pctCore(g.cs.cpu.server)} (${g.cs.cpu.wrk ?? '—'}% / ${g.cs.cpu.machine ?? '—'}%)`,
    reference: `${pctCore(refCpu)} (${g.ref.cpu.wrk ?? '—'}% / ${g.ref.cpu.machine ?? '—'}%)`,
    target: `reference >= ${r.params.saturatedPct}% of a core`,
    verdict: saturated ? 'PASS' : 'MISS',
  });
  rows.push({
    metric: '   GET CPU time per request (server process)',
    unit: 'us',
    countersign: us((g.cs.cpu.server / 100) * g.cs.wallSeconds, g.cs.requests),
    reference: us((refCpu / 100) * g.ref.wallSeconds, g.ref.requests),
    ratio: null,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: '   GET p99 latency',
    unit: 'ms',
    countersign: g.cs.latencyMs.p99,
    reference: g.ref.latencyMs.p99,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: '   bare Express 5 app, same bytes (context)',
    unit: 'req/s',
    countersign: g.express.rps,
    reference: g.ref.rps,
    ratio: ratio(g.express.rps, g.ref.rps),
    target: `context; ${pctCore(g.express.cpu.server)}`,
    verdict: 'info',
  });
}

/** Figure 2: PUT at a small and a large history. */
function putRows(r, rows) {
  const small = r.putSmall.before.history_deliveries;
  const large = r.putLarge.before.history_deliveries;
  const p1 = r.putSmall.load.rps;
  const p2 = r.putLarge.load.rps;
  rows.push({
    metric: `2. PUT /documents/:id at ${k(small)} deliveries of history`,
    unit: 'req/s',
    countersign: p1,
    target: 'report (the base of 2)',
    verdict: 'info',
  });
  const bigEnough = large >= r.params.historyGoal * 0.95;
  rows.push({
    metric: `2. PUT /documents/:id at ${k(large)} deliveries of history`,
    unit: 'req/s',
    countersign: p2,
    reference: p1,
    ratio: ratio(p2, p1),
    target: `>= 80% of the rate at ${k(small)}`,
    verdict: verdict(p2 >= 0.8 * p1 && r.putSmall.load.errors === 0 && r.putLarge.load.errors === 0 && bigEnough),
  });
  rows.push({
    metric: '   PUT p99 latency, large vs small history',
    unit: 'ms',
    countersign: r.putLarge.load.latencyMs.p99,
    reference: r.putSmall.load.latencyMs.p99,
    target: 'report',
    verdict: 'info',
  });
}

/** Figure 3: deliveries end to end vs a bare undici pump. */
function deliveryRows(r, rows) {
  const d = r.deliveries;
  const dRatio = ratio(d.rate, d.ref.rps);
  const allLogged = (d.statuses['succeeded/1'] ?? 0) === d.n;
  rows.push({
    metric: `3. Deliveries end to end (signed, 2xx, logged), ${d.bodyBytes} B body`,
    unit: 'deliv/s',
    countersign: d.rate,
    reference: d.ref.rps,
    ratio: dRatio,
    target: '>= 70% of the undici pump',
    verdict: verdict(dRatio >= 0.7 && allLogged && d.ref.errors === 0),
  });
  const pumpPct = d.ref.cpu?.self != null ? (d.ref.cpu.self / d.ref.seconds) * 100 : null;
  const recvRefPct = Object.values(d.ref.cpu?.pids ?? {})[0];
  rows.push({
    metric: '   CPU: sender / receiver (% of a core over the run)',
    countersign: `${pctCore((d.cpu.cs / d.seconds) * 100)} / ${pctCore((d.cpu.receiver / d.seconds) * 100)}`,
    reference: `${pctCore(pumpPct)} / ${pctCore(recvRefPct == null ? null : (recvRefPct / d.ref.seconds) * 100)}`,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: '   CPU time per delivery (sender process)',
    unit: 'us',
    countersign: us(d.cpu.cs, d.n),
    reference: us(d.ref.cpu.self, d.n),
    ratio: ratio(us(d.cpu.cs, d.n), us(d.ref.cpu.self, d.n)),
    target: 'report',
    verdict: 'info',
  });
  // The rest of each process's CPU is V8's worker threads (garbage collection) and libuv's pool.
  rows.push({
    metric: '   of which the main thread (JavaScript)',
    unit: 'us',
    countersign: us(d.cpu.csMain, d.n),
    reference: us(d.ref.cpu.selfMain, d.n),
    ratio: ratio(us(d.cpu.csMain, d.n), us(d.ref.cpu.selfMain, d.n)),
    target: 'report',
    verdict: 'info',
  });
  const b = d.backlog;
  const bValid = b.enqueueSeconds < 9; // the receiver's hold ends by itself after 10 s
  rows.push({
    metric: '   deliveries from a stored backlog (engine only)',
    unit: 'deliv/s',
    countersign: bValid ? b.rate : 'invalid',
    reference: d.ref.rps,
    ratio: bValid ? ratio(b.rate, d.ref.rps) : null,
    target: 'report',
    verdict: 'info',
  });
  // The backlog's PUTs stored while the receiver holds: the PUT side of a delivery alone (no sends).
  rows.push({
    metric: '   CPU per delivery storing the backlog: all / main',
    countersign: b.putCpu?.cs != null ? `${us(b.putCpu.cs, b.n).toFixed(0)} / ${us(b.putCpu.csMain, b.n).toFixed(0)} µs` : '—',
    reference: '—',
    target: 'report',
    verdict: 'info',
  });
  const ok = (d.statuses['succeeded/1'] ?? 0) + (b.statuses['succeeded/1'] ?? 0);
  rows.push({
    metric: '   deliveries logged as succeeded at the 1st attempt',
    unit: 'count',
    countersign: ok,
    reference: d.n + b.n,
    target: 'all',
    verdict: verdict(ok === d.n + b.n),
  });
}

function idleFreshRow(r) {
  return {
    metric: '6. Idle RSS, fresh service',
    unit: 'MiB',
    countersign: r.idle.fresh,
    reference: `bare node:http ${mib(r.idle.ref)}`,
    target: '<= 80 MiB',
    verdict: verdict(r.idle.fresh != null && r.idle.fresh <= 80 * MiB),
  };
}

/** Figures 4–7: memory and disk. */
function memoryRows(r, rows) {
  const s = r.snapshots;
  const atSeed = r.seeded.history_deliveries;
  rows.push({
    metric: `4. RSS after ${k(atSeed)} deliveries of history`,
    unit: 'MiB',
    countersign: s.afterSeed.rss_bytes,
    reference: r.get?.rss?.ref ? `bare node:http ${mib(r.get.rss.ref)}` : null,
    target: `<= 150 MiB at >= ${k(r.params.historyGoal)}`,
    verdict: verdict(s.afterSeed.rss_bytes <= 150 * MiB && atSeed >= r.params.historyGoal * 0.95),
  });
  rows.push({
    metric: `   RSS after the PUT windows at ${k(r.putLarge.before.history_deliveries)}`,
    unit: 'MiB',
    countersign: s.afterPutLarge.rss_bytes,
    target: 'report',
    verdict: 'info',
  });
  const soak = r.soak;
  if (!soak)
    rows.push({ metric: '5. RSS peak during a 3-minute mixed soak', countersign: 'not measured', target: '<= 150 MiB', verdict: 'MISS' });
  else {
    // A soak shorter than 3 minutes (--quick, --soak-seconds) is reported but cannot PASS.
    const short = soak.quick || soak.seconds < 180;
    const label = short
      ? `5. RSS peak during a ${soak.seconds.toFixed(0)}-s mixed soak (${soak.quick ? '--quick' : '--soak-seconds'}: not 3 min)`
      : `5. RSS peak during a ${(soak.seconds / 60).toFixed(1)}-minute mixed soak`;
    rows.push({
      metric: label,
      unit: 'MiB',
      countersign: soak.peakRss,
      target: '<= 150 MiB',
      verdict: verdict(soak.peakRss <= 150 * MiB && !short),
    });
    rows.push({
      metric: '5. RSS at the end of the soak',
      unit: 'MiB',
      countersign: soak.endRss,
      target: '<= 150 MiB',
      verdict: verdict(soak.endRss <= 150 * MiB && !short),
    });
    const l = soak.load;
    const errs = l.get.errors + l.put.errors + l.inbox.errors;
    rows.push({
      metric: `   soak load: GET / PUT (x${soak.fanout} deliveries) / inbox POST, per second`,
      countersign: `${k(l.get.rps)} / ${k(l.put.rps)} / ${k(l.inbox.rps)}`,
      reference: `asked ${soak.asked.getRate} / ${soak.asked.putRate} / ${soak.asked.inboxRate}; ${k(errs)} errors`,
      target: 'no errors',
      verdict: verdict(errs === 0),
    });
    const inboxOk = soak.inboxDeliveries['succeeded/1'] ?? 0;
    const inboxAll = Object.values(soak.inboxDeliveries).reduce((a, b) => a + b, 0);
    rows.push({
      metric: '   soak deliveries to the inbox: succeeded at the 1st attempt / all',
      countersign: `${k(inboxOk)} / ${k(inboxAll)}`,
      reference: `inbox holds ${k(soak.inboxCaptureCount)} captures`,
      target: 'all',
      verdict: verdict(inboxAll > 0 && inboxOk === inboxAll),
    });
  }
  rows.push(idleFreshRow(r));
  if (r.idle.afterSoak == null)
    rows.push({ metric: '6. Idle RSS after the soak', countersign: 'not measured', target: '<= 80 MiB', verdict: 'MISS' });
  else
    rows.push({
      metric: `6. Idle RSS after the soak (${r.idle.afterSoakHow})`,
      unit: 'MiB',
      countersign: r.idle.afterSoak,
      reference: r.idle.afterSoakNoGc != null ? `before the GC ${mib(r.idle.afterSoakNoGc)}` : null,
      target: '<= 80 MiB',
      verdict: verdict(r.idle.afterSoak <= 80 * MiB),
    });
  const disk = r.disk;
  rows.push({
    metric: `7. Disk per delivery, ${disk.bodyBytes} B body, events fanned out to ${disk.fanout} subscriptions`,
    countersign: `${(disk.bytesPerDelivery / 1000).toFixed(2)} KB`,
    reference: `${k(disk.deliveries)} deliveries, ${mib(disk.bytes)}`,
    target: '<= 1.5 KB',
    verdict: verdict(disk.bytesPerDelivery <= 1500),
  });
  const one = disk.single;
  rows.push({
    metric: '7. Disk per delivery, 1 subscription (each delivery its own event)',
    countersign: `${(one.bytesPerDelivery / 1000).toFixed(2)} KB`,
    reference: `${k(one.deliveries)} deliveries, ${mib(one.bytes)}`,
    target: '<= 1.5 KB',
    verdict: verdict(one.bytesPerDelivery <= 1500),
  });
  rows.push({
    metric: '7. inspector detail exact to the byte (last delivery received)',
    countersign: disk.exact.diffs.length ? `differs: ${disk.exact.diffs.join(', ')}` : 'identical',
    reference: `${disk.exact.bodyBytes} B body + signature headers`,
    target: 'identical',
    verdict: verdict(disk.exact.diffs.length === 0),
  });
}

/** Figure 8: start-up and inspector paging over 1,000,000 deliveries of history. */
function startupRows(r, rows) {
  const m = r.million;
  if (!m || m.skipped) {
    rows.push({
      metric: '8. Start-up with 1,000,000 deliveries of history',
      countersign: 'not measured',
      target: '< 2 s',
      verdict: 'MISS',
      note: m?.skipped,
    });
    rows.push({
      metric: '8. Inspector paging over them, p95',
      countersign: 'not measured',
      target: '< 50 ms ("instant")',
      verdict: 'MISS',
    });
    return;
  }
  rows.push({
    metric: `8. Start-up with ${k(m.history)} deliveries: spawn to first /v2 answer`,
    unit: 's',
    countersign: m.startup.firstAnswerSeconds,
    reference: `ready line ${m.startup.readySeconds.toFixed(2)} s; seeded ${(m.historyBytes / 2 ** 30).toFixed(2)} GiB in ${m.seeded.seconds.toFixed(0)} s`,
    target: '< 2 s',
    verdict: verdict(m.startup.firstAnswerSeconds < 2 && m.history >= 1_000_000),
  });
  for (const p of m.paging) {
    const failed = p.error != null;
    rows.push({
      metric: failed ? `8. ${p.name}, p95` : `8. ${p.name}, p95 of ${p.n}`,
      unit: 'ms',
      countersign: failed ? 'FAILED' : p.p95,
      reference: failed ? `${p.n} ok, then ${(p.short ?? p.error).slice(0, 70)}` : `p50 ${p.p50.toFixed(1)}, max ${p.max.toFixed(1)} ms`,
      target: p.target ? '< 50 ms ("instant")' : 'report',
      verdict: failed ? 'MISS' : p.target ? verdict(p.p95 < 50) : 'info',
      note: failed ? p.error : undefined,
    });
  }
  if (m.restart)
    rows.push({
      metric: '   start-up again on the same directory (2nd start)',
      unit: 's',
      countersign: m.restart.firstAnswerSeconds,
      reference: `ready line ${m.restart.readySeconds.toFixed(2)} s`,
      target: 'report',
      verdict: 'info',
    });
  rows.push({
    metric: `   RSS after start-up and paging, ${k(m.history)} deliveries`,
    unit: 'MiB',
    countersign: m.rss,
    target: 'report',
    verdict: 'info',
  });
}

const notRun = (metric, target) => ({ metric, countersign: 'not run (--only)', target, verdict: 'MISS' });

export function buildRows(r) {
  const rows = [];
  if (r.get) getRows(r, rows);
  else rows.push(notRun('1. GET /documents/:id vs bare node:http (wrk)', '>= 80% of saturated reference'));
  if (r.putSmall) putRows(r, rows);
  else rows.push(notRun('2. PUT /documents/:id, small vs large history', 'large >= 80% of small'));
  if (r.deliveries) deliveryRows(r, rows);
  else rows.push(notRun('3. Deliveries end to end vs the undici pump', '>= 70% of the undici pump'));
  if (r.seeded) memoryRows(r, rows);
  else {
    rows.push(notRun(`4. RSS after ${k(r.params.historyGoal)} deliveries of history`, '<= 150 MiB'));
    rows.push(notRun('5. RSS peak during a 3-minute mixed soak', '<= 150 MiB'));
    rows.push(idleFreshRow(r));
    rows.push(notRun('6. Idle RSS after the soak', '<= 80 MiB'));
    rows.push(notRun('7. Disk per delivery', '<= 1.5 KB'));
  }
  if (r.million !== null) startupRows(r, rows);
  else rows.push(notRun('8. Start-up with 1,000,000 deliveries of history', '< 2 s; paging p95 < 50 ms'));
  return rows;
}
