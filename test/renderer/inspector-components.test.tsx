// The inspector's parts in jsdom, each on its own: the filter bar (URL-backed values,
// selects at once, typed text after a pause), the windowed list (ten thousand rows, a
// window of them in the DOM), the diff of sent and received, the verdict in words, and
// bodies shown as text. A fresh QueryClient per render where one is needed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../src-renderer/api/query-client.js';
import type { CapturePair } from '@shared/inspector-types.js';
import type { Verdict } from '@shared/receiver-types.js';
import { VERDICT_REASONS } from '@shared/receiver-types.js';
import { FilterBar } from '../../src-renderer/screens/inspector/FilterBar.js';
import { filtersFromSearch } from '../../src-renderer/screens/inspector/filters.js';
import { VirtualList } from '../../src-renderer/screens/inspector/VirtualList.js';
import { CompareView } from '../../src-renderer/screens/inspector/CompareView.js';
import { bodyDiff, headerDiff, lineDiff } from '../../src-renderer/screens/inspector/diff.js';
import { VerdictPanel } from '../../src-renderer/screens/inspector/VerdictPanel.js';
import { describeAge, VERDICT_WORDS } from '../../src-renderer/screens/inspector/verdict-text.js';
import { BodyView } from '../../src-renderer/screens/inspector/BodyView.js';

afterEach(() => cleanup());

const withClient = (ui: React.ReactElement) =>
  render(<QueryClientProvider client={createQueryClient({ retry: false })}>{ui}</QueryClientProvider>);

describe('filter bar', () => {
  const options = { subscriptions: [{ id: 'wh_1', label: 'Orders · all' }], inboxes: [{ id: 'inb_1', name: 'Orders' }] };

  it('reads its values from the URL and drops values the API would refuse', () => {
    const f = filtersFromSearch(new URLSearchParams('event=document.sent&outcome=maybe&kind=capture&inbox=inb_gone&q=%20needle%20'));
    expect(f).toEqual({ event_type: 'document.sent', kind: 'capture', inbox_id: 'inb_gone', q: 'needle' });
    render(<FilterBar filters={f} options={options} onChange={() => {}} onClear={() => {}} />);
    expect((screen.getByLabelText('Event type') as HTMLSelectElement).value).toBe('document.sent');
    expect((screen.getByLabelText('Direction') as HTMLSelectElement).value).toBe('capture');
    // An inbox from the URL that is not (or no longer) listed stays selected, by its id.
    expect((screen.getByLabelText('Inbox') as HTMLSelectElement).value).toBe('inb_gone');
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('needle');
    expect(screen.getByRole('button', { name: 'Clear (4)' })).toBeTruthy();
  });

  it('applies a select at once and typed text once, after a pause', async () => {
    const onChange = vi.fn();
    const onClear = vi.fn();
    const user = userEvent.setup();
    render(<FilterBar filters={{}} options={options} onChange={onChange} onClear={onClear} debounceMs={300} />);
    expect(screen.getByRole('button', { name: 'Clear' }).hasAttribute('disabled')).toBe(true);
    await user.selectOptions(screen.getByLabelText('Outcome'), 'verified');
    expect(onChange).toHaveBeenLastCalledWith('outcome', 'verified');
    await user.selectOptions(screen.getByLabelText('Subscription'), 'wh_1');
    expect(onChange).toHaveBeenLastCalledWith('subscription', 'wh_1');
    onChange.mockClear();
    await user.type(screen.getByLabelText('Search'), 'msg_abc');
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('q', 'msg_abc'));
    // One call for the whole word, not one per key.
    expect(onChange.mock.calls.filter(([p]) => p === 'q')).toHaveLength(1);
    await user.type(screen.getByLabelText('Document'), 'doc_1');
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('document', 'doc_1'));
  });

  it('shows a cleared URL at once (back button, Clear)', () => {
    const { rerender } = render(<FilterBar filters={{ q: 'needle' }} options={options} onChange={() => {}} onClear={() => {}} />);
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('needle');
    rerender(<FilterBar filters={{}} options={options} onChange={() => {}} onClear={() => {}} />);
    expect((screen.getByLabelText('Search') as HTMLInputElement).value).toBe('');
  });
});

