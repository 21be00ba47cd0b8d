// Issue 12 items 1–4 over real HTTP against real loopback endpoints: answers that mean
// something (410, Retry-After, slow down), endpoint health on a manual clock (disabled
// after 5 virtual days of failures, `webhook.disabled`, skipped while disabled),
// recovery since a time (same webhook-id, in order), and secret rotation with two
// signatures verified by the standardwebhooks library with the old and the new secret.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../../src-main/backend/clock.js';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Received, type Sink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';

const DAY = 86_400_000;
let t: TestBackend | undefined;
const sinks: Sink[] = [];
afterEach(async () => {
  await t?.destroy();
  t = undefined;
  for (const s of sinks.splice(0)) await s.close();
});

async function sink(respond?: Sink['respond']): Promise<Sink> {
  const s = await startSink();
  if (respond) s.respond = respond;
  sinks.push(s);
  return s;
}
const api = (method: string, path: string, body?: unknown) => t!.api(method, path, body);
const subscribe = async (url: string, type = 'all') => (await api('POST', '/v2/webhooks', { url, type })).body;
const newDoc = () => api('POST', '/v2/test_helpers/documents', { title: 'Lease', recipients: [{ name: 'a', email: 'a@b.co' }] });
const deliveries = async (subId: string) => (await api('GET', `/v2/webhooks/${subId}/deliveries?limit=100`)).body.data;
const attempts = async (subId: string, id: string) => (await api('GET', `/v2/webhooks/${subId}/deliveries/${id}`)).body.attempt_log;
const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});
/** standardwebhooks checks the timestamp against Date.now(): verify as of the delivery's own (virtual) time. */
function verifyAt(secret: string, r: Received) {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Number(r.headers['webhook-timestamp']) * 1000);
    return new Webhook(secret).verify(r.body, headersOf(r));
  } finally {
    vi.useRealTimers();
  }
}

