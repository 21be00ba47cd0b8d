// The delivery engine against real receivers on loopback, a real store and a real
// history log in a temp folder: outcomes of single deliveries and their retries.
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createHarness, startReceiver, until, type Harness, type Receiver } from './harness.js';
import { systemClock } from '../../../src-main/backend/clock.js';

let h: Harness | undefined;
const receivers: Receiver[] = [];

afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(handle?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(handle);
  receivers.push(r);
  return r;
}

const statusOf = (id: string) => h!.history.getDelivery(id)?.status;

describe('delivery engine: outcomes', () => {
  it('delivers a signed POST that the reference library verifies, logs it and clears the schedule', async () => {
    const r = await receiver();
    h = await createHarness();
    h.engine.start();
    const sub = await h.subscribe(`${r.url}/hooks/a?x=1`);
    const [d] = await h.emit([sub]);
    await until(() => statusOf(d.id) === 'succeeded', 5000, 'success');

    expect(r.received).toHaveLength(1);
    const got = r.received[0];
    expect(got.path).toBe('/hooks/a?x=1');
    expect(got.headers['webhook-id']).toBe(d.id);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toMatch(/^Countersign-Webhooks\//);
    expect(() => new Webhook(sub.secret_key).verify(got.body, got.headers)).not.toThrow();
    expect(JSON.parse(got.body).type).toBe('document.completed');

    const summary = h.history.getDelivery(d.id)!;
    expect(summary).toMatchObject({ attempts: 1, last_status_code: 200, last_error: null, next_attempt_at: null });
    const [attempt] = await h.history.getAttempts(d.id);
    expect(attempt).toMatchObject({
      attempt: 1,
      succeeded: true,
      error: null,
      next_attempt_at: null,
      response: { status: 200, body: 'ok', truncated: false },
    });
    expect(attempt.request.body).toBe(got.body);
    expect(attempt.request.headers['webhook-signature']).toBe(got.headers['webhook-signature']);

    await until(() => h!.outbox.size === 0 && h!.store.pendingEvents.size === 0, 2000, 'rows removed');
    expect(h.changes.some((c) => c.kind === 'delivery' && c.id === d.id && c.status === 'succeeded')).toBe(true);
    expect(h.engine.inFlight()).toBe(0);
  });

  it('retries a 500 with the same webhook-id and a fresh timestamp and signature', async () => {
    // A clock the test moves forward, so the retry's timestamp is a different second.
    let offset = 0;
    const r = await receiver((req, res) => {
      if (r.received.length === 1) {
        offset += 10_000;
        res.statusCode = 500;
        res.end('boom');
      } else res.end('ok');
    });
    h = await createHarness({ retrySchedule: [0.05, 0.05] }, { ...systemClock, now: () => Date.now() + offset });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => statusOf(d.id) === 'succeeded', 5000, 'success after retry');

    expect(r.received).toHaveLength(2);
    const [first, second] = r.received;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(Number(second.headers['webhook-timestamp']) - Number(first.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(10);
    expect(second.headers['webhook-signature']).not.toBe(first.headers['webhook-signature']);
    expect(second.at - first.at).toBeGreaterThanOrEqual(40);
    // Each signature covers its own timestamp: both verify, and swapping timestamps breaks them.
    const wh = new Webhook(sub.secret_key);
    for (const got of r.received) expect(() => wh.verify(got.body, got.headers)).not.toThrow();
    expect(() => wh.verify(second.body, { ...second.headers, 'webhook-timestamp': first.headers['webhook-timestamp'] })).toThrow();

    const attempts = await h.history.getAttempts(d.id);
    expect(attempts.map((a) => [a.attempt, a.response?.status, a.succeeded])).toEqual([
      [1, 500, false],
      [2, 200, true],
    ]);
    expect(attempts[0].next_attempt_at).toBeGreaterThan(0);
    expect(h.history.getDelivery(d.id)).toMatchObject({ attempts: 2, last_status_code: 200 });
    const statuses = h.changes.filter((c) => c.kind === 'delivery' && c.id === d.id).map((c) => (c as { status: string }).status);
    expect(statuses).toEqual(['pending', 'succeeded']);
  });

  it('does not follow a 302: the attempt fails and the target is never requested', async () => {
    const r = await receiver((req, res) => {
      if (req.path === '/hook') {
        res.writeHead(302, { location: '/elsewhere' });
        res.end();
      } else res.end('ok');
    });
    h = await createHarness({ retrySchedule: [] });
    h.engine.start();
    const sub = await h.subscribe(`${r.url}/hook`);
    const [d] = await h.emit([sub]);
    await until(() => statusOf(d.id) === 'failed', 5000, 'failure');
    expect(r.received.map((x) => x.path)).toEqual(['/hook']);
    const [attempt] = await h.history.getAttempts(d.id);
    expect(attempt).toMatchObject({ succeeded: false, response: { status: 302 } });
    expect(attempt.response!.headers.location).toBe('/elsewhere');
    expect(h.changes.some((c) => c.kind === 'delivery' && c.id === d.id && c.status === 'failed')).toBe(true);
  });

  it('times out a receiver that hangs past deliveryTimeoutMs and logs the error', async () => {
    const r = await receiver(() => undefined); // never answers
    h = await createHarness({ retrySchedule: [], deliveryTimeoutMs: 300 });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const started = Date.now();
    const [d] = await h.emit([sub]);
    await until(() => statusOf(d.id) === 'failed', 5000, 'timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const [attempt] = await h.history.getAttempts(d.id);
    expect(attempt.response).toBeNull();
    expect(attempt.error).toMatch(/timed out after 300 ms/i);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(290);
    expect(h.history.getDelivery(d.id)).toMatchObject({ last_error: attempt.error, last_status_code: null });
  });

  it('logs a refused connection as a network error', async () => {
    const r = await receiver();
    await r.close(); // nothing listens on that port any more
    h = await createHarness({ retrySchedule: [] });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => statusOf(d.id) === 'failed', 5000, 'failure');
    const [attempt] = await h.history.getAttempts(d.id);
    expect(attempt.error).toMatch(/ECONNREFUSED/);
  });

  it('makes 8 attempts on a 7-step schedule, then fails for good', async () => {
    const r = await receiver((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    h = await createHarness({ retrySchedule: [0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01] });
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => statusOf(d.id) === 'failed', 8000, 'final failure');
    expect(r.received).toHaveLength(8);
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set([d.id]));
    expect((await h.history.getAttempts(d.id)).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(h.history.getDelivery(d.id)).toMatchObject({ attempts: 8, next_attempt_at: null, last_status_code: 503 });
    await until(() => h!.outbox.size === 0, 2000, 'row removed');
    // Nothing more is sent later.
    await new Promise((res) => setTimeout(res, 100));
    expect(r.received).toHaveLength(8);
  });

  it('keeps only the first 4 KiB of a large response body, marked truncated', async () => {
    const big = 'x'.repeat(100 * 1024);
    const r = await receiver((_req, res) => res.end(big));
    h = await createHarness();
    h.engine.start();
    const sub = await h.subscribe(r.url);
    const [d] = await h.emit([sub]);
    await until(() => statusOf(d.id) === 'succeeded', 5000, 'success');
    const [attempt] = await h.history.getAttempts(d.id);
    expect(attempt.response!.truncated).toBe(true);
    expect(attempt.response!.body).toHaveLength(4 * 1024);
  });

  it('sends each subscription of an event its own delivery, each signed with its own secret', async () => {
    const r = await receiver();
    h = await createHarness();
    h.engine.start();
    const a = await h.subscribe(`${r.url}/a`);
    const b = await h.subscribe(`${r.url}/b`);
    const [da, db] = await h.emit([a, b]);
    await until(() => statusOf(da.id) === 'succeeded' && statusOf(db.id) === 'succeeded', 5000, 'both');
    const byPath = new Map(r.received.map((x) => [x.path, x]));
    expect(() => new Webhook(a.secret_key).verify(byPath.get('/a')!.body, byPath.get('/a')!.headers)).not.toThrow();
    expect(() => new Webhook(b.secret_key).verify(byPath.get('/a')!.body, byPath.get('/a')!.headers)).toThrow();
    expect(byPath.get('/b')!.headers['webhook-id']).toBe(db.id);
    await until(() => h!.store.pendingEvents.size === 0, 2000, 'event removed');
  });
});
