// The inspector and receiver screens in jsdom against a REAL backend on 127.0.0.1 (port
// 0, temp data folder): real deliveries from the engine to a real inbox, the live
// stream merging them into the list, filters from the URL, and the receiver's forms
// with the API's own errors. Also the pure merge of live rows into loaded pages.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InfiniteData } from '@tanstack/react-query';
import { mergeRows } from '../../src-renderer/api/inspector-live.js';
import { href, navigate } from '../../src-renderer/router.js';
import type { FeedPage, InspectorRow } from '@shared/inspector-types.js';
import { makeDocument, renderConsole, startConsoleBackend, type TestBackend } from './render-console.js';

let tb: TestBackend;
// The console API is not the service's contract: tb.consoleApi does not check answers against the OpenAPI document.
const consoleApi = (method: string, path: string, body?: unknown) => tb.consoleApi(method, path, body);

beforeAll(async () => {
  tb = await startConsoleBackend();
});
afterEach(() => {
  cleanup();
});
afterAll(async () => {
  await tb.destroy();
});

const list = () => screen.getByRole('listbox', { name: /newest first/ });

describe('inspector screen', () => {
  it('shows deliveries and captures as they happen, and filters from the URL', async () => {
    const inbox = (await consoleApi('POST', '/inboxes', { name: 'Screen inbox' })).body;
    expect((await consoleApi('POST', `/inboxes/${inbox.id}/subscribe`, { type: 'document.created' })).status).toBe(201);
    renderConsole('/app/inspector');
    // Readiness, not a fixed sleep: the stream must be connected (its state reads "Live")
    // and the first page in before the change is made; under load that takes seconds.
    await screen.findByText('Live', {}, { timeout: 15000 });
    await screen.findByText('Nothing sent or received yet.', {}, { timeout: 15000 });

    await makeDocument(tb, 'Watched lease');
    await waitFor(() => expect(within(list()).getAllByRole('option')).toHaveLength(2), { timeout: 8000 });
    await waitFor(() => expect(within(list()).getByText('verified')).toBeTruthy(), { timeout: 8000 });
    await waitFor(() => expect(within(list()).getByText('succeeded')).toBeTruthy(), { timeout: 8000 });
    expect(within(list()).getAllByText('document.created')).toHaveLength(2);
    cleanup();

    // Filters come from the URL: only what was received.
    renderConsole('/app/inspector?kind=capture');
    await waitFor(() => expect(within(list()).getAllByRole('option')).toHaveLength(1));
    expect(within(list()).getByText('Recv')).toBeTruthy();
    expect((screen.getByLabelText('Direction') as HTMLSelectElement).value).toBe('capture');
  });

  it('starts from a fresh first page when coming back to it (changes made meanwhile are there)', async () => {
    renderConsole('/app/inspector?kind=delivery');
    await waitFor(() => expect(within(list()).getAllByRole('option').length).toBeGreaterThan(0));
    const before = within(list()).getAllByRole('option').length;
    act(() => navigate(href('/documents')));
    await screen.findByRole('heading', { name: 'Documents', level: 1 });
    await makeDocument(tb, 'Made while away');
    // Wait for its delivery to exist before coming back.
    await waitFor(async () => expect((await consoleApi('GET', '/inspector/feed?kind=delivery')).body.data.length).toBe(before + 1), {
      timeout: 8000,
    });
    act(() => navigate(href('/inspector', { kind: 'delivery' })));
    await waitFor(() => expect(within(list()).getAllByRole('option')).toHaveLength(before + 1));
  });

  it('opens a row from the URL: the delivery with its attempt', async () => {
    const page = (await consoleApi('GET', '/inspector/feed?kind=delivery')).body;
    const row = page.data[0];
    renderConsole(`/app/inspector?row=d:${row.id}`);
    expect(await screen.findByText('Attempt 1', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Redeliver' }).hasAttribute('disabled')).toBe(false);
    expect(screen.getAllByText(row.id).length).toBeGreaterThan(0);
  });
});

describe('receiver screen', () => {
  it('lists inboxes with their secret by fingerprint, makes one, and shows the API’s errors beside the field', async () => {
    const user = userEvent.setup();
    renderConsole('/app/receiver');
    expect(await screen.findByText(/Offline: the receiver works on its local URL/)).toBeTruthy();
    const item = await screen.findByRole('listitem', { name: 'Inbox Screen inbox' });
    expect(within(item).getByText(/Linked to subscription wh_\w+, fingerprint [0-9a-f]{8}/)).toBeTruthy();

    const form = screen.getByRole('form', { name: 'New inbox' });
    await user.type(within(form).getByLabelText('Name'), 'Flaky');
    await user.selectOptions(within(form).getByLabelText('Mode'), 'fail_first_n');
    const first = within(form).getByLabelText('Fail the first');
    await user.clear(first);
    await user.type(first, '500');
    await user.click(within(form).getByRole('button', { name: 'Create inbox' }));
    // 1 to 100: the API says so, next to that field.
    const field = (await within(form).findByText(/100/, { selector: '.field-error' })).closest('.field')!;
    expect(within(field as HTMLElement).getByLabelText('Fail the first')).toBeTruthy();

    await user.clear(first);
    await user.type(first, '2');
    await user.click(within(form).getByRole('button', { name: 'Create inbox' }));
    const made = await screen.findByRole('listitem', { name: 'Inbox Flaky' });
    expect(within(made).getByText('fail the first 2 attempts of each webhook-id with 500, then 200')).toBeTruthy();
    const inboxes = (await consoleApi('GET', '/inboxes')).body.data;
    expect(inboxes.find((i: { name: string }) => i.name === 'Flaky').response).toEqual({
      mode: 'fail_first_n',
      fail_first_n: 2,
      fail_status: 500,
    });
  });
});

describe('tunnel panel', () => {
  it('offers to move a subscription left on an old URL, and moves it', async () => {
    const inbox = (await consoleApi('POST', '/inboxes', { name: 'Moved inbox' })).body;
    // A subscription to this inbox through a loopback port of "an earlier run": stale.
    const old = await tb.api('POST', '/v2/webhooks', { url: `http://127.0.0.1:1/in/${inbox.id}`, type: 'document.sent' });
    expect(old.status).toBe(201);
    const user = userEvent.setup();
    renderConsole('/app/receiver');
    const stale = await screen.findByRole('region', { name: 'Subscriptions on an old URL' });
    expect(within(stale).getByText(/1 subscription points at an inbox through a URL that no longer reaches it/)).toBeTruthy();
    expect(within(stale).getByText(old.body.public_id, { exact: false }).textContent).toContain('(old local port)');
    await user.click(within(stale).getByRole('button', { name: 'Move it' }));
    expect(await within(stale).findByText(new RegExp(`Moved 1: ${old.body.public_id} → wh_`))).toBeTruthy();
    const subs = (await tb.api('GET', '/v2/webhooks?limit=100')).body.data as { public_id: string; url: string; type: string }[];
    expect(subs.some((s) => s.public_id === old.body.public_id)).toBe(false);
    expect(subs.find((s) => s.url === inbox.local_url)?.type).toBe('document.sent');
  });
});

describe('live merge', () => {
  const row = (ref: string, at: string, extra: Partial<InspectorRow> = {}): InspectorRow =>
    ({ ref, kind: ref.startsWith('c:') ? 'capture' : 'delivery', id: ref.slice(2), at, outcome: 'pending', ...extra }) as InspectorRow;
  const feed = (...pages: InspectorRow[][]): InfiniteData<FeedPage, string | null> => ({
    pages: pages.map((data) => ({ data, next_cursor: null })),
    pageParams: pages.map(() => null),
  });

  it('replaces known rows where they stand, puts new ones in time order, drops gone ones', () => {
    const before = feed([row('d:b', '2026-01-01T00:00:02Z'), row('d:a', '2026-01-01T00:00:01Z')], [row('d:old', '2025-12-31T00:00:00Z')]);
    const after = mergeRows(before, {
      data: [
        row('d:old', '2025-12-31T00:00:00Z', { outcome: 'succeeded' }),
        row('c:new', '2026-01-01T00:00:03Z'),
        row('d:mid', '2026-01-01T00:00:01.500Z'),
      ],
      gone: ['d:a'],
    })!;
    expect(after.pages[0].data.map((r) => r.ref)).toEqual(['c:new', 'd:b', 'd:mid']);
    expect(after.pages[1].data[0].outcome).toBe('succeeded');
    expect(mergeRows(before, { data: [], gone: [] })).toBe(before);
  });
});
