// The console's screens in jsdom against a real backend over HTTP: lists, filters,
// the document page's rules, forms with the API's own errors, secrets shown once, and
// live updates from the stream.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeDocument, renderConsole, startConsoleBackend, type TestBackend } from './render-console.js';
import { EVENT_TYPES } from '@shared/api-types.js';

let tb: TestBackend;

beforeAll(async () => {
  tb = await startConsoleBackend();
  // A link scrolls to the top as it navigates; jsdom has no layout to scroll.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});
afterAll(async () => {
  await tb.destroy();
});

describe('Documents', () => {
  it('lists documents, shows an HTML title as text, and filters by status', async () => {
    const html = await makeDocument(tb, '<img src=x onerror=alert(1)> NDA');
    const sent = await makeDocument(tb, 'Sent lease');
    await tb.api('POST', `/v2/test_helpers/documents/${sent.public_id}/send`, {});
    const user = userEvent.setup();
    const { container } = renderConsole('/app/documents');

    const link = await screen.findByRole('link', { name: '<img src=x onerror=alert(1)> NDA' });
    expect(link.getAttribute('href')).toBe(`/app/documents?d=${html.public_id}`);
    expect(container.querySelector('img')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Status'), 'OUT_FOR_SIGNATURE');
    await waitFor(() => expect(screen.queryByRole('link', { name: /onerror/ })).toBeNull());
    expect(screen.getByRole('link', { name: 'Sent lease' })).toBeTruthy();
    expect(window.location.search).toBe('?status=OUT_FOR_SIGNATURE');
  });

  it('shows a document made through the API without any action (live stream)', async () => {
    renderConsole('/app/documents');
    await screen.findByText('Live');
    await makeDocument(tb, 'Arrived while watching');
    expect(await screen.findByRole('link', { name: 'Arrived while watching' }, { timeout: 5000 })).toBeTruthy();
  });
});

describe('Document page', () => {
  it('refuses a reminder while DRAFT (with the reason), sends one once out for signature', async () => {
    const doc = await makeDocument(tb, 'Reminder test', [
      { name: 'Ann', email: 'ann@example.com' },
      { name: 'Bob', email: 'bob@example.com' },
    ]);
    const user = userEvent.setup();
    renderConsole(`/app/documents?d=${doc.public_id}`);
    const remind = await screen.findByRole('button', { name: 'Send reminder' });
    expect(remind.hasAttribute('disabled')).toBe(true);
    const reason = document.getElementById(remind.getAttribute('aria-describedby')!);
    expect(reason?.textContent).toMatch(/only while the document is out for signature.*draft/i);
    // Recipient actions are not offered for a draft.
    expect(screen.queryByRole('button', { name: 'Sign as Ann' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Send for signature' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send reminder' }).hasAttribute('disabled')).toBe(false));
    expect(await screen.findByRole('button', { name: 'Sign as Ann' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send reminder' }));
    expect(await screen.findByText(/Reminder sent to 2 recipients/)).toBeTruthy();

    const outbox = await tb.consoleApi('GET', `/notifications?document_id=${doc.public_id}`);
    expect(outbox.body.data.map((n: { kind: string }) => n.kind)).toContain('reminder');
  });

  it('saves the title (seen through the API) and checks metadata JSON before sending', async () => {
    const doc = await makeDocument(tb, 'Old title');
    const user = userEvent.setup();
    renderConsole(`/app/documents?d=${doc.public_id}`);
    const title = await screen.findByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'New <b>title</b>');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    const after = await tb.api('GET', `/documents/${doc.public_id}`);
    expect(after.body.title).toBe('New <b>title</b>');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('New <b>title</b>');

    const meta = screen.getByLabelText('Metadata (JSON)');
    await user.clear(meta);
    await user.type(meta, '[[1,2]');
    await user.click(screen.getByRole('button', { name: 'Save metadata' }));
    const error = await screen.findByText(/Metadata must be a JSON object/);
    expect(meta.getAttribute('aria-invalid')).toBe('true');
    expect(meta.getAttribute('aria-describedby')).toContain(error.id);
    expect((await tb.api('GET', `/documents/${doc.public_id}`)).body.metadata).toEqual({});
  });

  it('says plainly when the document does not exist', async () => {
    renderConsole('/app/documents?d=doc_doesnotexist');
    expect(await screen.findByText('No such document.')).toBeTruthy();
  });
});

describe('Webhooks', () => {
  it('puts the API’s validation error next to "Endpoint URL", then shows the secret once', async () => {
    const user = userEvent.setup();
    renderConsole('/app/settings/webhooks');
    const url = await screen.findByLabelText('Endpoint URL');
    expect(screen.getByLabelText('Subscription type')).toBeTruthy();
    // Every event type of the contract (one list, shared with the backend), after 'all'.
    expect(
      within(screen.getByLabelText('Subscription type'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['all', ...EVENT_TYPES]);

    await user.type(url, 'http://example.com/hook');
    await user.click(screen.getByRole('button', { name: 'Create subscription' }));
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    const message = document.getElementById(url.getAttribute('aria-describedby')!.split(' ').pop()!)!;
    expect(message.textContent).toMatch(/https/);

    await user.clear(url);
    await user.type(url, 'http://127.0.0.1:9/hook');
    await user.selectOptions(screen.getByLabelText('Subscription type'), 'document.completed');
    await user.click(screen.getByRole('button', { name: 'Create subscription' }));
    const dialog = await screen.findByRole('dialog', { name: 'Subscription created' });
    const secret = within(dialog).getByLabelText('signing secret').textContent!;
    expect(secret).toMatch(/^whsec_/);
    expect(within(dialog).getByText(/will not be shown again/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy signing secret' })).toBeTruthy();

    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret)));
    const expected = [...digest.slice(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join('');
    const stored = localStorage.getItem('countersign.secret-fingerprints')!;
    expect(Object.values(JSON.parse(stored))).toEqual([expected]);
    expect(stored).not.toContain(secret.slice(6));

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.textContent).not.toContain(secret);
    // The list shows the fingerprint, never the key.
    expect(await screen.findByText(expected)).toBeTruthy();
  });
});

describe('API keys', () => {
  it('creates a member key (shown once) and revokes it after confirmation', async () => {
    const user = userEvent.setup();
    renderConsole('/app/settings/api-keys');
    await screen.findByText('this console');
    await user.type(screen.getByLabelText('Label'), 'CI pipeline');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'API key created' });
    const key = within(dialog).getByLabelText('API key').textContent!;
    expect((await tb.api('GET', '/documents/doc_nothing', undefined, key)).status).toBe(404); // authenticates
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));

    await user.click(await screen.findByRole('button', { name: new RegExp(`Revoke CI pipeline \\(…${key.slice(-4)}\\)`) }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Revoke this key?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(screen.queryByText('CI pipeline')).toBeNull());
    expect((await tb.api('GET', '/documents/doc_nothing', undefined, key)).status).toBe(401);
  });
});

describe('Settings', () => {
  const crumbLinks = () =>
    within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')]);

  it('walks Settings → Integrations → Webhooks by real links, each a page of its own, and back by the breadcrumbs', async () => {
    const user = userEvent.setup();
    renderConsole('/app/settings');
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'API keys' }).getAttribute('href')).toBe('/app/settings/api-keys');

    await user.click(within(screen.getByRole('main')).getByRole('link', { name: 'Integrations' }));
    await screen.findByRole('heading', { name: 'Integrations', level: 1 });
    expect(window.location.pathname).toBe('/app/settings/integrations');
    expect(crumbLinks()).toEqual([
      ['Settings', '/app/settings', null],
      ['Integrations', '/app/settings/integrations', 'page'],
    ]);

    await user.click(within(screen.getByRole('main')).getByRole('link', { name: 'Webhooks' }));
    await screen.findByLabelText('Endpoint URL');
    expect(window.location.pathname).toBe('/app/settings/integrations/webhooks');
    expect(crumbLinks()).toEqual([
      ['Settings', '/app/settings', null],
      ['Integrations', '/app/settings/integrations', null],
      ['Webhooks', '/app/settings/integrations/webhooks', 'page'],
    ]);
    const sidebar = screen.getByRole('navigation', { name: 'Main' });
    expect(within(sidebar).getByRole('link', { name: 'Webhooks' }).getAttribute('aria-current')).toBe('page');

    await user.click(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Settings' }));
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    expect(window.location.pathname).toBe('/app/settings');
  });

  it('sends an old subscription link to its new place, the delivery it names kept', async () => {
    const sub = (await tb.api('POST', '/v2/webhooks', { url: 'http://127.0.0.1:9/old-link', type: 'all' })).body;
    renderConsole(`/app/settings/webhooks/${sub.public_id}?delivery=msg_none`);
    await screen.findByRole('heading', { name: 'Delivery log' });
    expect(window.location.pathname + window.location.search).toBe(
      `/app/settings/integrations/webhooks/${sub.public_id}?delivery=msg_none`,
    );
    expect(crumbLinks()).toEqual([
      ['Settings', '/app/settings', null],
      ['Integrations', '/app/settings/integrations', null],
      ['Webhooks', '/app/settings/integrations/webhooks', null],
    ]);
    cleanup();
    renderConsole('/app/settings/webhooks');
    await screen.findByLabelText('Endpoint URL');
    expect(window.location.pathname).toBe('/app/settings/integrations/webhooks');
  });
});
