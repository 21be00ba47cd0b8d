// The event catalog's "Send example" (POST /v2/test_helpers/webhooks/{id}/send_example):
// the example of an event type, from the OpenAPI document's webhooks: entries, is
// delivered for real to a loopback endpoint, signed (checked with the standardwebhooks
// library), logged, and refused with the one error shape for a bad type or another
// company's subscription.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_INFO } from '../../src-main/backend/openapi/events.js';
import { otherCompanyAdmin, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Sink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';

let t: TestBackend;
let sink: Sink;
beforeAll(async () => {
  [t, sink] = await Promise.all([startTestBackend(), startSink()]);
});
afterAll(() => Promise.all([t.destroy(), sink.close()]));

describe('send an event type’s example to a subscription', () => {
  it('delivers the documented example, signed, to that subscription whatever its type', async () => {
    const sub = (await t.api('POST', '/v2/webhooks', { url: sink.url, type: 'document.voided' })).body;
    const sent = await t.api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/send_example`, { type: 'document.completed' });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ subscription_id: sub.public_id, status: 'pending' });
    const [req] = await sink.waitFor(1);
    const headers = {
      'webhook-id': String(req!.headers['webhook-id']),
      'webhook-timestamp': String(req!.headers['webhook-timestamp']),
      'webhook-signature': String(req!.headers['webhook-signature']),
    };
    expect(headers['webhook-id']).toBe(sent.body.delivery_id);
    const payload = new Webhook(sub.secret_key).verify(req!.body, headers) as any;
    expect(payload).toMatchObject({ id: sent.body.event_id, type: 'document.completed' });
    expect(payload.data).toEqual(EVENT_INFO['document.completed'].example);
    const delivery = await waitUntil('the delivery to succeed', async () => {
      const first = (await t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data[0];
      return first?.status === 'succeeded' && first;
    });
    expect(delivery).toMatchObject({ id: sent.body.delivery_id, event_type: 'document.completed' });
  });

  it('refuses an unknown type (422 on type) and another company’s subscription (404), sending nothing', async () => {
    const sub = (await t.api('POST', '/v2/webhooks', { url: sink.url, type: 'all' })).body;
    const before = sink.received.length;
    const bad = await t.api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/send_example`, { type: 'document.exploded' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields[0].field).toBe('type');
    const other = await otherCompanyAdmin(t.backend, 'Other Co');
    const foreign = await t.api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/send_example`, { type: 'document.sent' }, other);
    expect(foreign.status).toBe(404);
    expect((await t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data).toEqual([]);
    expect(sink.received.length).toBe(before);
  });
});
