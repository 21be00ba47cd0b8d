// Subscriptions a person can manage (issue 13 item 6), in jsdom against a REAL backend on
// 127.0.0.1: two subscriptions to one URL are told apart by id (and type) in the
// webhooks list and under the inbox on the receiver, and a subscription's delivery log
// shows the request body each attempt sent and links to the same delivery in the inspector.
import { describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { renderConsole, consoleBackendForFile } from './render-console.js';

const tb = consoleBackendForFile();

describe('subscriptions that share a URL', () => {
  it('are told apart by id and type in the list; the log shows the request body and opens the delivery in the inspector', async () => {
    const inbox = (await tb().consoleApi('POST', '/inboxes', { name: 'Shared' })).body;
    const a = (await tb().api('POST', '/v2/webhooks', { url: inbox.local_url, type: 'all' })).body;
    const b = (await tb().api('POST', '/v2/webhooks', { url: inbox.local_url, type: 'document.completed' })).body;

    renderConsole('/app/settings/integrations/webhooks');
    const table = await screen.findByRole('table', { name: /Webhook subscriptions/ }, { timeout: 5000 });
    for (const s of [a, b]) {
      const cell = await within(table).findByText(s.public_id, {}, { timeout: 5000 });
      const row = cell.closest('tr')!;
      expect(within(row).getByText(s.type)).toBeTruthy();
      expect(row.textContent).toContain(inbox.local_url);
    }
    cleanup();

    // And on the receiver, under the inbox they both send to.
    renderConsole('/app/receiver');
    const item = await screen.findByRole('listitem', { name: 'Inbox Shared' }, { timeout: 5000 });
    for (const s of [a, b]) {
      const link = await within(item).findByRole('link', { name: s.public_id }, { timeout: 5000 });
      expect(link.closest('li')!.textContent).toContain(s.type);
    }
    cleanup();

    expect((await tb().api('POST', `/v2/webhooks/${a.public_id}/test`, {})).status).toBeLessThan(300);
    const delivery = await waitFor(
      async () => {
        const log = await tb().api('GET', `/v2/webhooks/${a.public_id}/deliveries`);
        const d = log.body.data.find((x: any) => x.attempts > 0);
        if (!d) throw new Error('the test delivery is not attempted yet');
        return d;
      },
      { timeout: 10_000 },
    );
    const attempt = (await tb().api('GET', `/v2/webhooks/${a.public_id}/deliveries/${delivery.id}`)).body.attempt_log[0];
    renderConsole(`/app/settings/integrations/webhooks/${a.public_id}?delivery=${delivery.id}`);
    const open = await screen.findByText('Open in the inspector', {}, { timeout: 5000 });
    expect(open.getAttribute('href')).toBe(`/app/inspector?row=${encodeURIComponent(`d:${delivery.id}`)}`);
    const body = screen.getByText('Request body').closest('details')!;
    expect(body.querySelector('pre')!.textContent).toBe(attempt.request.body);
    expect(attempt.request.body).toContain('"type":"webhook.test"');
  });
});
