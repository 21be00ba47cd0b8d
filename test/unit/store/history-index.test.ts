// The history log's compact index (docs/storage.md, "Memory"): summaries come back
// exactly as recorded whether or not they fit the compact form, lists follow key
// changes, and the heap held per delivery stays small (measured after a full GC).
import { afterEach, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { DeliverySummary, EventSummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, tempDir } from './history-fixtures.js';

const cleanups: (() => Promise<void>)[] = [];
const logs: HistoryLog[] = [];

afterEach(async () => {
  for (const log of logs.splice(0)) await log.close().catch(() => {});
  for (const c of cleanups.splice(0)) await c();
});

async function setup(cap = 1_000_000, segmentBytes?: number) {
  const t = await tempDir();
  cleanups.push(t.cleanup);
  const make = async () => {
    const log = createHistoryLog({ dir: t.dir, cap, segmentBytes });
    logs.push(log);
    await log.open();
    return log;
  };
  return { make };
}

const exact = (v: unknown) => JSON.stringify(v);

/** The same summary with its status key first. */
function reordered(d: DeliverySummary): DeliverySummary {
  const { status, ...rest } = d;
  return { status, ...rest };
}

const oddDeliveries: DeliverySummary[] = [
  delivery({ id: 'msg_z', created_at: '2025-01-01T00:00:00Z' }), // not the canonical ISO form
  { ...delivery({ id: 'msg_extra' }), ...({ note: 'from a newer version' } as object) },
  delivery({ id: 'msg_status', status: 'paused' as DeliverySummary['status'] }),
  delivery({ id: 'msg_half', attempts: 1.5 }),
  delivery({ id: 'msg_nan', last_duration_ms: Number.NaN }),
];

const compactDeliveries: DeliverySummary[] = [
  delivery({ id: 'msg_a' }),
  delivery({ id: 'msg_b', document_id: null, status: 'succeeded', attempts: 2, last_attempt_at: '2025-01-01T00:00:02.500Z' }),
  delivery({ id: 'msg_c', last_status_code: 503, last_error: 'HTTP 503', last_duration_ms: 12.25, next_attempt_at: 1735689600123 }),
  { ...delivery({ id: 'msg_d' }), imported: true, origin: 'check', last_tunnel_offline: true },
  { ...delivery({ id: 'msg_e' }), last_tunnel_offline: true },
  reordered(delivery({ id: 'msg_order' })), // keys in another order: kept compact, given back in that order
  { last_tunnel_offline: true, ...reordered(delivery({ id: 'msg_order2', status: 'failed' })) } as DeliverySummary,
];

const events: EventSummary[] = [
  event({ id: 'evt_1' }),
  event({ id: 'evt_2', document_id: null, subscription_id: 'wh_1' }),
  { ...event({ id: 'evt_3' }), imported: true, origin: 'check' },
  event({ id: 'evt_4', timestamp: 'yesterday' }),
  { ...event({ id: 'evt_5' }), ...({ extra: [1, 2] } as object) },
  { origin: 'check', ...event({ id: 'evt_6', document_id: null }) }, // keys in another order
];

describe('history index: exact round trip', () => {
  it('gives back every summary as recorded, key order included, compact or kept whole, before and after a reopen', async () => {
    const { make } = await setup();
    let log = await make();
    for (const e of events) log.recordEvent(e, `body of ${e.id}`);
    for (const d of [...compactDeliveries, ...oddDeliveries]) log.recordDelivery(d);
    const check = (l: HistoryLog) => {
      for (const d of [...compactDeliveries, ...oddDeliveries]) expect(exact(l.getDelivery(d.id)), d.id).toBe(exact(d));
      for (const e of events) expect(exact(l.getEvent(e.id)), e.id).toBe(exact(e));
      const listed = l.listDeliveries({ company_id: 'co_a' }, { limit: 100 }).data;
      expect(listed.map(exact)).toEqual([...compactDeliveries, ...oddDeliveries].reverse().map(exact));
      expect(l.eventsForDocument('co_a', 'doc_1').map((e) => e.id)).toEqual(['evt_1', 'evt_3', 'evt_4', 'evt_5']);
      // By time from the index: every summary exactly, compact or kept whole, newest first
      // (by time, then id), with its time; from a cursor (inclusive) on.
      const byTime = [...l.deliveriesByTime('co_a')];
      const expected = [...listed].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? 1 : -1));
      expect(byTime.map((t) => exact(t.d))).toEqual(expected.map(exact));
      expect(byTime.map((t) => t.ms)).toEqual(expected.map((d) => Date.parse(d.created_at)));
      const at = { ms: byTime[2].ms, id: byTime[2].d.id };
      expect([...l.deliveriesByTime('co_a', at)].map((t) => t.d.id)).toEqual(expected.slice(2).map((d) => d.id));
      expect([...l.deliveriesByTime('co_b')]).toEqual([]);
    };
    check(log);
    // A compact one that becomes odd and back again.
    log.recordDelivery({ ...delivery({ id: 'msg_a' }), ...({ note: 1 } as object) });
    expect(log.getDelivery('msg_a')).toMatchObject({ note: 1 });
    log.recordDelivery(delivery({ id: 'msg_a' }));
    await log.close();
    log = await make();
    check(log);
  });

  it('moves a delivery between lists when a key field changes, in sequence order', async () => {
    const { make } = await setup();
    const log = await make();
    for (let i = 1; i <= 5; i++)
      log.recordDelivery(delivery({ id: `msg_${i}`, subscription_id: i % 2 ? 'wh_odd' : 'wh_even', event_id: `evt_${i}` }));
    log.recordDelivery(delivery({ id: 'msg_2', subscription_id: 'wh_odd', event_id: 'evt_9', document_id: 'doc_9' }));
    const ids = (f: Partial<Parameters<HistoryLog['listDeliveries']>[0]>, after?: string) =>
      log.listDeliveries({ company_id: 'co_a', ...f }, { limit: 2, starting_after: after });
    expect(ids({ subscription_id: 'wh_odd' }).data.map((d) => d.id)).toEqual(['msg_5', 'msg_3']);
    expect(ids({ subscription_id: 'wh_odd' }, 'msg_3').data.map((d) => d.id)).toEqual(['msg_2', 'msg_1']);
    expect(ids({ subscription_id: 'wh_even' }).data.map((d) => d.id)).toEqual(['msg_4']);
    expect(ids({ event_id: 'evt_2' }).data).toEqual([]);
    expect(ids({ event_id: 'evt_9' }).data.map((d) => d.id)).toEqual(['msg_2']);
    expect(ids({ document_id: 'doc_9' }).data.map((d) => d.id)).toEqual(['msg_2']);
    expect(ids({ document_id: 'doc_1' }).has_more).toBe(true);
    expect(log.listDeliveries({ company_id: 'co_b' }, { limit: 10 }).data).toEqual([]);
    expect(log.listDeliveries({ company_id: 'co_b' }, { limit: 10, starting_after: 'msg_1' }).data).toEqual([]);
  });
});

