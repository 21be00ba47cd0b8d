// One attempt: signed with the clock's time (a manual clock here), sent over real HTTP
// to a receiver on loopback, and what its outcome means for the delivery.
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../../../src-main/backend/clock.js';
import { Attempts, BODY_GONE, classify } from '../../../src-main/backend/delivery/attempt.js';
import { HttpSender, type SendResult } from '../../../src-main/backend/delivery/http-sender.js';
import { generateSecret } from '../../../src-main/backend/delivery/signing.js';
import { startReceiver, type Receiver } from './harness.js';

const T0 = Date.UTC(2030, 0, 1, 12);
const row = {
  id: 'msg_1',
  event_id: 'evt_1',
  subscription_id: 'wh_1',
  company_id: 'co_1',
  event_type: 'document.sent' as const,
  document_id: null,
  created_at: '',
};
const sub = (url: string, secret_key = generateSecret()) => ({
  public_id: 'wh_1',
  company_id: 'co_1',
  url,
  type: 'all' as const,
  status: 'enabled' as const,
  secret_key,
  created_at: '',
});

let receiver: Receiver | undefined;
let sender: HttpSender | undefined;
afterEach(async () => {
  await sender?.close();
  await receiver?.close();
  sender = receiver = undefined;
});

describe('one attempt', () => {
  it('signs with the clock time, sends the exact body, and a fresh timestamp on the next attempt', async () => {
    receiver = await startReceiver();
    sender = new HttpSender({ timeoutMs: 2000, connections: 2, policy: { allowPrivate: false } });
    const clock = new ManualClock(T0);
    const attempts = new Attempts(sender, clock);
    const s = sub(`${receiver.url}/hook`);
    const body = '{"id":"evt_1","type":"document.sent","data":{"title":"Bail ✓"}}';
    const first = await attempts.send(row, s, body);
    expect(first.startedAt).toBe(T0);
    expect(first.result.response?.status).toBe(200);
    expect(first.headers['webhook-timestamp']).toBe(String(T0 / 1000));
    const got = receiver.received[0];
    expect(got.body).toBe(body);
    expect(got.headers['webhook-id']).toBe('msg_1');
    // The reference library checks the timestamp against the real time: verify at the clock's.
    expect(() => new Webhook(s.secret_key).verify(got.body, { ...got.headers })).toThrow(/timestamp/i);
    const wh = new Webhook(s.secret_key) as unknown as { sign(id: string, at: Date, body: string): string };
    expect(got.headers['webhook-signature']).toBe(wh.sign('msg_1', new Date(T0), body));
    clock.advance(5_000);
    const second = await attempts.send(row, s, body);
    expect(second.headers['webhook-timestamp']).toBe(String(T0 / 1000 + 5));
    expect(second.headers['webhook-signature']).not.toBe(first.headers['webhook-signature']);
  });

  it('sends nothing when the event body is gone, and says so', async () => {
    receiver = await startReceiver();
    sender = new HttpSender({ timeoutMs: 2000, connections: 2, policy: { allowPrivate: false } });
    const sent = await new Attempts(sender, new ManualClock(T0)).send(row, sub(receiver.url), undefined);
    expect(sent.result).toEqual({ durationMs: 0, response: null, error: BODY_GONE });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('classify', () => {
  const response = (status: number): SendResult => ({
    durationMs: 1,
    response: { status, headers: {}, body: '', truncated: false },
    error: null,
  });
  const failure: SendResult = { durationMs: 1, response: null, error: 'ECONNREFUSED' };
  const schedule = [5, 300];

  it('ends a delivery on a 2xx, retries anything else while the schedule lasts, then fails it', () => {
    expect(classify(1, response(204), schedule, { cancelled: false, again: false, disabled: false }, T0)).toMatchObject({
      succeeded: true,
      status: 'succeeded',
      nextAt: null,
    });
    expect(classify(1, response(500), schedule, { cancelled: false, again: false, disabled: false }, T0)).toMatchObject({
      succeeded: false,
      status: 'pending',
      nextAt: T0 + 5_000,
    });
    expect(classify(2, failure, schedule, { cancelled: false, again: false, disabled: false }, T0)).toMatchObject({
      succeeded: false,
      status: 'pending',
      nextAt: T0 + 300_000,
    });
    expect(classify(3, response(302), schedule, { cancelled: false, again: false, disabled: false }, T0)).toMatchObject({
      succeeded: false,
      status: 'failed',
      nextAt: null,
    });
  });

  it('never retries a cancelled delivery, and retries at once one redelivered during the attempt', () => {
    expect(classify(1, response(500), schedule, { cancelled: true, again: false, disabled: false }, T0)).toMatchObject({
      succeeded: false,
      status: 'cancelled',
      nextAt: null,
    });
    expect(classify(1, response(200), schedule, { cancelled: true, again: true, disabled: false }, T0)).toMatchObject({
      succeeded: true,
      status: 'cancelled',
      nextAt: null,
    });
    expect(classify(1, response(200), schedule, { cancelled: false, again: true, disabled: false }, T0)).toMatchObject({
      succeeded: true,
      status: 'pending',
      nextAt: T0,
    });
    expect(classify(3, response(500), schedule, { cancelled: false, again: true, disabled: false }, T0)).toMatchObject({
      succeeded: false,
      status: 'pending',
      nextAt: T0,
    });
  });

  it('applies the answers that mean something: 410 disables, Retry-After delays (capped), 429/502/504 slow down', () => {
    const ctx = { cancelled: false, again: false, disabled: false };
    const withHeader = (status: number, retryAfter: string): SendResult => ({
      durationMs: 1,
      response: { status, headers: { 'retry-after': retryAfter }, body: '', truncated: false },
      error: null,
    });
    expect(classify(1, response(410), schedule, ctx, T0)).toMatchObject({ status: 'failed', nextAt: null, rule: 'gone', disable: true });
    expect(classify(1, withHeader(429, '120'), schedule, ctx, T0)).toMatchObject({
      status: 'pending',
      nextAt: T0 + 120_000,
      rule: 'retry_after',
      slowDown: true,
    });
    expect(classify(1, withHeader(503, '99999'), schedule, ctx, T0)).toMatchObject({
      nextAt: T0 + 300_000,
      rule: 'retry_after',
      slowDown: false,
    });
    expect(classify(1, withHeader(503, new Date(T0 + 42_000).toUTCString()), schedule, ctx, T0)).toMatchObject({ nextAt: T0 + 42_000 });
    expect(classify(1, withHeader(500, '120'), schedule, ctx, T0)).toMatchObject({ nextAt: T0 + 5_000, rule: 'backoff' });
    expect(classify(1, withHeader(429, 'soon'), schedule, ctx, T0)).toMatchObject({ nextAt: T0 + 5_000, rule: 'backoff', slowDown: true });
    for (const status of [502, 504])
      expect(classify(1, response(status), schedule, ctx, T0)).toMatchObject({ slowDown: true, rule: 'backoff' });
    expect(classify(3, response(500), schedule, ctx, T0)).toMatchObject({ status: 'failed', rule: 'exhausted' });
    expect(classify(1, response(500), schedule, { ...ctx, disabled: true }, T0)).toMatchObject({
      status: 'skipped',
      nextAt: null,
      rule: 'disabled',
    });
    expect(classify(1, response(200), schedule, { ...ctx, disabled: true }, T0)).toMatchObject({ status: 'succeeded', rule: 'success' });
  });
});
