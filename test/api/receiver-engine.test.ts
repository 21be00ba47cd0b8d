// Each response mode driving the delivery engine's real retries (compressed schedule:
// 3 attempts, 50 ms then 100 ms apart), end to end on loopback: a console "subscribe
// this inbox", a webhook.test event through the service API, the engine's signed
// attempts, and the inbox's captures and verdicts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { waitUntil } from '../helpers/wait.js';
import type { ResponseMode } from '@shared/receiver-types.js';

let t: TestBackend;

const consoleApi = (method: string, path: string, body?: unknown) => t.consoleApi(method, path, body);

/** Makes an inbox with this mode, subscribes it, sends one webhook.test, waits for the delivery to end. */
async function driveOnce(response: ResponseMode) {
  const inbox = (await consoleApi('POST', '/inboxes', { response })).body;
  const sub = (await consoleApi('POST', `/inboxes/${inbox.id}/subscribe`, { type: 'document.voided' })).body.subscription;
  const test = await t.api('POST', `/v2/webhooks/${sub.public_id}/test`);
  expect(test.status).toBe(202);
  const delivery = await waitUntil('the delivery to end', async () => {
    const list = await t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`);
    const d = list.body.data[0];
    return d && d.status !== 'pending' ? d : undefined;
  });
  const captures = (await consoleApi('GET', `/inboxes/${inbox.id}/captures`)).body.data.reverse();
  return { inbox, sub, delivery, captures };
}

beforeAll(async () => {
  t = await startTestBackend({ retrySchedule: [0.05, 0.1], deliveryTimeoutMs: 400 });
});
afterAll(() => t.destroy());

describe('response modes against the real engine', () => {
  it('fail_first_n 2: two failed attempts, then the third succeeds; same webhook-id, duplicates marked, all verified', async () => {
    const { delivery, captures } = await driveOnce({ mode: 'fail_first_n', fail_first_n: 2, fail_status: 503 });
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(captures.map((c: any) => c.response_status)).toEqual([503, 503, 200]);
    expect(new Set(captures.map((c: any) => c.webhook_id)).size).toBe(1);
    expect(captures.map((c: any) => c.duplicate)).toEqual([false, true, true]);
    expect(captures.every((c: any) => c.verdict === 'verified')).toBe(true);
    expect(captures[0].event_type).toBe('webhook.test');
  });

  it('a fixed 500 exhausts the schedule: 3 attempts, then failed', async () => {
    const { delivery, captures } = await driveOnce({ mode: 'status', status: 500 });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 500 });
    expect(captures).toHaveLength(3);
  });

  it('410 Gone is not retried: the delivery fails after one attempt and the subscription is disabled', async () => {
    const { sub, delivery, captures } = await driveOnce({ mode: 'gone' });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 410 });
    expect(captures.map((c: any) => c.response_status)).toEqual([410]);
    const view = await waitUntil('the subscription disabled', async () => {
      const s = (await t.api('GET', `/v2/webhooks/${sub.public_id}`)).body;
      return s.status === 'disabled' && s;
    });
    expect(view.disabled_reason).toMatch(/410 Gone/);
  });

  it("429 with Retry-After waits what was asked, capped by the schedule's longest step (100 ms here), and ends failed", async () => {
    const { sub, delivery, captures } = await driveOnce({ mode: 'rate_limited', retry_after: 1 });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, last_status_code: 429 });
    expect(captures).toHaveLength(3);
    const log = (await t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries/${delivery.id}`)).body.attempt_log;
    expect(log.map((a: any) => a.rule)).toEqual(['retry_after', 'retry_after', 'exhausted']);
    expect(log[0].rule_detail).toMatch(/capped at the schedule's longest step, 0\.1 s/);
    expect(log.every((a: any) => a.slowed_down === true)).toBe(true);
  });

  it('hang: every attempt times out at the engine (400 ms here) and the delivery fails', async () => {
    const { delivery, captures } = await driveOnce({ mode: 'hang' });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, last_status_code: null });
    expect(delivery.last_error).toBeTruthy();
    expect(captures).toHaveLength(3);
    expect(captures.every((c: any) => c.response_status === null)).toBe(true);
  });

  it("a delay under the engine's timeout succeeds, and the logged duration shows it", async () => {
    const { delivery } = await driveOnce({ mode: 'status', status: 200, delay_ms: 150 });
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(delivery.last_duration_ms).toBeGreaterThanOrEqual(140);
  });

  it("a delay over the engine's timeout fails every attempt", async () => {
    const { delivery } = await driveOnce({ mode: 'status', status: 200, delay_ms: 1000 });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3 });
  });
});
