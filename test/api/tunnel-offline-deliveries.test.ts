// Deliveries that fail while the tunnel is down are marked so in the inspector: a failed
// attempt to one of the receiver's public tunnel URLs (the current one or a past one)
// made while the tunnel is not online carries `tunnel_offline`, recorded with the attempt
// (the tunnel's state at that moment), and the delivery's inspector row says so. The
// ngrok cloud cannot be reached from a test, so the tunnel's state is set by hand and its
// change announced on the bus as the tunnel does (the one fake here); the public URLs
// are on the reserved `.invalid` domain, so an attempt to them really fails (no such
// host). The store, the engine, the receiver and both APIs are real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { waitUntil } from '../helpers/wait.js';
import type { TunnelState } from '@shared/receiver-types.js';

let t: TestBackend;
let tunnel: TunnelState = { status: 'offline' };

const setTunnel = (state: TunnelState) => {
  tunnel = state;
  t.backend.bus.emit({ kind: 'tunnel', state: state.status });
};

/** Sends a webhook.test to the subscription and waits for its delivery to end. */
async function deliverOnce(subId: string) {
  expect((await t.api('POST', `/v2/webhooks/${subId}/test`)).status).toBe(202);
  const d = await waitUntil('the delivery to end', async () => {
    const first = (await t.api('GET', `/v2/webhooks/${subId}/deliveries`)).body.data[0];
    return first && first.status !== 'pending' ? first : undefined;
  });
  const row = (await t.consoleApi('GET', `/inspector/rows?refs=d:${d.id}`)).body.data[0];
  const detail = (await t.consoleApi('GET', `/inspector/deliveries/${d.id}`)).body;
  const log = (await t.api('GET', `/v2/webhooks/${subId}/deliveries/${d.id}`)).body;
  return { d, row, detail, log };
}

const subscribeUrl = async (url: string) => (await t.api('POST', '/v2/webhooks', { url, type: 'all' })).body.public_id as string;

beforeAll(async () => {
  t = await startTestBackend({ retrySchedule: [0.05, 0.1] });
  t.backend.tunnel.state = () => tunnel;
});
afterAll(() => t.destroy());

describe('deliveries that fail while the tunnel is down', () => {
  let inbox: { id: string; local_url: string };
  let downId: string;

  beforeAll(async () => {
    inbox = (await t.consoleApi('POST', '/inboxes', { name: 'Behind the tunnel' })).body;
  });

  it('marks every failed attempt to the current public URL made while the tunnel is off, and the row', async () => {
    setTunnel({ status: 'online', public_url: 'https://first-tunnel.invalid' });
    const sub = (await t.consoleApi('POST', `/inboxes/${inbox.id}/subscribe`, { type: 'all' })).body.subscription;
    expect(sub.url).toBe(`https://first-tunnel.invalid/in/${inbox.id}`);
    setTunnel({ status: 'off' });

    const { d, row, detail, log } = await deliverOnce(sub.public_id);
    downId = d.id;
    expect(d.status).toBe('failed');
    expect(d.attempts).toBe(3);
    expect(row).toMatchObject({ ref: `d:${d.id}`, tunnel_offline: true, inbox_id: inbox.id });
    expect(detail.row.tunnel_offline).toBe(true);
    expect(detail.attempts.map((a: any) => a.tunnel_offline)).toEqual([true, true, true]);
    // The service API's attempt log says it too; its delivery summary keeps its documented shape.
    expect(log.attempt_log.map((a: any) => a.tunnel_offline)).toEqual([true, true, true]);
    expect(log).not.toHaveProperty('last_tunnel_offline');
    const feed = (await t.consoleApi('GET', `/inspector/feed?kind=delivery`)).body.data as any[];
    expect(feed.find((r) => r.id === d.id)?.tunnel_offline).toBe(true);
  });

  it('marks a failure to a past public URL of the receiver while the tunnel is in error', async () => {
    setTunnel({ status: 'online', public_url: 'https://second-tunnel.invalid' });
    setTunnel({ status: 'error', message: 'lost' });
    // A subscription left on the first (now past) public URL: not moved while the tunnel is down.
    const subId = await subscribeUrl(`https://first-tunnel.invalid/in/${inbox.id}`);
    const { d, row, detail } = await deliverOnce(subId);
    expect(d.status).toBe('failed');
    expect(row.tunnel_offline).toBe(true);
    expect(detail.attempts.every((a: any) => a.tunnel_offline === true)).toBe(true);
  });

  it('does not mark a failure elsewhere, nor a success through the local URL, while the tunnel is down', async () => {
    const elsewhere = await deliverOnce(await subscribeUrl('https://hooks.elsewhere.invalid/webhooks'));
    expect(elsewhere.d.status).toBe('failed');
    expect(elsewhere.row).not.toHaveProperty('tunnel_offline');
    expect(elsewhere.detail.attempts.some((a: any) => 'tunnel_offline' in a)).toBe(false);

    const local = await deliverOnce(await subscribeUrl(inbox.local_url));
    expect(local.d.status).toBe('succeeded');
    expect(local.row).not.toHaveProperty('tunnel_offline');
  });

  it('does not mark a failure to the public URL while the tunnel is online, and keeps the earlier mark', async () => {
    setTunnel({ status: 'online', public_url: 'https://third-tunnel.invalid' });
    const subId = await subscribeUrl(`https://third-tunnel.invalid/in/${inbox.id}`);
    const online = await deliverOnce(subId);
    expect(online.d.status).toBe('failed');
    expect(online.row).not.toHaveProperty('tunnel_offline');
    expect(online.detail.attempts.some((a: any) => 'tunnel_offline' in a)).toBe(false);
    // Recorded at attempt time: the tunnel being back does not erase what happened then.
    const earlier = (await t.consoleApi('GET', `/inspector/rows?refs=d:${downId}`)).body.data[0];
    expect(earlier.tunnel_offline).toBe(true);
  });
});
