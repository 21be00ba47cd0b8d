// Declining as a recipient cannot be undone: the console asks first (like Void), a
// cancel changes nothing, and after the decline focus is on the recipients table, not
// lost to <body> with the button that had it. Real backend over HTTP.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeDocument, renderConsole, consoleBackendForFile } from './render-console.js';

const tb = consoleBackendForFile();

describe('Decline as a recipient', () => {
  it('asks for confirmation, and focus lands on the recipients table afterwards', async () => {
    const doc = await makeDocument(tb(), 'Decline me');
    await tb().api('POST', `/v2/test_helpers/documents/${doc.public_id}/send`, {});
    const user = userEvent.setup();
    renderConsole(`/app/documents?d=${doc.public_id}`);

    await user.click(await screen.findByRole('button', { name: 'Decline as Ada Lovelace' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Decline as Ada Lovelace?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((await tb().api('GET', `/documents/${doc.public_id}`)).body.status).toBe('OUT_FOR_SIGNATURE');

    await user.click(screen.getByRole('button', { name: 'Decline as Ada Lovelace' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Decline as Ada Lovelace?' });
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect((await tb().api('GET', `/documents/${doc.public_id}`)).body.status).toBe('DECLINED');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Decline as Ada Lovelace' })).toBeNull());
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Recipients'));
  });
});
