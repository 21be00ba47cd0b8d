// The outbox against a real store and a real history log in a temp folder, on a manual
// clock: what it stores, what it logs, and when it tells the engine.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src-main/backend/clock.js';
import { Store } from '../../../src-main/backend/store/store.js';
import { createHistoryLog } from '../../../src-main/backend/store/history-log.js';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { NOT_SAVED, Outbox, type OutboxListener, type OutboxWork } from '../../../src-main/backend/delivery/outbox.js';
import type { SubscriptionRecord } from '../../../src-main/backend/store/schema.js';

const T0 = Date.UTC(2030, 0, 1);
let dir: string;
let clock: ManualClock;
let store: Store;
let history: HistoryLog;
let outbox: Outbox;
let heard: { added: OutboxWork[][]; again: OutboxWork[]; cancelled: string[] };

async function open() {
  store = new Store(dir);
  history = createHistoryLog({ dir: join(dir, 'history'), cap: 1000, clock });
  await store.open();
  await history.open();
  store.attachLog(history);
  outbox = new Outbox({ store, history, clock });
  heard = { added: [], again: [], cancelled: [] };
  const listener: OutboxListener = {
    added: (work) => heard.added.push(work),
    again: (work) => heard.again.push(work),
    cancelled: (id) => heard.cancelled.push(id),
  };
  outbox.listen(listener);
}
async function close() {
  await store.close();
  await history.close();
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-outbox-'));
  clock = new ManualClock(T0);
  await open();
});
afterEach(async () => {
  await close();
  await rm(dir, { recursive: true, force: true });
});

function subscribe(id: string): SubscriptionRecord {
  return store.subscriptions.insert({
    public_id: id,
    company_id: 'co_1',
    url: `http://127.0.0.1:9/${id}`,
    type: 'all',
    status: 'enabled',
    secret_key: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    created_at: new Date(T0).toISOString(),
  }) as SubscriptionRecord;
}

const event = (data: Record<string, unknown> = { n: 1 }) => ({
  company_id: 'co_1',
  type: 'document.updated' as const,
  document_id: 'doc_1',
  data,
});
/** Lets the store's after-commit callbacks run. */
const tick = () => new Promise((r) => setImmediate(r));

/** A fresh store, history log and outbox on a copy of the folder as it is on disk now (what a crash would leave). */
async function onDisk<T>(read: (s: Store, owed: OutboxWork[]) => T): Promise<T> {
  const copy = await mkdtemp(join(tmpdir(), 'countersign-outbox-copy-'));
  await cp(dir, copy, { recursive: true, filter: (src) => !src.endsWith('countersign.lock') });
  const s = new Store(copy);
  const h = createHistoryLog({ dir: join(copy, 'history'), cap: 1000, clock });
  await s.open();
  await h.open();
  s.attachLog(h);
  try {
    return read(s, new Outbox({ store: s, history: h, clock }).stored());
  } finally {
    await s.close();
    await h.close();
    await rm(copy, { recursive: true, force: true });
  }
}

/** What the owed work says: id, attempts made, when due. */
const progress = (work: OutboxWork[]) => work.map((w) => [w.row.id, w.attempts, w.dueAt]);

