// The local half of tunnel-aware subscriptions: when the tunnel comes online under a new
// public URL, the local service's subscriptions left on an earlier public URL of one of
// this receiver's inboxes are moved to the new one by themselves (re-created with the
// same type and secret, the old one deleted); other subscriptions are left alone. The
// ngrok cloud cannot be reached from a test, so the tunnel's state is set by hand and
// its change announced on the bus as the tunnel does (the one fake here); the store,
// the receiver, the domain and the console API are real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { waitUntil } from '../helpers/wait.js';
import type { TunnelState } from '@shared/receiver-types.js';

let t: TestBackend;
let tunnel: TunnelState = { status: 'offline' };

const goOnline = (public_url: string) => {
  tunnel = { status: 'online', public_url };
  t.backend.bus.emit({ kind: 'tunnel', state: 'online' });
};

beforeAll(async () => {
  t = await startTestBackend();
  t.backend.tunnel.state = () => tunnel;
});
afterAll(() => t.destroy());

describe('subscriptions follow the tunnel’s public URL', () => {
  it('moves those on an old public URL of an inbox when a new one comes online, keeping type and secret', async () => {
    const inbox = (await t.consoleApi('POST', '/inboxes', { name: 'Through the tunnel' })).body;
    goOnline('https://first.ngrok.app');
    const sub = (await t.consoleApi('POST', `/inboxes/${inbox.id}/subscribe`, { type: 'document.sent' })).body.subscription;
    expect(sub.url).toBe(`https://first.ngrok.app/in/${inbox.id}`);
    const fingerprintBefore = (await t.consoleApi('GET', `/inboxes/${inbox.id}`)).body.secret.fingerprint;
    expect(fingerprintBefore).toMatch(/^[0-9a-f]{8}$/);
    const elsewhere = (await t.api('POST', '/v2/webhooks', { url: 'https://hooks.example.com/x', type: 'all' })).body;

    // The tunnel drops and comes back under another URL (free ngrok URLs change).
    tunnel = { status: 'error', message: 'lost' };
    t.backend.bus.emit({ kind: 'tunnel', state: 'error' });
    goOnline('https://second.ngrok.app');

    const moved = await waitUntil('the subscription to move', async () => {
      const list = (await t.api('GET', '/v2/webhooks')).body.data as any[];
      // Created first, then the old one deleted: done when both have happened.
      return !list.some((s) => s.public_id === sub.public_id) && list.find((s) => s.url === `https://second.ngrok.app/in/${inbox.id}`);
    });
    expect(moved).toMatchObject({ type: 'document.sent', status: 'enabled' });
    expect(moved.public_id).not.toBe(sub.public_id);
    const ids = ((await t.api('GET', '/v2/webhooks')).body.data as any[]).map((s) => s.public_id);
    expect(ids).not.toContain(sub.public_id);
    expect(ids).toContain(elsewhere.public_id);
    // The same secret: the inbox still verifies what the sender signs.
    const view = (await t.consoleApi('GET', `/inboxes/${inbox.id}`)).body;
    expect(view.secret.linked_subscription_ids).toEqual([moved.public_id]);
    expect(view.secret.fingerprint).toBe(fingerprintBefore);
    expect((await t.consoleApi('GET', '/tunnel')).body.stale_subscriptions).toEqual([]);
  });

  it('leaves subscriptions alone while the tunnel is not online', async () => {
    const inbox = (await t.consoleApi('POST', '/inboxes', { name: 'Offline' })).body;
    goOnline('https://third.ngrok.app');
    const sub = (await t.consoleApi('POST', `/inboxes/${inbox.id}/subscribe`, { type: 'all' })).body.subscription;
    tunnel = { status: 'off' };
    t.backend.bus.emit({ kind: 'tunnel', state: 'off' });
    await new Promise((r) => setTimeout(r, 200));
    const stale = (await t.consoleApi('GET', '/tunnel')).body.stale_subscriptions;
    expect(stale.map((s: any) => s.public_id)).toContain(sub.public_id);
    expect(((await t.api('GET', '/v2/webhooks')).body.data as any[]).map((s) => s.public_id)).toContain(sub.public_id);
  });
});
