// Deliveries end to end over real HTTP (docs/api.md section 12): a real backend sends to
// a real loopback receiver; signatures are checked with the standardwebhooks library.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Sink } from '../helpers/sink.js';
import { join } from 'node:path';
import { createHistoryLog } from '../../src-main/backend/store/history-log.js';

let t: TestBackend;
let sink: Sink;
beforeAll(async () => {
  t = await startTestBackend({ retrySchedule: [0.05, 0.05, 0.05] });
});
afterAll(() => t.destroy());
afterEach(async () => {
  await sink?.close();
});

async function subscribe(type = 'all', path = '/hook') {
  sink = await startSink();
  const res = await t.api('POST', '/v2/webhooks', { url: sink.url + path, type });
  expect(res.status).toBe(201);
  return res.body as { public_id: string; secret_key: string };
}
async function newDoc() {
  return (await t.api('POST', '/v2/test_helpers/documents', { title: 'Deal', recipients: [{ name: 'Ann', email: 'ann@example.com' }] }))
    .body;
}
async function waitUntil<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('signed deliveries', () => {
  it('are verified by a Standard Webhooks library with the subscription secret', async () => {
    const sub = await subscribe('document.created');
    const doc = await newDoc();
    const [req] = await sink.waitFor(1);
    const headers = {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    };
    const payload = new Webhook(sub.secret_key).verify(req.body, headers) as any;
    expect(payload.type).toBe('document.created');
    expect(payload.id).toMatch(/^evt_/);
    expect(payload.data.document).toEqual((await t.api('GET', `/documents/${doc.public_id}`)).body);
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    // One byte changed anywhere → verification fails.
    const tampered = req.body.replace('"Deal"', '"Deam"');
    expect(tampered).not.toBe(req.body);
    expect(() => new Webhook(sub.secret_key).verify(tampered, headers)).toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 9).toString('base64')}`).verify(req.body, headers)).toThrow();
  });

  it('go only to subscriptions whose type matches, one per subscription', async () => {
    sink = await startSink();
    const all = (await t.api('POST', '/v2/webhooks', { url: sink.url + '/all', type: 'all' })).body;
    const sentOnly = (await t.api('POST', '/v2/webhooks', { url: sink.url + '/sent', type: 'document.sent' })).body;
    const doc = await newDoc();
    await t.api('POST', `/v2/test_helpers/documents/${doc.public_id}/send`);
    const got = await sink.waitFor(3);
    await new Promise((r) => setTimeout(r, 150));
    const mine = got.filter((r) => JSON.parse(r.body).data.document?.public_id === doc.public_id);
    expect(mine.map((r) => `${r.path} ${JSON.parse(r.body).type}`).sort()).toEqual([
      '/all document.created',
      '/all document.sent',
      '/sent document.sent',
    ]);
    await t.api('DELETE', `/v2/webhooks/${all.public_id}`);
    await t.api('DELETE', `/v2/webhooks/${sentOnly.public_id}`);
  });
});

describe('retries', () => {
  it('retries a failure with the same webhook-id and a fresh signature, and logs every attempt', async () => {
    const sub = await subscribe('document.created');
    sink.respond = (_r, res, n) => {
      res.statusCode = n < 3 ? 503 : 200;
      res.end(n < 3 ? 'busy' : 'ok');
    };
    await newDoc();
    const got = await sink.waitFor(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    // Each attempt is signed afresh for its own timestamp (attempts within one second share it).
    for (const r of got) {
      expect(() => new Webhook(sub.secret_key).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    }
    const stamps = new Set(got.map((r) => r.headers['webhook-timestamp']));
    expect(new Set(got.map((r) => r.headers['webhook-signature'])).size).toBe(stamps.size);
    const log = await waitUntil(
      () => t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`),
      (r) => r.body.data[0]?.status === 'succeeded',
    );
    expect(log.body.data[0]).toMatchObject({ status: 'succeeded', attempts: 3, last_status_code: 200 });
    const detail = await t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries/${log.body.data[0].id}`);
    expect(detail.body.attempt_log.map((a: any) => a.response?.status)).toEqual([503, 503, 200]);
    expect(detail.body.attempts).toBe(3);
    expect(detail.body.attempt_log[0].response.body).toBe('busy');
    expect(detail.body.attempt_log[0].next_attempt_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(detail.body.attempt_log[0].request.headers['webhook-id']).toBe(log.body.data[0].id);
    expect(detail.body.attempt_log[0].duration_ms).toEqual(expect.any(Number));
  });

  it('does not follow a redirect: a 302 is a failure, retried, then failed for good', async () => {
    const sub = await subscribe('document.created', '/moved');
    sink.respond = (_r, res) => {
      res.writeHead(302, { location: sink.url + '/elsewhere' });
      res.end();
    };
    await newDoc();
    const log = await waitUntil(
      () => t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`),
      (r) => r.body.data[0]?.status === 'failed',
    );
    expect(log.body.data[0]).toMatchObject({ status: 'failed', attempts: 4, last_status_code: 302 });
    expect(sink.received.every((r) => r.path === '/moved')).toBe(true);
    expect(sink.received).toHaveLength(4);
  });

  it('deleting a subscription cancels its pending retries; a cancelled delivery is not redelivered (404)', async () => {
    const slow = await startTestBackend({ retrySchedule: [0.4, 0.4] });
    try {
      sink = await startSink();
      sink.respond = (_r, res) => ((res.statusCode = 500), res.end());
      const sub = (await slow.api('POST', '/v2/webhooks', { url: sink.url, type: 'document.created' })).body;
      await slow.api('POST', '/v2/test_helpers/documents', { title: 'x', recipients: [{ name: 'a', email: 'a@b.co' }] });
      await sink.waitFor(1);
      const [delivery] = (await slow.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data;
      expect((await slow.api('DELETE', `/v2/webhooks/${sub.public_id}`)).status).toBe(204);
      expect(slow.backend.outbox.size).toBe(0);
      expect(slow.backend.history.getDelivery(delivery.id)?.status).toBe('cancelled');
      // A cancelled delivery cannot be redelivered: its subscription is gone (docs/api.md, Redeliver; issue 12).
      const again = await slow.api('POST', `/v2/webhooks/${sub.public_id}/deliveries/${delivery.id}/redeliver`);
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe('not_found');
      await new Promise((r) => setTimeout(r, 1000));
      expect(sink.received).toHaveLength(1);
    } finally {
      await slow.destroy();
    }
  });
});

