// Turns the measured figures into the table's rows, with the targets of issue 2 §7.
import { verdict } from './report.mjs';

const pct = (x) => `${Math.round(x * 100)}%`;

export function buildRows(r) {
  const rows = [];
  const k = (n) => n.toLocaleString('en-US');
  const ratio = (a, b) => (a == null || !b ? null : a / b);

  // Row 1: GET.
  const getRatio = ratio(r.get.cs.rps, r.get.ref.rps);
  rows.push({
    metric: 'GET /documents/:id throughput',
    unit: 'req/s',
    countersign: r.get.cs.rps,
    reference: r.get.ref.rps,
    ratio: getRatio,
    target: `>= ${pct(0.25)} of reference`,
    verdict: verdict(getRatio >= 0.25 && r.get.cs.errors === 0),
  });
  const exRatio = ratio(r.get.express.rps, r.get.ref.rps);
  rows.push({
    metric: 'GET, bare Express 5 app (context only)',
    unit: 'req/s',
    countersign: r.get.express.rps,
    reference: r.get.ref.rps,
    ratio: exRatio,
    target: 'context',
    verdict: 'info',
  });
  rows.push({
    metric: 'GET /documents/:id p99 latency',
    unit: 'ms',
    countersign: r.get.cs.latencyMs.p99,
    reference: r.get.ref.latencyMs.p99,
    ratio: ratio(r.get.cs.latencyMs.p99, r.get.ref.latencyMs.p99),
    target: 'report',
    verdict: 'info',
  });

  const us = (cpuS, n) => (cpuS == null || !n ? null : (cpuS * 1e6) / n);
  // CPU time per unit of work: far less disturbed by other programs than rates are.
  const watched = (l) => Object.values(l.cpu?.pids ?? {})[0];
  const getCpu = [us(watched(r.get.cs), r.get.cs.requests), us(watched(r.get.ref), r.get.ref.requests)];
  rows.push({
    metric: 'GET CPU time per request (server process)',
    unit: 'us',
    countersign: getCpu[0],
    reference: getCpu[1],
    ratio: ratio(getCpu[0], getCpu[1]),
    target: 'report',
    verdict: 'info',
  });
  const exCpu = us(watched(r.get.express), r.get.express.requests);
  rows.push({
    metric: 'GET CPU per request, bare Express 5 (context)',
    unit: 'us',
    countersign: exCpu,
    reference: getCpu[1],
    ratio: ratio(exCpu, getCpu[1]),
    target: 'context',
    verdict: 'info',
  });

  // Row 2: PUT at 1,000 and at 100,000 deliveries in history.
  const at1k = r.put1k.before.history_deliveries;
  const at100k = r.put100k.before.history_deliveries;
  const put1 = r.put1k.load.rps;
  const put2 = r.put100k.load.rps;
  rows.push({
    metric: `PUT /documents/:id, ${at1k.toLocaleString('en-US')} deliveries in history`,
    unit: 'req/s',
    countersign: put1,
    reference: '1,500 req/s (absolute)',
    ratio: ratio(put1, 1500),
    target: '>= 1,500 req/s',
    verdict: verdict(put1 >= 1500 && r.put1k.load.errors === 0),
  });
  rows.push({
    metric: `PUT /documents/:id, ${at100k.toLocaleString('en-US')} deliveries in history`,
    unit: 'req/s',
    countersign: put2,
    reference: put1,
    ratio: ratio(put2, put1),
    target: `>= ${pct(0.8)} of the 1k figure`,
    verdict: verdict(put2 >= 0.8 * put1 && r.put100k.load.errors === 0 && at100k >= 100_000 * (r.params.quick ? 0.2 : 1)),
  });
  rows.push({
    metric: `PUT p99 latency at ${at100k.toLocaleString('en-US')} (ref.: at ${at1k.toLocaleString('en-US')})`,
    unit: 'ms',
    countersign: r.put100k.load.latencyMs.p99,
    reference: r.put1k.load.latencyMs.p99,
    ratio: ratio(r.put100k.load.latencyMs.p99, r.put1k.load.latencyMs.p99),
    target: 'report',
    verdict: 'info',
  });

  const putCpu = (p) => us(watched(p.load), p.load.requests);
  rows.push({
    metric: `PUT CPU per request, delivery incl., at ${at100k.toLocaleString('en-US')} (ref.: at ${at1k.toLocaleString('en-US')})`,
    unit: 'us',
    countersign: putCpu(r.put100k),
    reference: putCpu(r.put1k),
    ratio: ratio(putCpu(r.put100k), putCpu(r.put1k)),
    target: 'report',
    verdict: 'info',
  });

  // Row 3: deliveries end to end.
  const d = r.deliveries;
  const dRatio = ratio(d.rate, d.ref.rps);
  const allLogged = (d.statuses['succeeded/1'] ?? 0) === d.n;
  rows.push({
    metric: 'Deliveries end to end (signed, 2xx, logged)',
    unit: 'deliv/s',
    countersign: d.rate,
    reference: d.ref.rps,
    ratio: dRatio,
    target: '>= 4,000/s and >= 70% of reference',
    verdict: verdict(d.rate >= 4000 && dRatio >= 0.7 && allLogged && d.ref.errors === 0),
  });
  rows.push({
    metric: `  time making the events (${k(d.putLoad.requests)} PUTs), of ${d.seconds.toFixed(1)} s`,
    unit: 's',
    countersign: d.putLoad.seconds,
    reference: '—',
    ratio: null,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: 'CPU time per delivery (sender process)',
    unit: 'us',
    countersign: us(d.cpu.cs, d.n),
    reference: us(d.ref.cpu.self, d.n),
    ratio: ratio(us(d.cpu.cs, d.n), us(d.ref.cpu.self, d.n)),
    target: 'report',
    verdict: 'info',
  });
  const b = d.backlog;
  const bValid = b.enqueueSeconds < 9; // the receiver's hold ends by itself after 10 s
  rows.push({
    metric: 'Deliveries from a stored backlog (diagnostic)',
    unit: 'deliv/s',
    countersign: bValid ? b.rate : 'invalid',
    reference: d.ref.rps,
    ratio: bValid ? ratio(b.rate, d.ref.rps) : null,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: 'Deliveries logged as succeeded (1st attempt)',
    unit: 'count',
    countersign: (d.statuses['succeeded/1'] ?? 0) + (b.statuses['succeeded/1'] ?? 0),
    reference: d.n + b.n,
    referenceUnit: 'count',
    ratio: ratio((d.statuses['succeeded/1'] ?? 0) + (b.statuses['succeeded/1'] ?? 0), d.n + b.n),
    target: 'all',
    verdict: verdict(allLogged && (b.statuses['succeeded/1'] ?? 0) === b.n),
  });

  // Row 4: memory (RSS of the service vs the bare server's).
  const refRss = r.get.rss.ref;
  const mem = [
    ['after GET', r.get.rss.cs],
    [`after PUT at ${at1k.toLocaleString('en-US')}`, r.snapshots.after1k.rss_bytes],
    ['after the delivery burst', d.rssAfter],
    [`after seeding to ${r.seeded.history_deliveries.toLocaleString('en-US')}`, r.snapshots.afterSeed.rss_bytes],
    [`after PUT at ${at100k.toLocaleString('en-US')}`, r.snapshots.after100k.rss_bytes],
  ];
  for (const [when, rss] of mem)
    rows.push({
      metric: `RSS ${when}`,
      unit: 'MiB',
      countersign: rss,
      reference: refRss,
      ratio: ratio(rss, refRss),
      target: 'report',
      verdict: 'info',
    });

  // Storage and seeding, as reported figures.
  rows.push({
    metric: `data.json size at ${k(at1k)} deliveries`,
    unit: 'MiB',
    countersign: r.put1k.before.data_json_bytes,
    reference: '—',
    ratio: null,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: 'data.json largest size during the delivery burst',
    unit: 'MiB',
    countersign: d.maxDataJson,
    reference: '—',
    ratio: null,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: `data.json size at ${k(at100k)} deliveries`,
    unit: 'MiB',
    countersign: r.put100k.before.data_json_bytes,
    reference: '—',
    ratio: null,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: `history folder size at ${k(at1k)} deliveries`,
    unit: 'MiB',
    countersign: r.put1k.before.history_bytes,
    reference: '—',
    ratio: null,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: `history folder size at ${k(at100k)} deliveries`,
    unit: 'MiB',
    countersign: r.put100k.before.history_bytes,
    reference: '—',
    ratio: null,
    target: 'report',
    verdict: 'info',
  });
  rows.push({
    metric: `Seeding: ${r.seeded.deliveries.toLocaleString('en-US')} deliveries added to reach ${r.seeded.history_deliveries.toLocaleString('en-US')}`,
    unit: 's',
    countersign: r.seeded.seconds,
    reference: '—',
    ratio: null,
    target: 'report',
    verdict: 'info',
  });
  return rows;
}
