// Diagnostic (not part of the test suite): bytes per delivery held by the history index,
// structure by structure, for figure 4's shape (one event fanned out to 100 subscriptions,
// 50 documents, one company, one attempt per delivery) or one event per delivery.
// With `closed` as third argument, a new segment starts every 25,000 deliveries (the
// service's segment at the soak's cap of 200,000) and each one is closed as a rotation
// closes it (its sidecar made, not written; its deliveries give up what the sidecar
// holds): all but the last deliveries are then in closed segments.
// Run:
//   npx rolldown bench/index-memory.ts --platform node --format esm --file /tmp/index-memory.mjs
//   node --expose-gc /tmp/index-memory.mjs [deliveries=130000] [fanout=100] [closed]
import { HistoryIndex } from '../src-main/backend/store/history/index-state.js';
import type { Segment } from '../src-main/backend/store/history/segments.js';
import type { DeliverySummary, EventSummary } from '../src-main/backend/store/history-types.js';
import { newId } from '../src-main/backend/ids.js';
import { coldSourceOf } from '../src-main/backend/store/history/cold-source.js';
import { snapshotSidecar, unpacked } from '../src-main/backend/store/history/sidecar-build.js';

const total = Number(process.argv[2] ?? 130_000);
const fanout = Number(process.argv[3] ?? 100);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function heap(): { heap: number; ab: number } {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, ab: m.arrayBuffers };
}

const newSeg = (id: number): Segment => ({ id, path: '/tmp/none', size: 0, written: 0, isNew: false, created: 0 }) as Segment;
let seg = newSeg(1);
const closing = process.argv[4] === 'closed';
const sources = new Map<number, ReturnType<typeof coldSourceOf>>();
/** As SidecarQueue does once a sidecar is written; the decoded sidecars are the cold cache's (two segments at most), not counted. */
function close(old: Segment): void {
  const snap = snapshotSidecar(idx, old);
  const src = coldSourceOf(unpacked(snap));
  sources.set(old.id, src);
  idx.d.evict(old.id, src, snap.slots);
}
const subs = Array.from({ length: Math.max(fanout, 1) }, () => newId('wh'));
const docs = Array.from({ length: 50 }, () => newId('doc'));
const t0 = Date.parse('2026-11-26T10:00:00.000Z');

const before = heap();
const idx = new HistoryIndex();
idx.segs.set(seg.id, seg);
idx.d.coldSource = (id) => sources.get(id)!;
let seq = 0;
let off = 0;
for (let n = 0; n < total;) {
  const evt = newId('evt');
  const doc = docs[((n / fanout) % docs.length) | 0];
  const at = new Date(t0 + n).toISOString();
  const e: EventSummary = {
    id: evt,
    company_id: 'co_bench',
    type: 'document.updated',
    timestamp: at,
    document_id: doc,
    subscription_id: null,
  };
  idx.putEvent(++seq, e, { seg, off, len: 500 });
  off += 500;
  for (let k = 0; k < fanout && n < total; k++, n++) {
    if (closing && n > 0 && n % 25_000 === 0) {
      const old = seg;
      seg = newSeg(old.id + 1);
      idx.segs.set(seg.id, seg);
      close(old);
    }
    const v: DeliverySummary = {
      id: newId('msg'),
      event_id: evt,
      event_type: 'document.updated',
      subscription_id: subs[k],
      company_id: 'co_bench',
      document_id: doc,
      url: 'http://127.0.0.1:4011/hook',
      status: 'succeeded',
      attempts: 1,
      created_at: at,
      last_attempt_at: at,
      last_status_code: 200,
      last_error: null,
      last_duration_ms: 3,
      next_attempt_at: null,
    };
    const s = idx.addDelivery(++seq, v, seg);
    idx.d.addAttempt(s, { seg, off, len: 375 });
    off += 375;
  }
}
sources.clear();
const after = heap();
const per = (b: number): string => (b / total).toFixed(1).padStart(7);
const bytes = (o: unknown): number => {
  let sum = 0;
  for (const v of Object.values(o as Record<string, unknown>)) if (ArrayBuffer.isView(v)) sum += (v as ArrayBufferView).byteLength;
  return sum;
};
// Typed storage, by structure (byteLength: what is committed for it).
const r = idx as unknown as Record<string, Record<string, unknown>>;
const ids = idx.d.ids as unknown as Record<string, unknown>;
const rows: [string, number][] = [
  ['delivery columns', bytes(idx.d.c)],
  ['delivery ids (bytes, table; closed: keys+slots)', idx.d.ids.bytesHeld],
  ['  of which closed ids (keys+slots)', (ids.closed as { bytesHeld: number }).bytesHeld],
  ['cold rows (a closed segment gives its up)', bytes(idx.d.cold.k)],
  ['event columns', bytes(idx.ev)],
  ['loc pool', bytes(idx.pool)],
];
const times = r.times as unknown as { byCompany: Map<number, { slots: Int32Array; ms?: Float64Array }> };
let timeBytes = 0;
for (const o of times.byCompany.values()) timeBytes += o.slots.byteLength + (o.ms?.byteLength ?? 0);
rows.push(['time order', timeBytes]);
let runs = 0;
for (const k of ['byCompany', 'bySubscription', 'byDocument', 'byEvent', 'docEvents'])
  runs += (r[k] as { runBytes?: number }).runBytes ?? 0;
rows.push(['slot lists: runs (typed)', runs]);
// Event ids as bytes (id-interner.ts), where the build has it.
const evIds = (idx.eventIds as unknown as Record<string, unknown>).ids as Record<string, unknown> | undefined;
const evIdsBytes = evIds ? (evIds.bytes as Buffer).byteLength + bytes(evIds) + bytes(idx.eventIds) : 0;
rows.push(['event id table (typed)', evIdsBytes]);
console.log(`${total} deliveries, fan-out ${fanout}: per delivery`);
for (const [name, b] of rows) console.log(`${per(b)}  ${name}`);
const typed = rows.reduce((a, [name, b]) => (name.startsWith(' ') ? a : a + b), 0);
console.log(`${per(typed)}  = typed total (byteLength)`);
console.log(`${per(after.ab - before.ab)}  ArrayBuffers (process.memoryUsage)`);
console.log(`${per(after.heap - before.heap)}  JS heap (slot lists, interners, maps)`);
console.log(`${per(process.memoryUsage().rss)}  RSS of this process (for scale)`);
console.log(`   interned strings ${idx.strs.size}, event ids ${idx.eventIds.size}`);