describe('extensions', () => {
  it('sends a test event to one subscription whatever its type, and redelivers with the same webhook-id', async () => {
    const sub = await subscribe('document.voided');
    const res = await t.api('POST', `/v2/webhooks/${sub.public_id}/test`);
    expect(res.status).toBe(202);
    const [req] = await sink.waitFor(1);
    const body = JSON.parse(req.body);
    expect(body.type).toBe('webhook.test');
    expect(body.data.subscription.public_id).toBe(sub.public_id);
    expect(body.data.subscription.secret_key).toBeUndefined();
    const log = await waitUntil(
      () => t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`),
      (r) => r.body.data[0]?.status === 'succeeded',
    );
    const id = log.body.data[0].id;
    const again = await t.api('POST', `/v2/webhooks/${sub.public_id}/deliveries/${id}/redeliver`);
    expect(again.status).toBe(202);
    const both = await sink.waitFor(2);
    expect(both[1].headers['webhook-id']).toBe(id);
    expect(both[1].body).toBe(both[0].body);
    expect((await t.api('POST', `/v2/webhooks/${sub.public_id}/deliveries/msg_nope/redeliver`)).status).toBe(404);
  });
});

describe('durability', () => {
  it('stores the event and its pending delivery before answering, and a restart resumes it', async () => {
    sink = await startSink();
    sink.respond = (_r, res) => ((res.statusCode = 500), res.end());
    const first = await startTestBackend({ retrySchedule: [0.3] });
    const sub = (await first.api('POST', '/v2/webhooks', { url: sink.url, type: 'document.created' })).body;
    const doc = (
      await first.api('POST', '/v2/test_helpers/documents', { title: 'Persist me', recipients: [{ name: 'a', email: 'a@b.co' }] })
    ).body;
    await sink.waitFor(1);
    await first.stop();
    const { readFile } = await import('node:fs/promises');
    const onDisk = JSON.parse(await readFile(`${first.dataDir}/data.json`, 'utf8'));
    // The event (with its body) is stored as long as a delivery needs it; the delivery and its
    // progress are the history log's summary (the one source of them), on disk too.
    expect(onDisk.pending_events.map((e: { type: string }) => e.type)).toEqual(['document.created']);
    expect(onDisk.pending_deliveries).toEqual([]);
    const logged = createHistoryLog({ dir: join(first.dataDir, 'history'), cap: 1000 });
    await logged.open();
    const id = String(sink.received[0].headers['webhook-id']);
    expect(logged.getDelivery(id)).toMatchObject({ status: 'pending', attempts: 1, event_id: onDisk.pending_events[0].id });
    await logged.close();
    sink.respond = (_r, res) => res.end('ok');
    const second = await startTestBackend({ retrySchedule: [0.3] }, first.dataDir);
    try {
      const got = await sink.waitFor(2);
      expect(got[1].headers['webhook-id']).toBe(got[0].headers['webhook-id']);
      expect(JSON.parse(got[1].body).data.document.public_id).toBe(doc.public_id);
      const log = await waitUntil(
        () => second.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`),
        (r) => r.body.data[0]?.status === 'succeeded',
      );
      expect(log.body.data[0].attempts).toBe(2);
    } finally {
      await second.destroy();
    }
  });
});
