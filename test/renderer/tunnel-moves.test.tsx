// The Connections screen's tunnel warning against two REAL backends in-process: the
// local one holds a connection to the other ("the remote") and a subscription made there
// for one of its inboxes through the tunnel. The ngrok cloud cannot be reached from a
// test, so the tunnel's state is set by hand (the one fake); after its URL changes the
// screen lists the subscription, and moves it only after the confirmation. And the
// Receiver's "Subscribe" dialog, on a remote, makes the subscription there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureClient } from '../../src-renderer/api/client.js';
import { ConnectionsScreen } from '../../src-renderer/screens/connections/ConnectionsScreen.js';
import { SubscribeDialog } from '../../src-renderer/screens/receiver/SubscribeDialog.js';
import { LOCAL, switchConnection } from '../../src-renderer/api/connection.js';
import { loadNodeHelper } from './node-helper.js';
import { CONSOLE_TOKEN, renderConsole } from './render-console.js';

interface Tb {
  urls: { api_url: string };
  backend: { tunnel: { state: () => unknown } };
  api: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  consoleApi: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  destroy: () => Promise<void>;
}

let remote: Tb;
let local: Tb;
let tunnel: { status: string; public_url?: string } = { status: 'offline' };

beforeAll(async () => {
  const h = await loadNodeHelper<{ startTestBackend: (...a: unknown[]) => Promise<Tb>; ADMIN_KEY: string }>('backend.ts');
  remote = await h.startTestBackend();
  local = await h.startTestBackend({ consoleToken: CONSOLE_TOKEN }, undefined, { env: { REMOTE_KEY: h.ADMIN_KEY } });
  local.backend.tunnel.state = () => tunnel;
  configureClient({ base: local.urls.api_url, consoleToken: CONSOLE_TOKEN });
});
afterAll(async () => {
  await local?.destroy();
  await remote?.destroy();
});

describe('Settings → Connections: subscriptions left behind by the tunnel', () => {
  it('lists them and moves them after one confirmation', async () => {
    const conn = (
      await local.consoleApi('POST', '/connections', {
        name: 'Remote',
        base_url: remote.urls.api_url,
        app_url: 'https://app.example.com',
        api_key_env: 'REMOTE_KEY',
      })
    ).body;
    const inbox = (await local.consoleApi('POST', '/inboxes', { name: 'From remote' })).body;
    tunnel = { status: 'online', public_url: 'https://old.ngrok.app' };
    const sub = (
      await local.consoleApi('POST', `/connections/${conn.id}/remote/v2/webhooks`, {
        url: `https://old.ngrok.app/in/${inbox.id}`,
        type: 'all',
      })
    ).body;
    tunnel = { status: 'online', public_url: 'https://new.ngrok.app' };

    const user = userEvent.setup();
    renderConsole('/app/settings/connections', <ConnectionsScreen />);
    await screen.findByText(/1 subscription on Remote still points at an old tunnel address/);
    await user.click(screen.getByRole('button', { name: 'Move it' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Move 1 subscription on Remote?' });
    expect((await remote.api('GET', `/v2/webhooks/${sub.public_id}`)).status).toBe(200);
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await screen.findByText(/Moved 1 subscription on Remote/);
    await waitFor(async () => expect((await remote.api('GET', `/v2/webhooks/${sub.public_id}`)).status).toBe(404));
    const now = (await remote.api('GET', '/v2/webhooks')).body.data.map((s: { url: string }) => s.url);
    expect(now).toEqual([`https://new.ngrok.app/in/${inbox.id}`]);
  });

  it("subscribes an inbox on the remote at its public URL from the Receiver's dialog, and the inbox verifies with its secret", async () => {
    const conn = (
      await local.consoleApi('POST', '/connections', {
        name: 'Remote B',
        base_url: remote.urls.api_url,
        app_url: 'https://app.example.com',
        api_key_env: 'REMOTE_KEY',
      })
    ).body;
    const made = (await local.consoleApi('POST', '/inboxes', { name: 'Dialog inbox' })).body;
    tunnel = { status: 'online', public_url: 'https://dialog.ngrok.app' };
    const inbox = (await local.consoleApi('GET', `/inboxes/${made.id}`)).body;
    expect(inbox.public_url).toBe(`https://dialog.ngrok.app/in/${made.id}`);
    switchConnection(conn);
    try {
      const user = userEvent.setup();
      renderConsole('/app/receiver', <SubscribeDialog inbox={inbox} onClose={() => undefined} />);
      await screen.findByRole('dialog', { name: 'Subscribe Dialog inbox on Remote B' });
      await user.click(screen.getByRole('button', { name: 'Subscribe' }));
      await screen.findByText(/made on Remote B/);
      const urls = (await remote.api('GET', '/v2/webhooks')).body.data.map((s: { url: string }) => s.url);
      expect(urls).toContain(`https://dialog.ngrok.app/in/${made.id}`);
      expect((await local.consoleApi('GET', `/inboxes/${made.id}`)).body.secret.source).toBe('pasted');
      // The built-in service got nothing.
      expect((await local.api('GET', '/v2/webhooks')).body.data).toEqual([]);
    } finally {
      switchConnection(LOCAL);
    }
  });
});
