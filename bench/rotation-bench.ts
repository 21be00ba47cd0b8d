// Measures what a segment rotation costs the history log (not part of the test suite):
// the copy of the closed segment's index taken in the request that crosses the boundary
// (freezeSegment), the encoding of that copy done later in slices between requests
// (packSteps, run here at once), the rest of the encoding (sidecarPieces: the header and
// the checksum) and picking out the records about other segments' deliveries
// (foreignRecords), for a segment of 25,000 deliveries (the default segment at the
// default cap), each with one attempt. The first call (cold code, as at a rotation in
// the service, where these functions run once per 25,000 deliveries), then best and
// median of several. Run:
//   npx rolldown bench/rotation-bench.ts --platform node --format esm --file /tmp/rotation-bench.mjs
//   node /tmp/rotation-bench.mjs
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistoryLog } from '../src-main/backend/store/history-log.js';
import { foreignRecords, freezeSegment } from '../src-main/backend/store/history/sidecar-build.js';
import { packSteps } from '../src-main/backend/store/history/sidecar-frozen.js';
import { runNow } from '../src-main/backend/store/history/steps.js';
import { sidecarPieces } from '../src-main/backend/store/history/sidecar-format.js';
import { OwnIds } from '../src-main/backend/store/history/own-ids.js';
import type { HistoryIndex } from '../src-main/backend/store/history/index-state.js';
import type { Segment } from '../src-main/backend/store/history/segments.js';
import type { AttemptRecord, DeliverySummary } from '../src-main/backend/store/history-types.js';

const N = 25_000;
const body = JSON.stringify({ id: 'evt_x', type: 'document.updated', data: { document: { title: 'x'.repeat(600) } } });

function summary(i: number, status: DeliverySummary['status'], attempts: number, at: string): DeliverySummary {
  return {
    id: `msg_${String(i).padStart(26, '0')}`,
    event_id: `evt_${String(Math.floor(i / 50)).padStart(26, '0')}`,
    event_type: 'document.updated',
    subscription_id: `wh_${i % 50}`,
    company_id: 'co_a',
    document_id: 'doc_1',
    url: `http://127.0.0.1:4011/cs/${i % 50}`,
    status,
    attempts,
    created_at: at,
    last_attempt_at: attempts ? at : null,
    last_status_code: attempts ? 200 : null,
    last_error: null,
    last_duration_ms: attempts ? 2 : null,
    next_attempt_at: attempts ? null : Date.parse(at),
  };
}

function attempt(v: DeliverySummary, at: string): AttemptRecord {
  return {
    delivery_id: v.id,
    subscription_id: v.subscription_id,
    attempt: 1,
    started_at: at,
    duration_ms: 2,
    request: { method: 'POST', url: v.url, headers: { 'content-type': 'application/json', 'webhook-id': v.id }, body },
    response: { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok', truncated: false },
    error: null,
    succeeded: true,
    next_attempt_at: null,
    rule: 'success',
    rule_detail: '200: delivered',
  };
}

/** ms on a core of the main thread (schedstat: ns) and of the whole process (process.cpuUsage: µs; V8's compiler threads included). */
const mainMs = () => Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const allMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The first call's CPU: main thread, and all threads until the call returns (compiling started by it goes on after). */
const firstCpu: Record<string, { main: number; all: number }> = {};
function timed<T>(label: string, first: boolean, fn: () => T): T {
  const [m, a] = [mainMs(), allMs()];
  const out = fn();
  if (first) firstCpu[label] = { main: mainMs() - m, all: allMs() - a };
  return out;
}

function best(label: string, times: number[], key: string): void {
  const first = times[0];
  times.sort((a, b) => a - b);
  const c = firstCpu[key];
  const cpuText = c ? ` (CPU main ${c.main.toFixed(0)} ms, all threads ${c.all.toFixed(0)})` : '';
  console.log(
    `${label}: first ${first.toFixed(1)} ms${cpuText}, best ${times[0].toFixed(1)} ms, median ${times[times.length >> 1].toFixed(1)} ms`,
  );
}

const root = await mkdtemp(join(tmpdir(), 'rotation-bench-'));
try {
  const log = createHistoryLog({ dir: join(root, 'h'), cap: 8 * N * 10, segmentDeliveries: N * 10 });
  await log.open();
  for (let e = 0; e < N / 50; e++) {
    const at = new Date(Date.UTC(2026, 10, 26, 10, 0, 0, e)).toISOString();
    log.recordEvent(
      {
        id: `evt_${String(e).padStart(26, '0')}`,
        company_id: 'co_a',
        type: 'document.updated',
        timestamp: at,
        document_id: 'doc_1',
        subscription_id: null,
      },
      body,
    );
    for (let k = 0; k < 50; k++) log.recordDelivery(summary(e * 50 + k, 'pending', 0, at));
    for (let k = 0; k < 50; k++) {
      const v = summary(e * 50 + k, 'succeeded', 1, at);
      log.recordAttempted(attempt(v, at), v);
    }
  }
  await log.flush();
  const inner = log as unknown as { idx: HistoryIndex; cur: Segment };
  const freeze: number[] = [];
  const pack: number[] = [];
  const enc: number[] = [];
  const foreign: number[] = [];
  for (let r = 0; r < 15; r++) {
    let t = performance.now();
    const frozen = timed('freeze', r === 0, () => freezeSegment(inner.idx, inner.cur));
    freeze.push(performance.now() - t);
    t = performance.now();
    const s = timed('pack', r === 0, () => runNow(packSteps(inner.idx, frozen)));
    pack.push(performance.now() - t);
    t = performance.now();
    sidecarPieces(s.header, s.packed);
    enc.push(performance.now() - t);
    t = performance.now();
    await foreignRecords(inner.cur.path, new OwnIds(s.idBytes, s.idLen, s.header.wideIds), inner.cur.size);
    foreign.push(performance.now() - t);
  }
  best(`freezeSegment (${N} deliveries; in the request)`, freeze, 'freeze');
  best('packSteps (in slices, between requests)', pack, 'pack');
  best('sidecarPieces', enc, '');
  best(`foreignRecords (${(inner.cur.size / 1048576).toFixed(1)} MiB)`, foreign, '');
  await log.close();
} finally {
  await rm(root, { recursive: true, force: true });
}
