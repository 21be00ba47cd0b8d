// The remote half of tunnel-aware subscriptions: a subscription made on a remote through
// the console for one of this Countersign's inboxes (at the tunnel's public URL) is
// remembered; when the public URL changes, it is listed, and moved after one
// confirmation (POST), checked on the remote's own API. The ngrok cloud cannot be
// reached from a test, so the tunnel's state is set by hand (the one fake here): the
// remote, the proxy and the inbox are real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, ADMIN_KEY, type TestBackend } from '../helpers/backend.js';
import type { TunnelState } from '@shared/receiver-types.js';

let remote: TestBackend;
let local: TestBackend;
let tunnel: TunnelState = { status: 'offline' };

beforeAll(async () => {
  remote = await startTestBackend();
  local = await startTestBackend({}, undefined, { env: { KEY: ADMIN_KEY } });
  local.backend.tunnel.state = () => tunnel;
});
afterAll(async () => {
  await local?.destroy();
  await remote?.destroy();
});

describe('subscriptions on a remote follow the tunnel after one confirmation', () => {
  it('remembers, lists and moves them; the inbox verifies with the new secret', async () => {
    const conn = await local.consoleApi('POST', '/connections', {
      name: 'Remote',
      base_url: remote.urls.api_url,
      app_url: 'https://app.example.com',
      api_key_env: 'KEY',
    });
    const id = conn.body.id as string;
    const inbox = (await local.consoleApi('POST', '/inboxes', { name: 'Remote deliveries' })).body;
    tunnel = { status: 'online', public_url: 'https://first.ngrok.app' };

    const made = await local.consoleApi('POST', `/connections/${id}/remote/v2/webhooks`, {
      url: `https://first.ngrok.app/in/${inbox.id}`,
      type: 'document.updated',
    });
    expect(made.status).toBe(201);
    // The secret of the remote's subscription is pasted on the inbox, so its verdicts verify.
    expect((await local.consoleApi('GET', `/inboxes/${inbox.id}`)).body.secret).toMatchObject({ source: 'pasted' });
    // A subscription elsewhere is not remembered.
    await local.consoleApi('POST', `/connections/${id}/remote/v2/webhooks`, { url: 'https://hooks.example.com/x' });
    expect((await local.consoleApi('GET', `/connections/${id}/tunnel-moves`)).body).toEqual({
      public_url: 'https://first.ngrok.app',
      data: [],
    });

    tunnel = { status: 'offline' };
    const offline = await local.consoleApi('GET', `/connections/${id}/tunnel-moves`);
    expect(offline.body.public_url).toBeNull();
    expect((await local.consoleApi('POST', `/connections/${id}/tunnel-moves`)).status).toBe(400);

    tunnel = { status: 'online', public_url: 'https://second.ngrok.app' };
    const listed = await local.consoleApi('GET', `/connections/${id}/tunnel-moves`);
    expect(listed.body.data).toEqual([
      {
        subscription_id: made.body.public_id,
        inbox_id: inbox.id,
        url: `https://first.ngrok.app/in/${inbox.id}`,
        new_url: `https://second.ngrok.app/in/${inbox.id}`,
      },
    ]);
    // Nothing moves without the confirmation.
    expect((await remote.api('GET', `/v2/webhooks/${made.body.public_id}`)).status).toBe(200);

    const moved = await local.consoleApi('POST', `/connections/${id}/tunnel-moves`);
    expect(moved.status).toBe(200);
    expect(moved.body.failed).toEqual([]);
    expect(moved.body.moved).toHaveLength(1);
    const [m] = moved.body.moved;
    expect(m).toMatchObject({ old_subscription_id: made.body.public_id, url: `https://second.ngrok.app/in/${inbox.id}` });
    // The same secret: the inbox's verdicts and the user's app keep verifying.
    expect(m.secret_key).toBe(made.body.secret_key);
    expect((await remote.api('GET', `/v2/webhooks/${made.body.public_id}`)).status).toBe(404);
    expect((await remote.api('GET', `/v2/webhooks/${m.subscription_id}`)).body).toMatchObject({
      url: `https://second.ngrok.app/in/${inbox.id}`,
      type: 'document.updated',
    });
    expect((await local.consoleApi('GET', `/connections/${id}/tunnel-moves`)).body.data).toEqual([]);
  });

  it('forgets a subscription deleted on the remote behind its back', async () => {
    const id = (
      await local.consoleApi('POST', '/connections', {
        name: 'Remote 2',
        base_url: remote.urls.api_url,
        app_url: 'https://app.example.com',
        api_key_env: 'KEY',
      })
    ).body.id;
    const inbox = (await local.consoleApi('POST', '/inboxes', {})).body;
    tunnel = { status: 'online', public_url: 'https://third.ngrok.app' };
    const made = await local.consoleApi('POST', `/connections/${id}/remote/v2/webhooks`, {
      url: `https://third.ngrok.app/in/${inbox.id}`,
      type: 'all',
    });
    expect(made.status).toBe(201);
    await remote.api('DELETE', `/v2/webhooks/${made.body.public_id}`);
    tunnel = { status: 'online', public_url: 'https://fourth.ngrok.app' };
    const moved = await local.consoleApi('POST', `/connections/${id}/tunnel-moves`);
    expect(moved.body).toEqual({
      moved: [],
      failed: [{ subscription_id: made.body.public_id, message: expect.stringMatching(/no longer exists/) }],
    });
    expect((await local.consoleApi('GET', `/connections/${id}/tunnel-moves`)).body.data).toEqual([]);
  });
});
