// The engine's in-memory structures, and its window on the stored schedule (with a
// real Store in a temp folder).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DueHeap, FairQueue, Fifo } from '../../../src-main/backend/delivery/queues.js';
import { PendingTables } from '../../../src-main/backend/delivery/pending-tables.js';
import { Store } from '../../../src-main/backend/store/store.js';
import type { PendingDelivery, PendingEvent } from '../../../src-main/backend/store/schema.js';

describe('Fifo and DueHeap', () => {
  it('Fifo keeps order across its internal compaction', () => {
    const q = new Fifo<number>();
    for (let i = 0; i < 5000; i++) q.push(i);
    const out: number[] = [];
    for (let i = 0; i < 3000; i++) out.push(q.shift()!);
    for (let i = 5000; i < 6000; i++) q.push(i);
    while (q.length) out.push(q.shift()!);
    expect(out).toEqual(Array.from({ length: 6000 }, (_, i) => i));
    expect(q.shift()).toBeUndefined();
  });

  it('DueHeap pops in due order', () => {
    const h = new DueHeap<string>();
    const times = [50, 10, 40, 10, 99, 0, 30, 20, 70, 60];
    times.forEach((t, i) => h.push(t, `j${i}`));
    const popped: number[] = [];
    while (h.size) popped.push(h.pop()!.at);
    expect(popped).toEqual([...times].sort((a, b) => a - b));
  });
});

describe('FairQueue', () => {
  it('serves subscriptions round-robin within both limits', () => {
    const q = new FairQueue<string>(3, 2);
    for (let i = 0; i < 4; i++) q.push('a', `a${i}`);
    for (let i = 0; i < 4; i++) q.push('b', `b${i}`);
    const live = () => true;
    const taken = [q.take(live), q.take(live), q.take(live), q.take(live)].map((t) => t?.item);
    expect(taken).toEqual(['a0', 'b0', 'a1', undefined]); // global limit 3
    q.done('a');
    expect(q.take(live)?.item).toBe('b1');
    expect(q.take(live)).toBeUndefined(); // a has 1 + b has 2 in flight = 3
    q.done('b');
    expect(q.take(live)?.item).toBe('a2');
    expect(q.active).toBe(3);
  });

  it('lets a lane at its own limit step aside for the others', () => {
    const q = new FairQueue<string>(10, 1);
    for (let i = 0; i < 5; i++) q.push('slow', `s${i}`);
    q.push('fast', 'f0');
    q.push('fast', 'f1');
    const live = () => true;
    expect(q.take(live)?.item).toBe('s0');
    expect(q.take(live)?.item).toBe('f0');
    expect(q.take(live)).toBeUndefined();
    q.done('fast');
    expect(q.take(live)?.item).toBe('f1');
  });

  it('skips items that are no longer live without counting them', () => {
    const q = new FairQueue<string>(5, 5);
    q.push('a', 'dead');
    q.push('a', 'alive');
    expect(q.take((x) => x !== 'dead')?.item).toBe('alive');
    expect(q.active).toBe(1);
  });
});

describe('PendingTables', () => {
  let dir: string;
  let store: Store;
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const row = (id: string, event: string): PendingDelivery => ({
    id,
    event_id: event,
    subscription_id: 'wh_1',
    company_id: 'co',
    event_type: 'document.sent',
    document_id: null,
    attempts: 0,
    next_attempt_at: 0,
    created_at: '',
  });
  const ev = (id: string): PendingEvent => ({
    id,
    company_id: 'co',
    type: 'document.sent',
    timestamp: '',
    document_id: null,
    body: `{"id":"${id}"}`,
  });

  async function open() {
    dir = await mkdtemp(join(tmpdir(), 'countersign-tables-'));
    store = new Store(dir);
    await store.open();
    return new PendingTables(store);
  }

  it('visits only appended rows, and every row again when the array is replaced', async () => {
    const t = await open();
    const seen: string[] = [];
    store.data.pending_deliveries.push(row('m1', 'e1'), row('m2', 'e1'));
    t.scanDeliveries((r) => seen.push(r.id));
    store.data.pending_deliveries.push(row('m3', 'e2'));
    t.scanDeliveries((r) => seen.push(r.id));
    expect(seen).toEqual(['m1', 'm2', 'm3']);
    store.data.pending_deliveries = store.data.pending_deliveries.filter((r) => r.id !== 'm2');
    seen.length = 0;
    t.scanDeliveries((r) => seen.push(r.id));
    expect(seen).toEqual(['m1', 'm3']);
  });

  it('compacts in place without losing rows appended but not yet visited, and drops unneeded events', async () => {
    const t = await open();
    const d = store.data;
    d.pending_events.push(ev('e1'), ev('e2'));
    d.pending_deliveries.push(row('m1', 'e1'), row('m2', 'e2'), row('m3', 'e2'));
    const rows = d.pending_deliveries;
    t.scanDeliveries(() => undefined);
    expect(t.event('e1')?.body).toBe('{"id":"e1"}');
    // New rows arrive (not yet visited), then two finished rows are compacted away.
    d.pending_events.push(ev('e3'));
    d.pending_deliveries.push(row('m4', 'e3'));
    t.finish(rows[0]);
    t.finish(rows[1]);
    t.compact();
    expect(d.pending_deliveries).toBe(rows); // same array, changed in place
    expect(d.pending_deliveries.map((r) => r.id)).toEqual(['m3', 'm4']);
    expect(d.pending_events.map((e) => e.id)).toEqual(['e2', 'e3']); // e2 is still needed by m3
    const seen: string[] = [];
    t.scanDeliveries((r) => seen.push(r.id));
    expect(seen).toEqual(['m4']);
    expect(t.event('e1')).toBeUndefined();
    expect(t.event('e3')?.id).toBe('e3');
  });

  it('drops events that no pending delivery needs', async () => {
    const t = await open();
    store.data.pending_events.push(ev('e1'), ev('orphan'));
    store.data.pending_deliveries.push(row('m1', 'e1'));
    t.dropOrphanEvents();
    expect(store.data.pending_events.map((e) => e.id)).toEqual(['e1']);
  });
});
