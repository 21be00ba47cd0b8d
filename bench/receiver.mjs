// Benchmark receiver: a bare node:http server on 127.0.0.1 that answers every POST with
// 200 as fast as Node can, and counts what arrived, per source (the first path segment:
// /cs/... are Countersign's deliveries, /ref/... the reference client's). It runs in its
// own process so that neither the service nor the load generator pays for it.
// Control: GET /__stats -> counts and arrival times; GET /__sample -> the last /cs body
// and headers; POST /__hold -> answers to /cs requests wait (a backlog builds up in the
// sender); POST /__release -> they are all answered now. A hold ends by itself after
// 10 s or 10,000 held requests, so nothing can hang on it.
import { createServer } from 'node:http';

const counts = { cs: 0, ref: 0, other: 0 };
const first = { cs: 0, ref: 0, other: 0 };
const last = { cs: 0, ref: 0, other: 0 };
const samples = { cs: null, ref: null, other: null };
const OK = Buffer.from('{"ok":true}');
const now = () => performance.timeOrigin + performance.now();
let held = null;
let holdTimer = null;

function answer(res) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': OK.length });
  res.end(OK);
}

function release() {
  clearTimeout(holdTimer);
  const list = held ?? [];
  held = null;
  for (const res of list) answer(res);
  return list.length;
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/__stats') {
    res.setHeader('content-type', 'application/json');
    return res.end(JSON.stringify({ counts, first, last }));
  }
  if (req.method === 'GET' && req.url === '/__sample') {
    res.setHeader('content-type', 'application/json');
    const s = samples.cs;
    return res.end(JSON.stringify(s && { headers: s.headers, body: Buffer.concat(s.chunks).toString('utf8') }));
  }
  if (req.method === 'POST' && req.url === '/__hold') {
    req.resume();
    held ??= [];
    clearTimeout(holdTimer);
    holdTimer = setTimeout(release, 10_000);
    return res.end('{}');
  }
  if (req.method === 'POST' && req.url === '/__release') {
    req.resume();
    const n = release();
    return res.end(JSON.stringify({ released: n, at: now() }));
  }
  const kind = req.url.startsWith('/cs/') ? 'cs' : req.url.startsWith('/ref/') ? 'ref' : 'other';
  // Every source's request costs the receiver the same: its chunks are kept (not joined)
  // as that source's latest sample; /__sample joins Countersign's only when asked.
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const t = now();
    if (counts[kind]++ === 0) first[kind] = t;
    last[kind] = t;
    samples[kind] = { headers: req.headers, chunks };
    if (held && kind === 'cs' && held.length < 10_000) held.push(res);
    else answer(res);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ ready: true, url: `http://127.0.0.1:${server.address().port}` }) + '\n');
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