describe('answers that mean something', () => {
  it('410 Gone disables the subscription at once; later events are kept as skipped; webhook.disabled goes to the others', async () => {
    t = await startTestBackend({ retrySchedule: [0.05, 0.05] });
    const gone = await sink((_q, res) => ((res.statusCode = 410), res.end('gone')));
    const watcher = await sink();
    const sub = await subscribe(gone.url, 'document.created');
    const ops = await subscribe(watcher.url, 'webhook.disabled');
    await newDoc();
    await gone.waitFor(1);
    const view = await waitUntil('the subscription disabled', async () => {
      const s = (await api('GET', `/v2/webhooks/${sub.public_id}`)).body;
      return s.status === 'disabled' && s;
    });
    expect(view.disabled_reason).toMatch(/^The endpoint answered 410 Gone at \d{4}-/);
    const [first] = await deliveries(sub.public_id);
    expect(first).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await attempts(sub.public_id, first.id))[0]).toMatchObject({ rule: 'gone', next_attempt_at: null, succeeded: false });

    const [note] = await watcher.waitFor(1);
    const payload = verifyAt(ops.secret_key, note) as { type: string; data: { subscription: { public_id: string }; reason: string } };
    expect(payload.type).toBe('webhook.disabled');
    expect(payload.data.subscription.public_id).toBe(sub.public_id);
    expect(payload.data.reason).toBe(view.disabled_reason);

    await newDoc();
    const later = await waitUntil('a skipped delivery', async () =>
      (await deliveries(sub.public_id)).find((d: { status: string }) => d.status === 'skipped'),
    );
    expect(later).toMatchObject({ attempts: 0, next_attempt_at: null });
    await new Promise((r) => setTimeout(r, 200));
    expect(gone.received).toHaveLength(1);
    // Redelivering to a disabled subscription is refused in the one error shape.
    const refused = await api('POST', `/v2/webhooks/${sub.public_id}/deliveries/${later.id}/redeliver`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('subscription_disabled');
  });

  it('waits what Retry-After asks on 429 and 503, capped by the longest step, and slows the subscription down', async () => {
    const T0 = Date.UTC(2030, 0, 1, 9);
    const clock = new ManualClock(T0);
    t = await startTestBackend({ retrySchedule: [5, 3_600] }, undefined, { clock });
    const answers = [
      (res: import('node:http').ServerResponse) => (res.writeHead(429, { 'retry-after': '120' }), res.end()),
      (res: import('node:http').ServerResponse) => (res.writeHead(503, { 'retry-after': '99999' }), res.end()),
    ];
    const s = await sink((_q, res, n) => answers[Math.min(n, answers.length) - 1](res));
    const sub = await subscribe(s.url, 'document.created');
    await newDoc();
    await s.waitFor(1);
    const d1 = await waitUntil('the first attempt logged', async () =>
      (await deliveries(sub.public_id)).find((d: { attempts: number }) => d.attempts === 1),
    );
    expect(d1.next_attempt_at).toBe(new Date(T0 + 120_000).toISOString());
    const [a1] = await attempts(sub.public_id, d1.id);
    expect(a1).toMatchObject({
      rule: 'retry_after',
      slowed_down: true,
      rule_detail: expect.stringMatching(/^429 with Retry-After: 120: next attempt in 120 s; sending to this subscription slowed down$/),
    });

    clock.advance(119_999);
    await new Promise((r) => setTimeout(r, 150));
    expect(s.received).toHaveLength(1);
    clock.advance(1);
    await s.waitFor(2);
    const d2 = await waitUntil('the second attempt logged', async () =>
      (await deliveries(sub.public_id)).find((d: { attempts: number }) => d.attempts === 2),
    );
    expect(d2.next_attempt_at).toBe(new Date(T0 + 120_000 + 3_600_000).toISOString());
    const a2 = (await attempts(sub.public_id, d2.id))[1];
    expect(a2.rule).toBe('retry_after');
    expect(a2.rule_detail).toMatch(/capped at the schedule's longest step, 3600 s/);
    expect(a2.slowed_down).toBeUndefined();
  });

  it('after a 502 sends to that subscription one at a time', async () => {
    t = await startTestBackend({ retrySchedule: [0.05] });
    let open = 0;
    let most = 0;
    let first = true;
    const slow = await sink((_q, res) => {
      if (first) {
        first = false;
        res.statusCode = 502;
        return res.end();
      }
      most = Math.max(most, ++open);
      setTimeout(() => (open--, res.end('ok')), 60);
    });
    const sub = await subscribe(slow.url, 'document.created');
    await newDoc();
    await slow.waitFor(1);
    await waitUntil('the 502 logged', async () => (await deliveries(sub.public_id))[0]?.attempts >= 1);
    await Promise.all(Array.from({ length: 6 }, () => newDoc()));
    await slow.waitFor(8);
    expect(most).toBe(1);
  });
});

