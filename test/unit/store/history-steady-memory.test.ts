// The history at its cap, as a long-running service has it: deliveries keep coming and
// retention drops a segment's worth now and then. What the index holds must then be
// bounded by the cap, not by how many deliveries ever went through (docs/architecture.md,
// "Memory"): retention's freed slots are reused, and with them their columns' entries,
// their attempt locations and their ids' bytes. Measured as the bytes of every typed
// array reachable from the index (its columns, id tables, location pool, typed lists),
// each buffer counted once at its allocated length.
import { describe, expect, it } from 'vitest';
import { newId } from '../../../src-main/backend/ids.js';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, historyLogs, internals, settle } from './history-fixtures.js';

const setup = historyLogs({ cap: 2_000, segmentDeliveries: 250 });

/** Allocated bytes of every ArrayBuffer reachable from `root` through properties, arrays and Maps. */
function typedBytes(root: unknown): number {
  const seen = new Set<unknown>();
  const buffers = new Set<ArrayBufferLike>();
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (ArrayBuffer.isView(v)) return void buffers.add(v.buffer);
    if (v instanceof Map) for (const x of v.values()) walk(x);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else for (const x of Object.values(v)) walk(x);
  };
  walk(root);
  let sum = 0;
  for (const b of buffers) sum += b.byteLength;
  return sum;
}

/** `n` deliveries: events fanned out to 10 subscriptions, each delivered at its first attempt. */
function deliver(log: HistoryLog, n: number, t0: number): void {
  for (let k = 0; k < n; k += 10) {
    const at = new Date(t0 + k).toISOString();
    const evt = newId('evt');
    const doc = `doc_${k % 50}`;
    log.recordEvent(event({ id: evt, document_id: doc, timestamp: at }), `{"n":${k}}`);
    const ids = Array.from({ length: 10 }, () => newId('msg'));
    const base = { event_id: evt, document_id: doc, created_at: at };
    ids.forEach((id, j) => log.recordDelivery(delivery({ ...base, id, subscription_id: `wh_${j}` })));
    ids.forEach((id, j) =>
      log.recordAttempted(
        attempt({ delivery_id: id, subscription_id: `wh_${j}`, started_at: at }),
        delivery({ ...base, id, subscription_id: `wh_${j}`, status: 'succeeded', attempts: 1, last_attempt_at: at, last_status_code: 200 }),
      ),
    );
  }
}

describe('history log at its cap', () => {
  it('holds no more after eight caps of deliveries than after two', async () => {
    const { make } = await setup();
    const log = await make();
    // Settled (every closed segment's sidecar written, its deliveries' cold fields given up
    // then: docs/storage.md), so each round is measured alike.
    const t0 = Date.parse('2026-11-26T10:00:00.000Z');
    const held: number[] = [];
    for (let round = 0; round < 8; round++) {
      deliver(log, 2_000, t0 + round * 2_000);
      await settle(log);
      held.push(typedBytes(internals(log).idx));
    }
    const kept = log.listDeliveries({ company_id: 'co_a' }, { limit: 100 });
    expect(kept.data.length).toBe(100);
    expect(Math.max(...held.slice(2))).toBeLessThanOrEqual(held[1]);
  });
});
