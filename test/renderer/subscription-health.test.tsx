// The subscription screen's health and secrets cards in jsdom against a real backend
// over HTTP: Disable (with a reason) and Enable by hand, Recover since, and Rotate
// secret: the new secret shown once, the live fingerprints going from one to two.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeDocument, renderConsole, startConsoleBackend, type TestBackend } from './render-console.js';

let tb: TestBackend;
beforeAll(async () => {
  tb = await startConsoleBackend();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => cleanup());
afterAll(async () => {
  await tb.destroy();
});

describe('subscription health and secrets', () => {
  it('disables with a reason, keeps events as skipped, enables again and recovers them', async () => {
    const sub = (await tb.api('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/hook', type: 'document.created' })).body;
    const user = userEvent.setup();
    renderConsole(`/app/settings/integrations/webhooks/${sub.public_id}`);
    const card = within(await screen.findByRole('region', { name: 'Health and recovery' }));
    await user.type(card.getByLabelText('Reason (optional)'), 'redeploying');
    await user.click(card.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(card.getByText(/redeploying/)).toBeTruthy());
    expect((await tb.api('GET', `/v2/webhooks/${sub.public_id}`)).body).toMatchObject({
      status: 'disabled',
      disabled_reason: 'redeploying',
    });
    expect(card.getByRole('button', { name: 'Recover' }).hasAttribute('disabled')).toBe(true);

    await makeDocument(tb, 'While disabled');
    await waitFor(async () =>
      expect((await tb.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data[0]?.status).toBe('skipped'),
    );
    await user.click(card.getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(card.getByRole('button', { name: 'Disable' })).toBeTruthy());
    await user.click(card.getByRole('button', { name: 'Recover' }));
    expect(await card.findByText('1 delivery queued again, oldest first.')).toBeTruthy();
  });

  it('rotates the secret: shown once, and two live fingerprints', async () => {
    const sub = (await tb.api('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/other', type: 'all' })).body;
    const user = userEvent.setup();
    renderConsole(`/app/settings/integrations/webhooks/${sub.public_id}`);
    const card = within(await screen.findByRole('region', { name: 'Signing secrets' }));
    await waitFor(() => expect(card.getAllByRole('listitem')).toHaveLength(1));
    await user.click(card.getByRole('button', { name: 'Rotate secret' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Secret rotated' }));
    const shown = dialog.getByLabelText('new signing secret').textContent!;
    expect(shown).toMatch(/^whsec_/);
    expect(shown).not.toBe(sub.secret_key);
    await user.click(dialog.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(card.getAllByRole('listitem')).toHaveLength(2));
    expect(card.getByText('previous')).toBeTruthy();
    expect(screen.queryByText(shown)).toBeNull();
  });
});