describe('endpoint health on a manual clock', () => {
  it('disables after 5 virtual days of failures, keeps new events as skipped, and recovers them in order with the same webhook-id', async () => {
    const T0 = Date.UTC(2030, 0, 1, 9);
    const clock = new ManualClock(T0);
    t = await startTestBackend({ retrySchedule: [3 * 86_400, 3 * 86_400] }, undefined, { clock });
    let healthy = false;
    const s = await sink((_q, res) => ((res.statusCode = healthy ? 200 : 500), res.end()));
    const sub = await subscribe(s.url, 'document.created');
    const logged = (n: number) => waitUntil(`attempt ${n} logged`, async () => (await deliveries(sub.public_id))[0]?.attempts === n);
    await newDoc();
    await s.waitFor(1);
    await logged(1);
    clock.advance(3 * DAY);
    await s.waitFor(2);
    await logged(2);
    expect((await api('GET', `/v2/webhooks/${sub.public_id}`)).body.status).toBe('enabled');
    clock.advance(3 * DAY);
    await s.waitFor(3);
    const view = await waitUntil('the subscription disabled', async () => {
      const v = (await api('GET', `/v2/webhooks/${sub.public_id}`)).body;
      return v.status === 'disabled' && v;
    });
    expect(view.disabled_reason).toBe(`Every delivery attempt failed for 5 days (since ${new Date(T0).toISOString()}).`);
    expect(view.disabled_at).toBe(new Date(T0 + 6 * DAY).toISOString());
    const [failed] = await deliveries(sub.public_id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 });

    clock.advance(DAY);
    await newDoc();
    await newDoc();
    const all = await waitUntil('two skipped deliveries', async () => {
      const list = await deliveries(sub.public_id);
      return list.filter((d: { status: string }) => d.status === 'skipped').length === 2 && list;
    });
    expect(s.received).toHaveLength(3);
    // Recover refuses while disabled; enable, then recover since T0: all three, oldest first, same ids.
    expect((await api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/recover`, { since: new Date(T0).toISOString() })).status).toBe(
      409,
    );
    expect((await api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/enable`)).body.status).toBe('enabled');
    healthy = true;
    const ids = [...all].reverse().map((d: { id: string }) => d.id);
    const rec = await api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/recover`, { since: new Date(T0).toISOString() });
    expect(rec.status).toBe(202);
    expect(rec.body.delivery_ids).toEqual(ids);
    const got = await s.waitFor(6);
    expect(
      got
        .slice(3)
        .map((r) => r.headers['webhook-id'])
        .sort(),
    ).toEqual([...ids].sort());
    await waitUntil('all three succeeded', async () =>
      (await deliveries(sub.public_id)).every((d: { status: string }) => d.status === 'succeeded'),
    );
    const bad = await api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/recover`, { since: 'yesterday' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields[0].field).toBe('since');
  });

  it('disable and enable by hand', async () => {
    t = await startTestBackend();
    const s = await sink();
    const sub = await subscribe(s.url, 'document.created');
    const off = await api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/disable`, { reason: 'maintenance' });
    expect(off.body).toMatchObject({ status: 'disabled', disabled_reason: 'maintenance' });
    await newDoc();
    await waitUntil('a skipped delivery', async () => (await deliveries(sub.public_id))[0]?.status === 'skipped');
    const on = await api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/enable`);
    expect(on.body.status).toBe('enabled');
    expect(on.body.disabled_reason).toBeUndefined();
    await newDoc();
    await s.waitFor(1);
    expect((await api('POST', '/v2/test_helpers/webhooks/wh_nope/disable')).status).toBe(404);
  });
});

describe('secret rotation', () => {
  it('signs with old and new secrets for the window, then only the new; fingerprints say which are live', async () => {
    const T0 = Date.now();
    const clock = new ManualClock(T0);
    t = await startTestBackend({}, undefined, { clock });
    const s = await sink();
    const sub = await subscribe(s.url, 'document.created');
    const before = (await api('GET', `/v2/test_helpers/webhooks/${sub.public_id}/secrets`)).body.secrets;
    expect(before).toEqual([{ fingerprint: expect.stringMatching(/^[0-9a-f]{8}$/), role: 'current', expires_at: null }]);

    const rot = await api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/rotate_secret`);
    expect(rot.status).toBe(200);
    const fresh = rot.body.secret_key as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(sub.secret_key);
    expect(rot.body.secrets).toEqual([
      { fingerprint: before[0].fingerprint, role: 'previous', expires_at: new Date(T0 + DAY).toISOString() },
      { fingerprint: expect.stringMatching(/^[0-9a-f]{8}$/), role: 'current', expires_at: null },
    ]);
    expect(JSON.stringify((await api('GET', `/v2/test_helpers/webhooks/${sub.public_id}/secrets`)).body)).not.toContain('whsec_');

    await newDoc();
    const [during] = await s.waitFor(1);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyAt(sub.secret_key, during)).toBeTruthy();
    expect(verifyAt(fresh, during)).toBeTruthy();

    clock.advance(DAY);
    expect((await api('GET', `/v2/test_helpers/webhooks/${sub.public_id}/secrets`)).body.secrets).toHaveLength(1);
    await newDoc();
    const [, after] = await s.waitFor(2);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyAt(fresh, after)).toBeTruthy();
    expect(() => verifyAt(sub.secret_key, after)).toThrow();
    const bad = await api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/rotate_secret`, { overlap_seconds: -1 });
    expect(bad.status).toBe(422);
  });
});
