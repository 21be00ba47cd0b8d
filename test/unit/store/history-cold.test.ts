// The closed segments' deliveries out of memory (docs/storage.md, "The delivery history in
// memory"): once a segment's sidecar is written, its deliveries that are not pending give
// up the summary fields listing never needs (cold-rows.ts) and read them back from the
// sidecar. What the log answers must not change: every summary, every page, every cursor,
// an attempt on such a delivery, a restart; and when the sidecar is gone or damaged, the
// segment itself gives them back.
import { describe, expect, it } from 'vitest';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeliverySummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import type { HistoryIndex } from '../../../src-main/backend/store/history/index-state.js';
import { attempt, delivery, historyLogs, internals, settle } from './history-fixtures.js';
import { answers, attemptsOf, fill } from './history-answers.js';

const setup = historyLogs({ cap: 10_000, segmentDeliveries: 40 });

const pendingIn = (want: Map<string, DeliverySummary>) => [...want.values()].filter((v) => v.status === 'pending').length;

describe('history log: closed segments keep only what listing needs in memory', () => {
  it('answers exactly as before once the cold fields are given up, after an attempt on such a delivery, and after a restart', async () => {
    const { open } = await setup();
    const { log } = await open();
    const want = fill(log, 400);
    const ids = [...want.keys()];
    const before = answers(log, ids); // the sidecars are still being written: nothing given up yet
    expect(ids.map((id) => log.getDelivery(id))).toEqual([...want.values()]);
    const { idx } = internals(log);
    const chained = idx.pool.size;
    const attempts = await attemptsOf(log, ids);
    await settle(log);
    // In memory: the open segment's deliveries (at most 40), the pending ones and those kept whole.
    const kept = idx.d.cold.size;
    expect(kept).toBeLessThanOrEqual(40 + pendingIn(want) + 20);
    expect(kept).toBeLessThan(want.size / 2);
    // Their attempt locations likewise (one attempt each for those not pending).
    expect(chained).toBeGreaterThan(want.size / 2);
    expect(idx.pool.size).toBeLessThanOrEqual(60);
    const reads = idx.cold.reads;
    expect(answers(log, ids)).toBe(before);
    expect(await attemptsOf(log, ids)).toBe(attempts);
    expect(idx.cold.reads).toBeGreaterThan(reads); // read back from the sidecars
    expect(idx.pool.size).toBeLessThanOrEqual(60); // reading them made no chain

    // A failed delivery of the first segment attempted again: it changes, and only it comes back into memory.
    const old = want.get('msg_00005') as DeliverySummary;
    expect(old.status).toBe('failed');
    const retried = { ...old, status: 'succeeded' as const, attempts: 2, last_status_code: 200, last_error: null };
    log.recordAttempted(attempt({ delivery_id: old.id, subscription_id: old.subscription_id }), retried);
    want.set(old.id, retried);
    expect(log.getDelivery(old.id)).toEqual(retried);
    expect(idx.d.cold.size).toBe(kept + 1);
    const [first, second] = await log.getAttempts(old.id);
    expect([first.attempt, second.attempt]).toEqual([1, 1]); // the sidecar's location, then the new one
    expect(second.delivery_id).toBe(old.id);
    const after = answers(log, ids);
    const attemptsAfter = await attemptsOf(log, ids);
    expect(after).not.toBe(before);
    await log.close();

    const reopened = (await open()).log;
    expect(answers(reopened, ids)).toBe(after);
    expect(await attemptsOf(reopened, ids)).toBe(attemptsAfter);
    expect(internals(reopened).idx.pool.size).toBeLessThanOrEqual(60 + 2);
    expect(ids.map((id) => reopened.getDelivery(id))).toEqual([...want.values()]);
    // Loaded from the sidecars: only the open segment's, the pending and the changed deliveries' fields are in memory.
    expect(internals(reopened).idx.d.cold.size).toBeLessThanOrEqual(kept + 1);
  });

  it('reads the cold fields from the segment itself when its sidecar is gone or damaged after they were given up', async () => {
    const { dir, open } = await setup();
    const { log } = await open();
    const want = fill(log, 200);
    const ids = [...want.keys()];
    const before = answers(log, ids);
    await settle(log);
    const sidecars = (await readdir(dir)).filter((f) => f.endsWith('.idx')).sort();
    expect(sidecars.length).toBeGreaterThanOrEqual(4);
    await rm(join(dir, sidecars[0]));
    await writeFile(join(dir, sidecars[1]), 'not an index');
    const attempts = await attemptsOf(log, ids);
    internals(log).idx.cold.clear();
    expect(answers(log, ids)).toBe(before);
    expect(await attemptsOf(log, ids)).toBe(attempts);
    expect(ids.map((id) => log.getDelivery(id))).toEqual([...want.values()]);
  });

  it('keeps a pending delivery of a closed segment in memory, and sends it again after a restart from its sidecar', async () => {
    const { open } = await setup();
    const { log } = await open();
    const want = fill(log, 200);
    await settle(log);
    const pending = log.pendingDeliveries();
    expect(pending.map((v) => v.id).sort()).toEqual([...want.values()].filter((v) => v.status === 'pending').map((v) => v.id));
    const reads = internals(log).idx.cold.reads;
    log.pendingDeliveries();
    expect(internals(log).idx.cold.reads).toBe(reads); // none read back: they never left memory
    await log.close();
    const reopened = (await open()).log;
    const byId = (a: DeliverySummary, b: DeliverySummary) => a.id.localeCompare(b.id);
    expect(reopened.pendingDeliveries().sort(byId)).toEqual(pending.sort(byId)); // in slot order, which a reload may change
  });

  it("keeps a closed delivery's id in its sidecar only, finds it by id there, and loads none of them at a restart", async () => {
    const { open } = await setup();
    const { log } = await open();
    // Ids with a character above U+00FF are not in a sidecar's bytes: they stay in memory.
    const wide = { ...delivery({ id: 'msg_✓_wide', status: 'succeeded', attempts: 1 }), created_at: '2026-11-26T09:00:00.000Z' };
    log.recordDelivery(wide);
    const want = fill(log, 400);
    want.set(wide.id, wide);
    const ids = [...want.keys()];
    await settle(log);
    const { idx } = internals(log);
    const check = (l: HistoryLog, x: HistoryIndex) => {
      // In memory: the ids of the deliveries whose cold fields are (open segment, pending, kept whole), and the wide one.
      expect(x.d.ids.inMemory).toBeLessThanOrEqual(x.d.cold.size);
      expect(x.d.ids.inMemory).toBeLessThan(want.size / 2);
      expect(x.d.size).toBe(want.size);
      expect(ids.map((id) => l.getDelivery(id))).toEqual([...want.values()]);
      for (const id of ['msg_99999', 'msg_0000', 'msg_000050', 'msg_✓_wid', 'msg_✓_wide ', '']) expect(l.getDelivery(id)).toBeUndefined();
      // A cursor that is a closed delivery's id pages on from it.
      const page = l.listDeliveries({ company_id: 'co_a' }, { limit: 3, starting_after: 'msg_00101' });
      expect(page.data.map((v) => v.id)).toEqual(['msg_00100', 'msg_00099', 'msg_00098']);
    };
    check(log, idx);
    const before = answers(log, ids);
    await log.close();
    const reopened = (await open()).log;
    const again = internals(reopened).idx;
    expect(again.cold.reads).toBe(0);
    check(reopened, again);
    expect(answers(reopened, ids)).toBe(before);
  });
});