describe('windowed list', () => {
  const rows = Array.from({ length: 10_000 }, (_, i) => ({ id: `r${i}`, text: `Row ${i}` }));
  const list = (props: Partial<React.ComponentProps<typeof VirtualList<{ id: string; text: string }>>> = {}) => (
    <VirtualList
      items={rows}
      rowHeight={34}
      getKey={(r) => r.id}
      renderRow={(r) => <span>{r.text}</span>}
      onSelect={() => {}}
      label="Rows"
      initialHeight={600}
      {...props}
    />
  );

  it('renders only a window of 10,000 rows, each saying where it sits in the whole', () => {
    render(list());
    const options = screen.getAllByRole('option');
    expect(options.length).toBeGreaterThan(10);
    expect(options.length).toBeLessThan(40);
    expect(options[0].getAttribute('aria-setsize')).toBe('10000');
    expect(options[0].getAttribute('aria-posinset')).toBe('1');
    expect(screen.queryByText('Row 9999')).toBeNull();
  });

  it('moves the window with the scroll position and asks for more near the end', async () => {
    const onEndReached = vi.fn();
    render(list({ onEndReached }));
    const box = screen.getByRole('listbox', { name: 'Rows' });
    expect(onEndReached).not.toHaveBeenCalled();
    box.scrollTop = 34 * 5000;
    fireEvent.scroll(box);
    await screen.findByText('Row 5000');
    expect(screen.queryByText('Row 0')).toBeNull();
    expect(screen.getAllByRole('option').length).toBeLessThan(40);
    box.scrollTop = 34 * 10_000 - 600;
    fireEvent.scroll(box);
    await screen.findByText('Row 9999');
    await waitFor(() => expect(onEndReached).toHaveBeenCalled());
  });

  it('moves the selection with the keyboard and brings it into view', () => {
    const onSelect = vi.fn();
    const { rerender } = render(list({ onSelect, selectedKey: 'r0' }));
    const box = screen.getByRole('listbox', { name: 'Rows' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(onSelect).toHaveBeenLastCalledWith(rows[1], 1);
    fireEvent.keyDown(box, { key: 'End' });
    expect(onSelect).toHaveBeenLastCalledWith(rows[9999], 9999);
    rerender(list({ onSelect, selectedKey: 'r9999' }));
    const selected = screen.getByRole('option', { selected: true });
    expect(selected.textContent).toBe('Row 9999');
    expect(box.getAttribute('aria-activedescendant')).toBe(selected.id);
  });
});

describe('sent and received', () => {
  it('compares headers by name, and keeps what the transport adds apart', () => {
    const rows = headerDiff(
      [
        ['Content-Type', 'application/json'],
        ['webhook-signature', 'v1,AAA'],
        ['x-gone', '1'],
      ],
      [
        ['content-type', 'application/json'],
        ['Webhook-Signature', 'v1,BBB'],
        ['host', '127.0.0.1:1'],
        ['x-added', '2'],
      ],
    );
    const state = Object.fromEntries(rows.map((r) => [r.name.toLowerCase(), r.state]));
    expect(state).toEqual({
      'content-type': 'same',
      'webhook-signature': 'changed',
      'x-gone': 'removed',
      'x-added': 'added',
      host: 'transport',
    });
    expect(rows[0].state).toBe('changed'); // differences first
  });

  it('finds the one changed field of a one-line JSON body, and tells bytes from meaning', () => {
    const sent = '{"id":"evt_1","data":{"title":"Lease","n":1}}';
    const d = bodyDiff(sent, '{"id":"evt_1","data":{"title":"Lease (edited)","n":1}}');
    expect(d).toMatchObject({ identical: false, sameJson: false, basis: 'json', changes: 1 });
    expect(d.lines.filter((l) => l.op === 'changed')).toEqual([
      { op: 'changed', left: '    "title": "Lease",', right: '    "title": "Lease (edited)",' },
    ]);
    expect(bodyDiff(sent, '{ "id": "evt_1", "data": {"title": "Lease", "n": 1} }')).toMatchObject({
      identical: false,
      sameJson: true,
      changes: 0,
    });
    expect(bodyDiff(sent, sent)).toMatchObject({ identical: true, changes: 0 });
    expect(lineDiff(['a', 'b', 'c'], ['a', 'c', 'd']).map((l) => l.op)).toEqual(['same', 'removed', 'same', 'added']);
  });

  const pair = (receivedBody: string, receivedHeaders: [string, string][]): CapturePair => ({
    capture_id: 'cap_1',
    delivery_id: 'msg_1',
    inbox: { id: 'inb_1', name: 'Orders' },
    match: 'exact',
    note: null,
    sent: {
      attempt: 1,
      at: '2026-01-01T00:00:00Z',
      method: 'POST',
      url: 'http://127.0.0.1:1/in/inb_1',
      headers: [
        ['webhook-id', 'msg_1'],
        ['webhook-signature', 'v1,AAA'],
      ],
      body: '{"title":"Lease"}',
    },
    received: {
      at: '2026-01-01T00:00:00Z',
      method: 'POST',
      path: '/in/inb_1',
      headers: receivedHeaders,
      body_text: receivedBody,
      body_base64: null,
      body_encoding: 'utf8',
      size: receivedBody.length,
      body_truncated: false,
    },
  });

  it('marks each difference in words as well as colour', () => {
    const { container } = render(
      <CompareView
        pair={pair('{"title":"Lease <b>x</b>"}', [
          ['webhook-id', 'msg_1'],
          ['webhook-signature', 'v1,BBB'],
          ['host', 'h'],
        ])}
      />,
    );
    expect(screen.getByRole('status').textContent).toMatch(/^Differences: 1 header difference · body differs \(1 line\)/);
    const changedHeader = container.querySelector('tr.hdr-changed')!;
    expect(within(changedHeader as HTMLElement).getByText('changed')).toBeTruthy();
    expect(within(container.querySelector('tr.hdr-transport') as HTMLElement).getByText('added in transit')).toBeTruthy();
    const line = container.querySelector('tr.diff-changed')!;
    expect(line.querySelector('.diff-left .visually-hidden')?.textContent).toBe('changed: ');
    expect(line.querySelector('.diff-right mark')?.textContent).toBe(' <b>x</b>');
    // Received text stays text.
    expect(container.querySelector('b')).toBeNull();
  });

  it('folds long unchanged runs around a difference, and unfolds them on request', async () => {
    const fields = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, i]));
    const sentBody = JSON.stringify(fields);
    const receivedBody = JSON.stringify({ ...fields, f15: 'changed' });
    const p = pair(receivedBody, [
      ['webhook-id', 'msg_1'],
      ['webhook-signature', 'v1,AAA'],
    ]);
    const user = userEvent.setup();
    const { container } = render(<CompareView pair={{ ...p, sent: { ...p.sent!, body: sentBody } }} />);
    const folds = screen.getAllByRole('button', { name: /unchanged lines/ });
    // 32 lines: "{", f0…f29, "}"; f15 is line 17. Three lines of context kept on each side of it.
    expect(folds.map((b) => b.textContent)).toEqual(['Show 13 unchanged lines', 'Show 12 unchanged lines']);
    expect(container.querySelectorAll('tr.diff-line')).toHaveLength(32 - 25);
    expect(container.querySelector('tr.diff-changed')?.textContent).toContain('"f15": "changed"');
    await user.click(folds[0]);
    expect(container.querySelectorAll('tr.diff-line')).toHaveLength(32 - 12);
    expect(screen.getAllByText('"f1": 1,', { exact: false })).toHaveLength(2);
  });

  it('says plainly when nothing differs, and when the sent request is not known yet', () => {
    render(
      <CompareView
        pair={pair('{"title":"Lease"}', [
          ['webhook-id', 'msg_1'],
          ['webhook-signature', 'v1,AAA'],
          ['content-length', '17'],
        ])}
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('No difference: headers the same · body identical, byte for byte');
    cleanup();
    render(<CompareView pair={{ ...pair('{}', []), sent: null, match: 'none', note: 'Not in the log yet.' }} />);
    expect(screen.getByText('Not in the log yet.')).toBeTruthy();
  });
});