describe('outbox', () => {
  it('queues an event and one delivery per target, and tells the engine only once the commit is durable', async () => {
    const [a, b] = [subscribe('wh_a'), subscribe('wh_b')];
    const { event_id, deliveries } = outbox.enqueue(event(), [a, b]);
    expect(deliveries.map((d) => d.subscription_id)).toEqual(['wh_a', 'wh_b']);
    expect(store.pendingEvents.get(event_id)).toMatchObject({ type: 'document.updated', timestamp: new Date(T0).toISOString() });
    expect(JSON.parse(store.pendingEvents.get(event_id)!.body)).toEqual({
      id: event_id,
      type: 'document.updated',
      timestamp: new Date(T0).toISOString(),
      data: { n: 1 },
    });
    expect(history.getEvent(event_id)).toMatchObject({ subscription_id: null, document_id: 'doc_1' });
    for (const d of deliveries)
      expect(history.getDelivery(d.id)).toMatchObject({
        status: 'pending',
        attempts: 0,
        next_attempt_at: T0,
        url: `http://127.0.0.1:9/${d.subscription_id}`,
      });
    // Not durable yet: the engine has heard nothing.
    await tick();
    expect(heard.added).toEqual([]);
    await store.commit();
    await tick();
    expect(heard.added).toEqual([deliveries.map((row) => ({ row, attempts: 0, dueAt: T0 }))]);
    // Durable: the event in the store (one journal record for the fan-out), each delivery in the log.
    expect(await onDisk((s, owed) => [s.pendingEvents.has(event_id), s.pendingDeliveries.size, progress(owed)])).toEqual([
      true,
      0,
      deliveries.map((d) => [d.id, 0, T0]),
    ]);
    const journal = await readFile(join(dir, 'journal-0.jsonl'), 'utf8');
    expect(journal).not.toContain('pending_deliveries');
    expect(journal.match(/\["pending_events",/g)).toHaveLength(1);
  });

  it('records an event with no target in the history log only', async () => {
    const { event_id, deliveries } = outbox.enqueue(event(), []);
    await store.commit();
    await tick();
    expect(deliveries).toEqual([]);
    expect(history.getEvent(event_id)).toBeDefined();
    expect(store.pendingEvents.size).toBe(0);
    expect(heard.added).toEqual([]);
  });

  it('never tells the engine of deliveries whose commit failed', async () => {
    const a = subscribe('wh_a');
    await store.commit();
    let fail = true;
    store.alsoFlush(async () => {
      if (fail) throw new Error('disk on fire');
    });
    outbox.enqueue(event(), [a]);
    await expect(store.commit()).rejects.toThrow('disk on fire');
    fail = false;
    await tick();
    expect(heard.added).toEqual([]);
  });

  it('removes a finished delivery, and its event with the last delivery that needs it', async () => {
    const [a, b] = [subscribe('wh_a'), subscribe('wh_b')];
    const { event_id, deliveries } = outbox.enqueue(event(), [a, b]);
    await store.commit();
    outbox.finish(deliveries[0]);
    outbox.finish(deliveries[0]); // a second time changes nothing
    expect(store.pendingEvents.has(event_id)).toBe(true);
    outbox.finish(deliveries[1]);
    expect(outbox.size).toBe(0);
    expect(store.pendingEvents.has(event_id)).toBe(false);
    await store.commit();
    expect(await onDisk((s, owed) => [owed, s.pendingEvents.size])).toEqual([[], 0]);
  });

  it('cancels a subscription: its rows and the events only they needed go, the log says cancelled, the engine is told once durable', async () => {
    const [a, b] = [subscribe('wh_a'), subscribe('wh_b')];
    const shared = outbox.enqueue(event({ n: 1 }), [a, b]);
    const own = outbox.enqueue(event({ n: 2 }), [a]);
    await store.commit();
    const cancelled = outbox.cancelFor('wh_a');
    expect(cancelled.sort()).toEqual([shared.deliveries[0].id, own.deliveries[0].id].sort());
    expect([shared.deliveries[1], ...cancelled.map((id) => ({ id }))].map((d) => outbox.has(d.id))).toEqual([true, false, false]);
    expect(outbox.size).toBe(1);
    expect(store.pendingEvents.all().map((e) => e.id)).toEqual([shared.event_id]);
    for (const id of cancelled) expect(history.getDelivery(id)).toMatchObject({ status: 'cancelled', next_attempt_at: null });
    await tick();
    expect(heard.cancelled).toEqual([]);
    await store.commit();
    await tick();
    expect(heard.cancelled).toEqual(['wh_a']);
    expect(await onDisk((s, owed) => [progress(owed), s.pendingEvents.all().map((e) => e.id)])).toEqual([
      [[shared.deliveries[1].id, 0, T0]],
      [shared.event_id],
    ]);
  });

  it('redelivers a finished delivery: the event comes back from the history log, the row after the commit', async () => {
    const a = subscribe('wh_a');
    const { event_id, deliveries } = outbox.enqueue(event(), [a]);
    await store.commit();
    const body = store.pendingEvents.get(event_id)!.body;
    history.recordDelivery({ ...history.getDelivery(deliveries[0].id)!, status: 'failed', attempts: 8, next_attempt_at: null });
    outbox.finish(deliveries[0]);
    await store.commit();
    await tick();
    heard.added = [];
    clock.advance(60_000);
    const updated = await outbox.redeliver(deliveries[0].id);
    expect(updated).toMatchObject({ status: 'pending', attempts: 8, next_attempt_at: T0 + 60_000 });
    expect(history.getDelivery(deliveries[0].id)).toEqual(updated);
    expect(store.pendingEvents.get(event_id)?.body).toBe(body);
    await tick();
    expect(heard.added).toEqual([[{ row: deliveries[0], attempts: 8, dueAt: T0 + 60_000 }]]);
    expect(heard.again).toEqual([]);
    expect(outbox.has(deliveries[0].id)).toBe(true);
    expect(await onDisk((s, owed) => [progress(owed), s.pendingEvents.get(event_id)?.body])).toEqual([
      [[deliveries[0].id, 8, T0 + 60_000]],
      body,
    ]);
  });

  it('redelivers a stored delivery at once (its row is durable already)', async () => {
    const a = subscribe('wh_a');
    const { deliveries } = outbox.enqueue(event(), [a]);
    await store.commit();
    const redelivery = outbox.redeliver(deliveries[0].id);
    // Told before the commit resolves: an attempt in flight must know to go again.
    expect(heard.again).toEqual([{ row: deliveries[0], attempts: 0, dueAt: T0 }]);
    await redelivery;
  });

  it('refuses to redeliver an unknown delivery, one of a deleted subscription, or one whose event is gone', async () => {
    await expect(outbox.redeliver('msg_nope')).rejects.toMatchObject({ code: 'not_found' });
    const a = subscribe('wh_a');
    const { deliveries } = outbox.enqueue(event(), [a]);
    outbox.cancelFor('wh_a');
    store.subscriptions.remove('wh_a');
    await expect(outbox.redeliver(deliveries[0].id)).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/subscription/i),
    });
    // A delivery whose event the log does not have (nor the store).
    const b = subscribe('wh_b');
    history.recordDelivery({
      ...history.getDelivery(deliveries[0].id)!,
      id: 'msg_orphan',
      event_id: 'evt_gone',
      subscription_id: b.public_id,
    });
    await expect(outbox.redeliver('msg_orphan')).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/no longer kept/),
    });
    expect(outbox.has('msg_orphan')).toBe(false);
  });

  it('hands the engine every stored delivery with its progress from the log, and drops what the log says ended', async () => {
    const [a, b] = [subscribe('wh_a'), subscribe('wh_b')];
    const first = outbox.enqueue(event({ n: 1 }), [a, b]);
    const second = outbox.enqueue(event({ n: 2 }), [a]);
    // An event no delivery needs, as a crash or an older version could leave.
    store.pendingEvents.insert({
      id: 'evt_orphan',
      company_id: 'co_1',
      type: 'document.sent',
      timestamp: '',
      document_id: null,
      body: '{}',
    });
    await store.commit();
    const [retrying, ended] = first.deliveries;
    history.recordDelivery({ ...history.getDelivery(retrying.id)!, attempts: 2, next_attempt_at: T0 + 5_000 });
    history.recordDelivery({ ...history.getDelivery(ended.id)!, status: 'succeeded', attempts: 1, next_attempt_at: null });
    // Pending in the log, but its event never reached the store (a crash before the change's commit),
    // and records that are never sent.
    const base = history.getDelivery(retrying.id)!;
    history.recordDelivery({ ...base, id: 'msg_uncommitted', event_id: 'evt_uncommitted' });
    history.recordDelivery({ ...base, id: 'msg_imported', imported: true });
    history.recordDelivery({ ...base, id: 'msg_check', origin: 'check' });
    await close();
    await open(); // a restart
    const work = outbox.stored();
    expect(progress(work)).toEqual([
      [retrying.id, 2, T0 + 5_000],
      [second.deliveries[0].id, 0, T0],
    ]);
    expect(outbox.has(ended.id)).toBe(false);
    // The one whose change was never saved is ended, saying why; the records are left as they are.
    expect(history.getDelivery('msg_uncommitted')).toMatchObject({ status: 'cancelled', next_attempt_at: null, last_error: NOT_SAVED });
    expect(['msg_imported', 'msg_check'].map((id) => history.getDelivery(id)?.status)).toEqual(['pending', 'pending']);
    expect(store.pendingEvents.all().map((e) => e.id)).toEqual([first.event_id, second.event_id]);
    await store.settle(); // the clean-up is written in the background
    expect(await onDisk((s, owed) => [owed.length, s.pendingEvents.has('evt_orphan')])).toEqual([2, false]);
  });

  it('still owes the pending_deliveries rows an older version stored, until they end', async () => {
    const [a, b] = [subscribe('wh_a'), subscribe('wh_b')];
    const { event_id, deliveries } = outbox.enqueue(event(), [a, b]);
    await store.commit();
    // As an older version stored them: a row per delivery (one the log says ended, one without a summary).
    const old = [...deliveries, { ...deliveries[0], id: 'msg_old_unlogged' }];
    for (const row of old) store.pendingDeliveries.insert({ ...row });
    history.recordDelivery({ ...history.getDelivery(deliveries[1].id)!, status: 'failed', attempts: 3, next_attempt_at: null });
    await store.commit();
    await close();
    await open(); // the new version starts on it
    expect(progress(outbox.stored())).toEqual([
      [deliveries[0].id, 0, T0],
      ['msg_old_unlogged', 0, clock.now()],
    ]);
    expect(store.pendingDeliveries.all().map((d) => d.id)).toEqual([deliveries[0].id, 'msg_old_unlogged']);
    outbox.finish(store.pendingDeliveries.get(deliveries[0].id)!);
    outbox.finish(store.pendingDeliveries.get('msg_old_unlogged')!);
    expect([store.pendingDeliveries.size, store.pendingEvents.has(event_id), outbox.size]).toEqual([0, false, 0]);
    await store.commit();
    expect(await onDisk((s, owed) => [owed, s.pendingDeliveries.size, s.pendingEvents.size])).toEqual([[], 0, 0]);
  });
});
