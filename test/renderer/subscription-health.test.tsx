// The subscription screen's health and secrets cards in jsdom against a real backend
// over HTTP: Disable (with a reason) and Enable by hand, Recover since, and Rotate
// secret: the new secret shown once, the live fingerprints going from one to two.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeDocument, renderConsole, consoleBackendForFile } from './render-console.js';

const tb = consoleBackendForFile();

describe('subscription health and secrets', () => {
  it('disables with a reason, keeps events as skipped, enables again and recovers them', async () => {
    const sub = (await tb().api('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/hook', type: 'document.created' })).body;
    const user = userEvent.setup();
    renderConsole(`/app/settings/integrations/webhooks/${sub.public_id}`);
    const card = within(await screen.findByRole('region', { name: 'Health and recovery' }, { timeout: 8000 }));
    await user.type(card.getByLabelText('Reason (optional)'), 'redeploying');
    await user.click(card.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(card.getByText(/redeploying/)).toBeTruthy(), { timeout: 8000 });
    expect((await tb().api('GET', `/v2/webhooks/${sub.public_id}`)).body).toMatchObject({
      status: 'disabled',
      disabled_reason: 'redeploying',
    });
    expect(card.getByRole('button', { name: 'Recover' }).hasAttribute('disabled')).toBe(true);

    await makeDocument(tb(), 'While disabled');
    await waitFor(
      async () => expect((await tb().api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data[0]?.status).toBe('skipped'),
      { timeout: 8000 },
    );
    await user.click(card.getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(card.getByRole('button', { name: 'Disable' })).toBeTruthy(), { timeout: 8000 });
    await user.click(card.getByRole('button', { name: 'Recover' }));
    expect(await card.findByText('1 delivery queued again, oldest first.', {}, { timeout: 8000 })).toBeTruthy();
  });

  it('says on the subscription list which subscriptions are disabled, and why', async () => {
    const sub = (await tb().api('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/gone', type: 'all' })).body;
    await tb().api('POST', `/v2/test_helpers/webhooks/${sub.public_id}/disable`, { reason: 'The endpoint answered 410 Gone.' });
    renderConsole('/app/settings/integrations/webhooks');
    const notice = await screen.findByText(/is disabled: The endpoint answered 410 Gone\./, {}, { timeout: 8000 });
    expect(within(notice).getByRole('link', { name: sub.public_id })).toBeTruthy();
    const row = screen.getByRole('link', { name: sub.url }).closest('tr')!;
    expect(within(row).getByText('disabled').className).toContain('badge-danger');
  });

  it('rotates the secret: shown once, and two live fingerprints', async () => {
    const sub = (await tb().api('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/other', type: 'all' })).body;
    const user = userEvent.setup();
    renderConsole(`/app/settings/integrations/webhooks/${sub.public_id}`);
    const card = within(await screen.findByRole('region', { name: 'Signing secrets' }, { timeout: 8000 }));
    await waitFor(() => expect(card.getAllByRole('listitem')).toHaveLength(1), { timeout: 8000 });
    await user.click(card.getByRole('button', { name: 'Rotate secret' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Secret rotated' }, { timeout: 8000 }));
    const shown = dialog.getByLabelText('new signing secret').textContent!;
    expect(shown).toMatch(/^whsec_/);
    expect(shown).not.toBe(sub.secret_key);
    await user.click(dialog.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(card.getAllByRole('listitem')).toHaveLength(2), { timeout: 8000 });
    expect(card.getByText('previous')).toBeTruthy();
    expect(screen.queryByText(shown)).toBeNull();
  });
});
