// Export and import of captures and delivery logs (no secret in the file, a faithful
// round trip into a fresh backend, idempotent re-import), and moving subscriptions
// left on an old receiver URL. Everything is sent to loopback only: the "old public
// URL" is never delivered to (no event is raised while a subscription points there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSecret } from '../../src-main/backend/delivery/signing.js';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';

let a: TestBackend;
let b: TestBackend;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestBackend(), startTestBackend()]);
});
afterAll(() => Promise.all([a.destroy(), b.destroy()]));

describe('export and import', () => {
  it('exports captures and delivery logs without any secret, and imports them faithfully once', async () => {
    const api = a.consoleApi;
    const pasted = generateSecret();
    const linked = (await api('POST', '/inboxes', { name: 'linked' })).body;
    const pastedInbox = (await api('POST', '/inboxes', { name: 'pasted', secret: pasted, response: { mode: 'status', status: 202 } })).body;
    const sub = (await api('POST', `/inboxes/${linked.id}/subscribe`, { type: 'document.voided' })).body.subscription;
    const subSecret = a.backend.store.subscriptions.get(sub.public_id)!.secret_key;
    expect((await a.api('POST', `/v2/webhooks/${sub.public_id}/test`)).status).toBe(202);
    await waitUntil('the capture', async () => (await api('GET', `/inboxes/${linked.id}/captures`)).body.data.length > 0);
    await waitUntil(
      'the delivery to succeed',
      async () => (await a.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data[0]?.status === 'succeeded',
    );
    // A sender that echoes secrets in what it sends: the export must still not carry them.
    await fetch(pastedInbox.local_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-leak': subSecret },
      body: JSON.stringify({ pasted, bare: subSecret.slice(6) }),
    });
    await fetch(pastedInbox.local_url, { method: 'POST', body: Buffer.from([0xff, 0xfe, 0x00]) });

    const exported = await api('GET', '/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="countersign-export-.*\.json"$/);
    for (const s of [pasted, pasted.slice(6), subSecret, subSecret.slice(6)]) expect(exported.text).not.toContain(s);
    expect(exported.text).toContain('[secret removed]');
    const file = exported.body;
    expect(file).toMatchObject({ format: 'countersign-export', version: 1 });
    expect(file.inboxes.find((i: any) => i.id === pastedInbox.id)).toMatchObject({
      secret_fingerprint: pastedInbox.secret.fingerprint,
      response: { status: 202 },
    });
    expect(file.captures).toHaveLength(3);
    expect(file.captures.some((c: any) => c.body_base64 === Buffer.from([0xff, 0xfe, 0x00]).toString('base64'))).toBe(true);
    const delivery = file.deliveries.find((d: any) => d.delivery.subscription_id === sub.public_id);
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0].response.status).toBe(200);
    expect(file.events.find((e: any) => e.event.id === delivery.delivery.event_id).body).toContain('webhook.test');

    const apiB = b.consoleApi;
    const imported = await apiB('POST', '/import', exported.text);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({
      inboxes_created: 2,
      captures_added: 3,
      deliveries_added: file.deliveries.length,
      events_added: file.events.length,
      already_present: 0,
      skipped: 0,
    });
    // The second time everything is already here: counted apart from skipped (malformed) entries (issue 12).
    const again = await apiB('POST', '/import', exported.text);
    expect(again.body).toEqual({
      inboxes_created: 0,
      captures_added: 0,
      deliveries_added: 0,
      events_added: 0,
      already_present: file.inboxes.length + file.captures.length + file.events.length + file.deliveries.length,
      skipped: 0,
    });

    const roundTrip = (await apiB('GET', '/export')).body;
    // What was imported says so, in the next export too.
    expect(roundTrip.events.every((e: any) => e.event.imported === true)).toBe(true);
    expect(roundTrip.deliveries.every((d: any) => d.delivery.imported === true)).toBe(true);
    const strip = (f: any) => ({
      inboxes: f.inboxes.map((i: any) => ({ ...i, secret_fingerprint: null, created_at: null })),
      captures: f.captures,
      events: f.events.map((e: any) => ({ ...e, event: { ...e.event, company_id: null, imported: null } })),
      deliveries: f.deliveries.map((d: any) => ({ ...d, delivery: { ...d.delivery, company_id: null, imported: null } })),
    });
    expect(strip(roundTrip)).toEqual(strip(file));
    // An imported inbox never brings a secret back.
    expect((await apiB('GET', `/inboxes/${pastedInbox.id}`)).body.secret.source).toBe('none');
  });

  it('an imported made-up event naming a real subscription is never sent with its secret (issue 9 finding 5)', async () => {
    const api = a.consoleApi;
    const inbox = (await api('POST', '/inboxes', { name: 'forgery target' })).body;
    const sub = (await api('POST', `/inboxes/${inbox.id}/subscribe`, {})).body.subscription;
    const at = new Date().toISOString();
    const forged = {
      format: 'countersign-export',
      version: 1,
      inboxes: [],
      captures: [],
      events: [
        {
          event: { id: 'evt_forged1', type: 'document.completed', timestamp: at, document_id: null, subscription_id: null },
          body: JSON.stringify({ id: 'evt_forged1', type: 'document.completed', data: { refund: 'everything' } }),
        },
      ],
      deliveries: [
        {
          delivery: {
            id: 'msg_forged1',
            event_id: 'evt_forged1',
            event_type: 'document.completed',
            subscription_id: sub.public_id,
            document_id: null,
            url: inbox.local_url,
            status: 'failed',
            attempts: 1,
            created_at: at,
            last_attempt_at: at,
            last_status_code: 500,
            last_error: null,
            last_duration_ms: 3,
            next_attempt_at: null,
            smuggled: '<script>alert(1)</script>',
          },
          attempts: [{ delivery_id: 'msg_forged1', nonsense: true }],
        },
      ],
    };
    const imported = await api('POST', '/import', forged);
    expect(imported.body).toMatchObject({ events_added: 1, deliveries_added: 1, skipped: 1 });

    const path = `/v2/webhooks/${sub.public_id}/deliveries/msg_forged1`;
    const redelivered = await a.api('POST', `${path}/redeliver`);
    expect(redelivered.status).toBe(409);
    expect(redelivered.body.error.code).toBe('delivery_imported');
    // The record is still shown, as it was imported, and nothing unknown came in with it.
    const shown = await a.api('GET', path);
    expect(shown.body).toMatchObject({ id: 'msg_forged1', status: 'failed', attempts: 1, attempt_log: [] });
    expect(shown.text).not.toMatch(/smuggled|imported|<script>/);
    // Nothing was signed and sent: the inbox never heard of it.
    await new Promise((r) => setTimeout(r, 300));
    const captures = (await api('GET', `/inboxes/${inbox.id}/captures`)).body.data;
    expect(captures.filter((c: any) => c.webhook_id === 'msg_forged1')).toEqual([]);
  });

  it('leaves no credential header in the file: captures, attempts and answers (issue 9 finding 11)', async () => {
    const api = a.consoleApi;
    const inbox = (await api('POST', '/inboxes', { name: 'credentials' })).body;
    const captured = {
      Authorization: 'Bearer cs_live_captured_api_key',
      'X-Api-Key': 'cs_captured_x_api_key',
      Cookie: 'sid=captured_cookie',
      'X-Auth-Token': 'captured_auth_token',
      'Stripe-Signature': 't=1,v1=captured_stripe_signature',
      'webhook-signature': 'v1,kept_standard_webhooks_signature',
    };
    await fetch(inbox.local_url, { method: 'POST', headers: { 'content-type': 'application/json', ...captured }, body: '{}' });
    // A subscriber that answers with a cookie: the attempt log keeps the answer's headers.
    const sink = await startSink();
    sink.respond = (_req, res) => {
      res.setHeader('Set-Cookie', 'session=answered_cookie');
      res.end('ok');
    };
    try {
      const sub = (await a.api('POST', '/v2/webhooks', { url: `${sink.url}/hook`, type: 'webhook.test' })).body;
      await a.api('POST', `/v2/webhooks/${sub.public_id}/test`);
      await sink.waitFor(1);
      await waitUntil(
        'the attempt to be logged',
        async () => (await a.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data[0]?.status === 'succeeded',
      );
    } finally {
      await sink.close();
    }
    const exported = await api('GET', '/export');
    for (const leaked of [
      'cs_live_captured_api_key',
      'cs_captured_x_api_key',
      'captured_cookie',
      'captured_auth_token',
      'captured_stripe',
      'answered_cookie',
    ])
      expect(exported.text).not.toContain(leaked);
    const capture = exported.body.captures.find((c: any) => c.inbox_id === inbox.id);
    const headers = Object.fromEntries(capture.headers.map(([n, v]: [string, string]) => [n.toLowerCase(), v]));
    expect(headers).toMatchObject({
      authorization: '[credential removed]',
      cookie: '[credential removed]',
      'content-type': 'application/json',
    });
    expect(headers['webhook-signature']).toBe('v1,kept_standard_webhooks_signature');
    const attempt = exported.body.deliveries.find((d: any) => d.delivery.url === `${sink.url}/hook`)?.attempts[0];
    expect(attempt?.response.headers['set-cookie']).toBe('[credential removed]');
    expect(attempt?.request.headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('refuses a file that is not an export', async () => {
    const r = await b.consoleApi('POST', '/import', { format: 'something-else' });
    expect(r.status).toBe(422);
    expect(r.body.error.details.fields[0].field).toBe('format');
  });
});

describe('subscriptions left on an old receiver URL', () => {
  it('are listed by GET /tunnel and moved with the same type and secret', async () => {
    const api = a.consoleApi;
    const secret = generateSecret();
    const inbox = (await api('POST', '/inboxes', { name: 'moving', secret })).body;
    // What a tunnel that had this public URL before would have left behind (a real
    // tunnel cannot come online here: no ngrok cloud).
    a.backend.receiver.inboxes.notePublicUrl('https://old-tunnel.ngrok.example');
    const oldPublic = await a.api('POST', '/v2/webhooks', {
      url: `https://old-tunnel.ngrok.example/in/${inbox.id}`,
      type: 'document.voided',
      secret_key: secret,
    });
    const oldLocal = await a.api('POST', '/v2/webhooks', {
      url: `http://127.0.0.1:1/in/${inbox.id}`,
      type: 'webhook.test',
      secret_key: secret,
    });
    expect([oldPublic.status, oldLocal.status]).toEqual([201, 201]);

    const tunnel = (await api('GET', '/tunnel')).body;
    const stale = Object.fromEntries(tunnel.stale_subscriptions.map((s: any) => [s.public_id, s]));
    expect(stale[oldPublic.body.public_id]).toMatchObject({ reason: 'old_public_url', inbox_id: inbox.id, new_url: inbox.local_url });
    expect(stale[oldLocal.body.public_id]).toMatchObject({ reason: 'old_local_url', new_url: inbox.local_url });

    const moved = (await api('POST', '/tunnel/move-subscriptions', {})).body;
    expect(moved.moved).toHaveLength(2);
    expect(moved.tunnel.stale_subscriptions).toEqual([]);
    expect(JSON.stringify(moved)).not.toContain(secret.slice(6));
    expect((await a.api('GET', `/v2/webhooks/${oldPublic.body.public_id}`)).status).toBe(404);
    const replacement = moved.moved.find((m: any) => m.from_id === oldPublic.body.public_id);
    expect(replacement).toMatchObject({ to_url: inbox.local_url, type: 'document.voided' });

    // Same secret: a delivery through the moved subscription verifies with the pasted one.
    expect((await a.api('POST', `/v2/webhooks/${replacement.to_id}/test`)).status).toBe(202);
    const page = await waitUntil('the moved subscription’s capture', async () => {
      const p = (await api('GET', `/inboxes/${inbox.id}/captures`)).body;
      return p.data.length ? p : undefined;
    });
    expect(page.data[0].verdict).toBe('verified');
  });
});