describe('history index: memory', () => {
  it('holds under 600 bytes of memory per delivery (with its own event and attempt), measured after a full GC', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // One segment: no sidecar is being built (in the background) while memory is measured.
    const { make } = await setup(1_000_000, 2 ** 30);
    const log = await make();
    const record = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const id = `msg_${String(i).padStart(24, '0')}`;
        const evt = `evt_${String(i).padStart(24, '0')}`;
        const at = new Date(1_750_000_000_000 + i * 1000).toISOString();
        log.recordEvent(event({ id: evt, document_id: `doc_${i % 500}`, timestamp: at }), '{}');
        log.recordDelivery(delivery({ id, event_id: evt, document_id: `doc_${i % 500}`, subscription_id: `wh_${i % 3}`, created_at: at }));
        log.recordAttempt(
          attempt({ delivery_id: id, request: { method: 'POST', url: 'http://127.0.0.1:9/hook', headers: {}, body: '{}' } }),
        );
        log.recordDelivery(
          delivery({
            id,
            event_id: evt,
            document_id: `doc_${i % 500}`,
            subscription_id: `wh_${i % 3}`,
            created_at: at,
            status: 'succeeded',
            attempts: 1,
          }),
        );
      }
    };
    record(0, 2000); // warm up: code, interned values, first column sizes
    await log.flush();
    gc();
    gc();
    // Typed-array columns live outside the JavaScript heap: counted through arrayBuffers.
    const held = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const before = held();
    const n = 30_000;
    record(2000, 2000 + n);
    await log.flush();
    // Buffers freed by one full GC are swept in the background; the next GC finishes that sweep first.
    gc();
    gc();
    const perDelivery = (held() - before) / n;
    expect(log.getDelivery(`msg_${String(2000 + n - 1).padStart(24, '0')}`)?.status).toBe('succeeded');
    expect(perDelivery).toBeLessThan(600);
  }, 60_000);
});
