// Imported records look imported (issue 13 item 7), in jsdom against a REAL backend on
// 127.0.0.1: a delivery imported from a file while it was waiting for a retry is marked
// "imported" in the inspector's list and detail, never says when its next attempt is
// (it has none here), and cannot be redelivered; an imported inbox's old failure mode is
// off until turned on with one click.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderConsole, startConsoleBackend, type TestBackend } from './render-console.js';
import { failingInboxExport, waitingDeliveryExport } from './import-file.js';

let tb: TestBackend;
beforeAll(async () => {
  tb = await startConsoleBackend();
  const r = await tb.consoleApi('POST', '/import', waitingDeliveryExport());
  expect(r.body.deliveries_added).toBe(1);
  expect((await tb.consoleApi('POST', '/import', failingInboxExport())).body.inboxes_created).toBe(1);
});
afterEach(() => cleanup());
afterAll(async () => {
  await tb.destroy();
});

describe('an imported delivery in the inspector', () => {
  it('is marked imported in the list and the detail, with no next attempt and no redelivery', async () => {
    renderConsole('/app/inspector?row=d:msg_importedwaiting');
    const list = await screen.findByRole('listbox', { name: /newest first/ }, { timeout: 5000 });
    const option = await within(list).findByRole('option', { name: /document\.completed/ }, { timeout: 5000 });
    expect(within(option).getByText('imported')).toBeTruthy();
    expect(within(option).getByText('pending at export')).toBeTruthy();

    const detail = await screen.findByRole('heading', { name: 'document.completed', level: 2 }, { timeout: 5000 });
    const pane = detail.closest('.detail') as HTMLElement;
    expect(within(pane).getByText('imported')).toBeTruthy();
    expect(within(pane).getByText(/Imported from a file/, { selector: 'p' })).toBeTruthy();
    expect(within(pane).queryByText('Next attempt')).toBeNull();
    expect(pane.textContent).not.toMatch(/retry|next attempt in/i);
    expect(within(pane).getByRole('button', { name: 'Redeliver' }).hasAttribute('disabled')).toBe(true);
    expect(within(pane).getByText(/wh_elsewhere \(not on this machine\)/)).toBeTruthy();
  });
});

describe('an imported inbox on the receiver screen', () => {
  it('answers with the default and turns its imported mode on with one click', async () => {
    const user = userEvent.setup();
    renderConsole('/app/receiver');
    const item = await screen.findByRole('listitem', { name: 'Inbox Failing' }, { timeout: 5000 });
    expect(within(item).getByText(/off until you turn it on/)).toBeTruthy();
    expect(within(item).getByText(/503/)).toBeTruthy();
    await user.click(within(item).getByRole('button', { name: 'Turn on the imported mode of Failing' }));
    await waitFor(() => expect(within(item).queryByText(/off until you turn it on/)).toBeNull(), { timeout: 5000 });
    const inbox = (await tb.consoleApi('GET', '/inboxes/inb_importedfailing')).body;
    expect(inbox.response).toEqual({ mode: 'status', status: 503 });
    expect(within(item).getByText(inbox.response_description)).toBeTruthy();
  });
});
