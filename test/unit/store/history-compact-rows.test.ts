// A burst gives back the rows it took (history/compact-rows.ts). Deliveries pending
// while their segment closes keep their cold fields and attempt locations in memory,
// and take them again when their attempt lands; the rows those take stay in the columns
// (resident) after retention has dropped them, unless the columns are compacted. So a
// log that had a burst of pending deliveries holds, once the burst's segments are gone,
// no more room for those rows than a log that only ever had the steady traffic.
import { describe, expect, it, vi } from 'vitest';
import { ColdRows } from '../../../src-main/backend/store/history/cold-rows.js';
import { newId } from '../../../src-main/backend/ids.js';
import type { DeliverySummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, historyLogs, settle, summaryAfter } from './history-fixtures.js';

const setup = historyLogs({ cap: 4_000, segmentDeliveries: 500 });

type Cols = Record<string, ArrayBufferView>;
interface Internals {
  idx: { d: { cold: { k: Cols; size: number } }; pool: { size: number } };
}

const bytes = (cols: ArrayBufferView[]): number => cols.reduce((sum, c) => sum + c.byteLength, 0);

/** Bytes held by the cold rows' columns. */
function coldBytes(log: HistoryLog): number {
  return bytes(Object.values((log as unknown as Internals).idx.d.cold.k));
}

/** Bytes held by the attempt locations' columns. */
function locBytes(log: HistoryLog): number {
  const pool = (log as unknown as Internals).idx.pool as unknown as Cols;
  return bytes(['seg', 'off', 'len', 'item', 'next'].map((k) => pool[k]));
}

const t0 = Date.parse('2026-11-26T10:00:00.000Z');

/** `n` deliveries (events to 10 subscriptions), left pending; returns their summaries. */
function enqueue(log: HistoryLog, n: number, from: number) {
  const made = [];
  for (let k = 0; k < n; k += 10) {
    const at = new Date(t0 + from + k).toISOString();
    const evt = newId('evt');
    log.recordEvent(event({ id: evt, document_id: `doc_${k % 50}`, timestamp: at }), `{"n":${k}}`);
    for (let j = 0; j < 10; j++) {
      const v = delivery({ id: newId('msg'), event_id: evt, document_id: `doc_${k % 50}`, subscription_id: `wh_${j}`, created_at: at });
      log.recordDelivery(v);
      made.push(v);
    }
  }
  return made;
}

/** What each delivery should read back as. */
const expected = new Map<string, DeliverySummary>();

/** Each delivery's first attempt, succeeded. */
function deliverAll(log: HistoryLog, made: ReturnType<typeof enqueue>): void {
  for (const v of made) {
    const a = attempt({ delivery_id: v.id, subscription_id: v.subscription_id, started_at: v.created_at });
    const after = summaryAfter(v, a);
    log.recordAttempted(a, after);
    expected.set(v.id, after);
  }
}

/** Steady traffic: `n` deliveries, each attempted right after it is made, settled every 500. */
async function steady(log: HistoryLog, n: number, from: number): Promise<void> {
  for (let k = 0; k < n; k += 500) {
    deliverAll(log, enqueue(log, 500, from + k));
    await settle(log);
  }
}

describe('history rows after a burst', () => {
  it('gives back the room a burst of pending deliveries took once retention dropped them', async () => {
    const { make } = await setup();
    const burst = await make();
    // 12,000 deliveries pending across 24 segment closes (their rows in memory), then all
    // delivered (each takes an attempt location). Measured where nothing can have been
    // given up yet, whenever the background sidecars and retention run.
    const made = enqueue(burst, 12_000, 0);
    await settle(burst);
    expect((burst as unknown as Internals).idx.d.cold.size).toBeGreaterThanOrEqual(12_000);
    const coldAtMost = coldBytes(burst);
    deliverAll(burst, made);
    const locsAtMost = locBytes(burst);
    await settle(burst);
    await steady(burst, 10_000, 12_000);

    // The burst's rows are gone (retention dropped its segments, cap 4,000) and their room with them.
    expect((burst as unknown as Internals).idx.d.cold.size).toBeLessThanOrEqual(5_000);
    expect(coldBytes(burst)).toBeLessThan(coldAtMost / 2);
    expect(locBytes(burst)).toBeLessThan(locsAtMost / 2);
    // Rows moved, and every delivery kept still reads back as recorded, with its attempt.
    let kept = 0;
    for (const [id, v] of expected) {
      const got = burst.getDelivery(id);
      if (!got) continue;
      kept++;
      expect(got).toEqual(v);
      if (kept % 97 === 0) expect((await burst.getAttempts(id)).map((a) => a.delivery_id)).toEqual([id]);
    }
    expect(kept).toBeGreaterThanOrEqual(4_000);
  });

  it('keeps pending deliveries whole through compactions, and their attempts land on the moved rows', async () => {
    const { make } = await setup();
    const log = await make();
    const waiting = enqueue(log, 1_000, 0);
    const burst = enqueue(log, 12_000, 1_000);
    await settle(log);
    const before = coldBytes(log); // 13,000 rows pending: nothing given up yet
    deliverAll(log, burst);
    await settle(log);
    await steady(log, 10_000, 13_000);
    expect(coldBytes(log)).toBeLessThan(before / 2); // compacted while the 1,000 still waited
    for (const v of waiting) expect(log.getDelivery(v.id)).toEqual(v);
    deliverAll(log, waiting);
    await settle(log);
    for (const v of waiting) {
      expect(log.getDelivery(v.id)).toEqual(expected.get(v.id));
    }
    for (const v of waiting.slice(0, 50)) expect((await log.getAttempts(v.id)).map((a) => a.delivery_id)).toEqual([v.id]);
  });

  it('compacts nothing under a steady load: each cycle reuses the rows the last one gave up', async () => {
    const { make } = await setup({ cap: 40_000, segmentDeliveries: 5_000 });
    const log = await make();
    const compactions = vi.spyOn(ColdRows.prototype, 'compact');
    try {
      await steady(log, 30_000, 0);
      // Rotations happened and their evictions ran with thousands of rows used (past COMPACT_FROM).
      expect((log as unknown as Internals).idx.d.cold.size).toBeLessThan(10_000);
      expect(compactions).not.toHaveBeenCalled();
    } finally {
      compactions.mockRestore();
    }
  });
});