describe('history log at its cap: closed ids', () => {
  const capped = historyLogs({ cap: 200, segmentDeliveries: 40 });

  it('forgets the ids retention drops, finds the others, and a new delivery may take a dropped id again', async () => {
    const { open } = await capped();
    const { log } = await open();
    const want = fill(log, 800);
    await log.flush();
    await (log as unknown as { retention: { idle(): Promise<void> } }).retention.idle();
    await settle(log);
    const { idx } = internals(log);
    const kept = [...want.keys()].filter((id) => log.getDelivery(id) !== undefined);
    expect(kept.length).toBeGreaterThan(100);
    expect(kept.length).toBe(idx.d.size);
    // Dropped: the oldest, but for pending ones (carried).
    const dropped = [...want.keys()].filter((id) => !kept.includes(id));
    expect(dropped.length).toBeGreaterThan(400);
    expect(dropped.every((id) => want.get(id)?.status !== 'pending')).toBe(true);
    for (const id of kept) expect(log.getDelivery(id)).toEqual(want.get(id));
    const again = { ...(want.get(dropped[0]) as DeliverySummary), created_at: '2026-11-27T10:00:00.000Z' };
    log.recordDelivery(again);
    expect(log.getDelivery(again.id)).toEqual(again);
    expect(idx.d.size).toBe(kept.length + 1);
  });
});