describe('verdict in words', () => {
  const verdict = (reason: Verdict['reason'], extra: Partial<Verdict> = {}): Verdict => ({
    reason,
    message: `receiver says ${reason}`,
    secret_source: 'linked',
    subscription_id: 'wh_1',
    secret_fingerprint: 'ab12cd34',
    timestamp_age_s: 400,
    ...extra,
  });

  it('has a title and an explanation for every reason the receiver gives', () => {
    for (const reason of VERDICT_REASONS) {
      expect(VERDICT_WORDS[reason].title.length).toBeGreaterThan(5);
      expect(VERDICT_WORDS[reason].explain.length).toBeGreaterThan(20);
    }
    expect(new Set(VERDICT_REASONS.map((r) => VERDICT_WORDS[r].title)).size).toBe(VERDICT_REASONS.length);
  });

  it('says the precise reason, the receiver’s own message, the facts and the duplicate flag', () => {
    withClient(<VerdictPanel verdict={verdict('body_modified')} duplicate attemptForId={3} />);
    const panel = screen.getByRole('region', { name: 'Verdict' });
    expect(panel.textContent).toContain('Not verified: the body was changed after signing');
    expect(panel.textContent).toContain('receiver says body_modified');
    expect(panel.textContent).toContain('a linked subscription’s secret');
    expect(panel.textContent).toContain('fingerprint ab12cd34');
    expect(panel.textContent).toContain('7 min before arrival');
    expect(panel.textContent).toContain('this is request 3 with it');
  });

  it('tells a stale timestamp, a missing secret and an unchecked body apart', () => {
    withClient(
      <VerdictPanel verdict={verdict('timestamp_outside_tolerance', { timestamp_age_s: -900 })} duplicate={false} attemptForId={1} />,
    );
    expect(screen.getByRole('region').textContent).toContain('timestamp outside the 5-minute tolerance');
    expect(screen.getByRole('region').textContent).toContain('15 min after arrival (in the future)');
    expect(screen.getByRole('region').textContent).not.toContain('duplicate');
    cleanup();
    withClient(<VerdictPanel verdict={null} duplicate={false} attemptForId={1} />);
    expect(screen.getByRole('region').textContent).toContain('Not checked: the body was over the size limit');
    expect(describeAge(42)).toBe('42 s before arrival');
  });
});

describe('bodies', () => {
  it('shows received HTML as text, formatted or raw', async () => {
    const body = '{"note":"<img src=x onerror=alert(1)>","n":1}';
    const user = userEvent.setup();
    const { container } = render(<BodyView label="Body" text={body} />);
    const pre = container.querySelector('pre')!;
    expect(pre.textContent).toBe('{\n  "note": "<img src=x onerror=alert(1)>",\n  "n": 1\n}');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('.tok-key')?.textContent).toBe('"note"');
    await user.click(screen.getByRole('button', { name: 'Raw' }));
    expect(pre.textContent).toBe(body);
    await act(async () => {});
    expect(screen.getByRole('button', { name: 'Raw' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows a body that is not UTF-8 as base64 and says so', () => {
    render(<BodyView label="Body" text={null} base64="AAEC" />);
    expect(screen.getByText('Not UTF-8 text: shown as base64.')).toBeTruthy();
    expect(screen.getByText('AAEC')).toBeTruthy();
  });
});
