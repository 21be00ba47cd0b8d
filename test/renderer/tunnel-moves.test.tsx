// The Connections screen's tunnel warning against two REAL backends in-process: the
// local one holds a connection to the other ("the remote") and a subscription made there
// for one of its inboxes through the tunnel. The ngrok cloud cannot be reached from a
// test, so the tunnel's state is set by hand (the one fake); after its URL changes the
// screen lists the subscription, and moves it only after the confirmation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { configureClient } from '../../src-renderer/api/client.js';
import { ConnectionsScreen } from '../../src-renderer/screens/connections/ConnectionsScreen.js';
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
});
