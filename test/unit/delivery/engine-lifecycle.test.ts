// The delivery engine across its life: restart from the stored schedule, cancelled
// subscriptions, redelivery, shutdown, and fairness between subscribers.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createHarness, sleep, startReceiver, until, type Harness, type Receiver } from './harness.js';
import { ApiError } from '../../../src-main/backend/errors.js';
import type { PendingDelivery } from '../../../src-main/backend/store/schema.js';

let h: Harness | undefined;
const receivers: Receiver[] = [];

afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
  await h?.cleanup();
  h = undefined;
});

async function receiver(handle?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(handle);
  receivers.push(r);
  return r;
}

const statusOf = (id: string) => h!.history.getDelivery(id)?.status;

describe('delivery engine: lifecycle', () => {
  it('resumes the stored schedule after a restart, at the stored due time and attempt count', async () => {
    let fail = true;
    const r = await receiver((_req, res) => {
      res.statusCode = fail ? 500 : 200;
      res.end();
    });
    h = await createHarness({ retrySchedule: [0.6] });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => h!.history.getDelivery(d.id)?.attempts === 1, 5000, 'first attempt');
    await h.shutdown();
    const stopped = Date.now();

    // What is on disk is the schedule: reopen store and history from the same folder. The
    // history log's summary says the delivery is owed and how far it got; the store holds its event.
    fail = false;
    await h.reopen();
    expect(h.outbox.has(d.id)).toBe(true);
    expect(h.store.pendingEvents.size).toBe(1);
    expect(h.store.pendingDeliveries.size).toBe(0);
    const [work] = h.outbox.stored();
    expect(work).toMatchObject({ row: { id: d.id }, attempts: 1 });
    expect(work.dueAt).toBeGreaterThan(stopped - 700);
    expect(h.history.getDelivery(d.id)).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: work.dueAt });
    h.engine.start();
    await until(() => statusOf(d.id) === 'succeeded', 5000, 'delivery after restart');
    expect(r.received).toHaveLength(2);
    expect(r.received[1].headers['webhook-id']).toBe(d.id);
    expect(r.received[1].at).toBeGreaterThanOrEqual(work.dueAt - 5);
    expect(h.history.getDelivery(d.id)).toMatchObject({ attempts: 2, last_status_code: 200 });
  });

  it('sends deliveries that were committed while no engine ran, as soon as one starts', async () => {
    const r = await receiver();
    h = await createHarness();
    const sub = await h.subscribe(r.url);
    const rows = await h.emit([sub]); // engine not started: wake() is ignored
    await h.reopen();
    expect(r.received).toHaveLength(0);
    h.engine.start();
    await until(() => statusOf(rows[0].id) === 'succeeded', 5000, 'delivery');
    expect(r.received[0].headers['webhook-id']).toBe(rows[0].id);
  });

  it('trusts the history log on what ended and where a retry stands after a crash', async () => {
    const r = await receiver();
    h = await createHarness({ retrySchedule: [0.05, 0.05] });
    const sub = await h.subscribe(r.url);
    const [done, retried] = await h.emit([sub, sub]);
    // As if attempts had happened and been logged, and the process had died before any store write.
    const logged = (id: string) => h!.history.getDelivery(id)!;
    h.history.recordDelivery({ ...logged(done.id), status: 'succeeded', attempts: 1, last_status_code: 200, next_attempt_at: null });
    h.history.recordDelivery({ ...logged(retried.id), status: 'pending', attempts: 2, last_status_code: 500, next_attempt_at: Date.now() });
    await h.reopen();
    expect([h.outbox.has(done.id), h.outbox.has(retried.id)]).toEqual([false, true]);
    h.engine.start();
    await until(() => statusOf(retried.id) === 'succeeded', 5000, 'the retried one');
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([retried.id]);
    expect((await h.history.getAttempts(retried.id)).map((a) => a.attempt)).toEqual([3]);
    expect(statusOf(done.id)).toBe('succeeded');
    await until(() => h!.outbox.size === 0 && h!.store.pendingEvents.size === 0, 3000, 'rows removed');
  });

  it('stops retrying once the subscription is cancelled', async () => {
    const r = await receiver((_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    h = await createHarness({ retrySchedule: [0.2, 0.2] });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => h!.history.getDelivery(d.id)?.attempts === 1, 5000, 'first attempt');
    await h.deleteSubscription(sub.public_id);
    await sleep(600);
    expect(r.received).toHaveLength(1);
    expect(statusOf(d.id)).toBe('cancelled');
    expect(h.history.getDelivery(d.id)!.next_attempt_at).toBeNull();
    expect(h.changes.some((c) => c.kind === 'delivery' && c.id === d.id && c.status === 'cancelled')).toBe(true);
  });

  it('logs the outcome of an attempt in flight at cancellation as cancelled, and never retries it', async () => {
    const held: ServerResponse[] = [];
    const r = await receiver((_req, res) => held.push(res));
    h = await createHarness({ retrySchedule: [0.05] });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => held.length === 1, 5000, 'request in flight');
    await h.deleteSubscription(sub.public_id);
    held[0].statusCode = 500;
    held[0].end();
    await until(() => h!.engine.inFlight() === 0, 5000, 'attempt ended');
    const attempts = await h.history.getAttempts(d.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ response: { status: 500 }, next_attempt_at: null });
    await sleep(200);
    expect(r.received).toHaveLength(1);
    expect(statusOf(d.id)).toBe('cancelled');
  });

  it('redelivers a finished delivery with the same webhook-id, restoring its event from history', async () => {
    const r = await receiver();
    h = await createHarness();
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => statusOf(d.id) === 'succeeded', 5000, 'first delivery');
    await until(() => h!.store.pendingEvents.size === 0, 2000, 'event left the live store');

    const summary = await h.outbox.redeliver(d.id);
    expect(summary).toMatchObject({ id: d.id, status: 'pending', attempts: 1 });
    await until(() => statusOf(d.id) === 'succeeded' && h!.history.getDelivery(d.id)!.attempts === 2, 5000, 'redelivery');
    expect(r.received).toHaveLength(2);
    expect(r.received[1].headers['webhook-id']).toBe(d.id);
    expect(r.received[1].body).toBe(r.received[0].body);
    expect((await h.history.getAttempts(d.id)).map((a) => a.attempt)).toEqual([1, 2]);
    await until(() => h!.outbox.size === 0 && h!.store.pendingEvents.size === 0, 2000, 'cleared again');
  });

  it('redelivers a delivery that is still waiting for its next retry at once', async () => {
    let n = 0;
    const r = await receiver((_req, res) => {
      res.statusCode = ++n === 1 ? 500 : 200;
      res.end();
    });
    h = await createHarness({ retrySchedule: [60] });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => h!.history.getDelivery(d.id)?.attempts === 1, 5000, 'first attempt');
    await h.outbox.redeliver(d.id);
    await until(() => statusOf(d.id) === 'succeeded', 5000, 'redelivered before the 60 s retry');
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([d.id, d.id]);
  });

  it('refuses to redeliver unknown deliveries or those of a deleted subscription', async () => {
    const r = await receiver();
    h = await createHarness();
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => statusOf(d.id) === 'succeeded', 5000, 'delivery');
    await expect(h.outbox.redeliver('msg_nope')).rejects.toMatchObject({ code: 'not_found' });
    await h.deleteSubscription(sub.public_id);
    const err = await h.outbox.redeliver(d.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(404);
    expect(h.outbox.size).toBe(0);
  });

  it('keeps a slow subscriber from starving a fast one', async () => {
    const hanging: ServerResponse[] = [];
    const slow = await receiver((_req, res) => hanging.push(res));
    const fast = await receiver();
    h = await createHarness({ deliveryConcurrency: 4, deliveryConcurrencyPerSubscription: 2, deliveryTimeoutMs: 10_000 });
    h.engine.start();
    const slowSub = await h.subscribe(slow.url);
    const fastSub = await h.subscribe(fast.url);
    // The slow subscriber's deliveries are queued first.
    const slowRows: PendingDelivery[] = [];
    for (let i = 0; i < 10; i++) slowRows.push(...(await h.emit([slowSub])));
    const fastRows: PendingDelivery[] = [];
    for (let i = 0; i < 10; i++) fastRows.push(...(await h.emit([fastSub])));
    const t0 = Date.now();
    await until(() => fastRows.every((d) => statusOf(d.id) === 'succeeded'), 3000, 'fast deliveries');
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(fast.received).toHaveLength(10);
    // The slow one holds its two slots, no more; the global limit is respected.
    expect(hanging).toHaveLength(2);
    expect(h.engine.inFlight()).toBe(2);
    expect(slowRows.every((d) => statusOf(d.id) === 'pending')).toBe(true);
    // Once it answers, the rest of its queue drains too.
    for (const res of hanging.splice(0)) res.end('late');
    await until(
      () => {
        for (const res of hanging.splice(0)) res.end('late');
        return slowRows.every((d) => statusOf(d.id) === 'succeeded');
      },
      5000,
      'slow deliveries',
    );
  });

  it('never has more attempts in flight than the global limit', async () => {
    const hanging: ServerResponse[] = [];
    const servers = await Promise.all([0, 1, 2].map(() => receiver((_req, res) => hanging.push(res))));
    h = await createHarness({ deliveryConcurrency: 3, deliveryConcurrencyPerSubscription: 2, deliveryTimeoutMs: 10_000 });
    h.engine.start();
    const subs = await Promise.all(servers.map((s) => h!.subscribe(s.url)));
    for (let i = 0; i < 4; i++) await h.emit(subs);
    await until(() => hanging.length === 3, 3000, 'three in flight');
    await sleep(100);
    expect(hanging).toHaveLength(3);
    expect(h.engine.inFlight()).toBe(3);
  });

  it('starts over from the stored schedule when a failed write makes the store reload', async () => {
    let n = 0;
    const r = await receiver((_req, res) => {
      res.statusCode = ++n === 1 ? 500 : 200;
      res.end();
    });
    // The retry waits long enough that, on a loaded machine, it cannot succeed (and its
    // row's removal be written) before the failing write below.
    h = await createHarness({ retrySchedule: [1.5] });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => h!.history.getDelivery(d.id)?.attempts === 1, 5000, 'first attempt');
    await h.store.commit(); // the first attempt's outcome is on disk
    // The next write fails (work it waits for fails, as a failing fsync of the history
    // log would): the store reloads its last good state.
    let failNext = true;
    h.store.alsoFlush(async () => {
      if (!failNext) return;
      failNext = false;
      throw new Error('disk on fire');
    });
    let reloads = 0;
    h.store.onReload(() => reloads++);
    await expect(h.store.commit()).rejects.toThrow('disk on fire');
    expect(reloads).toBe(1);
    expect(h.outbox.has(d.id)).toBe(true);
    expect(h.history.getDelivery(d.id)).toMatchObject({ status: 'pending', attempts: 1 });
    await until(() => statusOf(d.id) === 'succeeded', 5000, 'delivery after the reload');
    // The row that left the schedule is the stored one, not a stale copy.
    await until(() => h!.outbox.size === 0, 3000, 'reloaded row removed');
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([d.id, d.id]);
  });

  it('stop() waits for attempts in flight, records them, and leaves retries stored', async () => {
    const held: ServerResponse[] = [];
    const r = await receiver((_req, res) => held.push(res));
    h = await createHarness({ retrySchedule: [30] });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => held.length === 1, 5000, 'request in flight');
    setTimeout(() => {
      held[0].statusCode = 503;
      held[0].end();
    }, 100);
    const t0 = Date.now();
    await h.engine.stop();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(80);
    expect(h.engine.inFlight()).toBe(0);
    expect(h.history.getDelivery(d.id)).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 503 });
    await h.reopen();
    expect(h.outbox.has(d.id)).toBe(true);
    expect(h.history.getDelivery(d.id)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('stop() is bounded by the delivery timeout when a receiver never answers', async () => {
    const r = await receiver(() => undefined);
    h = await createHarness({ deliveryTimeoutMs: 300 });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => r.received.length === 1, 5000, 'request in flight');
    const t0 = Date.now();
    await h.engine.stop();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(h.history.getDelivery(d.id)).toMatchObject({ attempts: 1, last_status_code: null });
    expect(h.history.getDelivery(d.id)!.last_error).toMatch(/timed out/i);
  });

  it('stop() of an engine that never started writes nothing, and a second stop() shares the first', async () => {
    h = await createHarness();
    await h.store.close(); // as after a failed start: the store is closed, the engine never ran
    const file = join(h.dir, 'data.json');
    await rm(file, { force: true });
    const first = h.engine.stop();
    expect(h.engine.stop()).toBe(first);
    await first;
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
