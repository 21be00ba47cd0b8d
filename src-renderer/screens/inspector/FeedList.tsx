// The inspector's live list: one dense row per delivery sent and per request received,
// newest first, windowed (VirtualList) so it stays smooth at any length. Received
// values (paths, event types) are shown as text only.
import { deliveryState } from '../../components/Badge.js';
import { memo } from 'react';
import type { InspectorRow } from '@shared/inspector-types.js';
import { VirtualList } from './VirtualList.js';
import { verdictWords } from './verdict-text.js';
import { TunnelOfflineBadge } from './TunnelOffline.js';

/** Must match .vlist-row's height in inspector.css. */
export const ROW_HEIGHT = 34;

export function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}

function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

function size(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function OutcomeBadge({ row }: { row: InspectorRow }) {
  if (row.kind === 'capture') {
    const w = verdictWords(row.verdict);
    return <span className={`badge badge-${w.tone}`}>{w.short}</span>;
  }
  // An imported delivery was waiting when it was exported; it never waits for anything here.
  if (row.imported && row.outcome === 'pending') return <span className="badge badge-muted">pending at export</span>;
  const { word, tone } = deliveryState(row.outcome, row.attempts);
  return <span className={`badge badge-${tone}`}>{word}</span>;
}

/** A record that came from an import file, in the list and in the detail. */
export function ImportedBadge() {
  return (
    <span className="badge badge-neutral feed-origin" title="Imported from a file: a record only, never sent from here">
      imported
    </span>
  );
}

export const FeedRow = memo(function FeedRow({ row, inboxName }: { row: InspectorRow; inboxName: (id: string) => string | null }) {
  const out = row.kind === 'delivery';
  const inbox = row.inbox_id ? inboxName(row.inbox_id) : null;
  const where = out
    ? inbox
      ? `→ ${inbox}`
      : shortUrl(row.target)
    : `${inbox ?? row.inbox_id} ${row.target.replace(/^\/in\/inb_[0-9A-Za-z]+/, '') || ''}`.trim();
  const meta = out
    ? [
        row.status_code !== null ? String(row.status_code) : row.error ? 'error' : null,
        row.duration_ms !== null ? `${row.duration_ms} ms` : null,
      ]
        .filter(Boolean)
        .join(' · ')
    : [row.status_code !== null ? String(row.status_code) : 'no answer', row.size !== null ? size(row.size) : null]
        .filter(Boolean)
        .join(' · ');
  return (
    <div className="feed-row">
      <span className={out ? 'dir dir-out' : 'dir dir-in'} title={out ? 'Sent by the local service' : 'Received by an inbox'}>
        {out ? 'Sent' : 'Recv'}
      </span>
      <time className="feed-time mono" dateTime={row.at} title={new Date(row.at).toLocaleString()}>
        {clock(row.at)}
      </time>
      {row.origin === 'check' || row.imported ? (
        <span className="feed-event feed-event-tagged" title={row.event_type ?? undefined}>
          <span className="truncate">{row.event_type ?? `${row.method} (no event type)`}</span>
          {row.imported ? (
            <ImportedBadge />
          ) : (
            <span className="badge badge-info feed-origin" title="Sent by an endpoint check (the scorecard)">
              check
            </span>
          )}
        </span>
      ) : (
        <span className="feed-event truncate" title={row.event_type ?? undefined}>
          {row.event_type ?? `${row.method} (no event type)`}
        </span>
      )}
      <span className="feed-outcome">
        <OutcomeBadge row={row} />
        {row.duplicate && <span className="badge badge-warning">dup</span>}
        {out && row.attempts > 1 && <span className="feed-attempts subtle">×{row.attempts}</span>}
      </span>
      <span className="feed-where truncate" title={row.target}>
        {/* In the wider "where" column: the outcome column has no room for a second word. */}
        {row.tunnel_offline && <TunnelOfflineBadge />} {where}
      </span>
      <span className="feed-meta subtle mono">{meta}</span>
    </div>
  );
});

export interface FeedListProps {
  rows: readonly InspectorRow[];
  selected: string | null;
  onSelect: (row: InspectorRow) => void;
  onEndReached: () => void;
  inboxName: (id: string) => string | null;
  initialHeight?: number;
}

export function FeedList({ rows, selected, onSelect, onEndReached, inboxName, initialHeight }: FeedListProps) {
  return (
    <VirtualList
      items={rows}
      rowHeight={ROW_HEIGHT}
      getKey={(r) => r.ref}
      selectedKey={selected}
      onSelect={(r) => onSelect(r)}
      onEndReached={onEndReached}
      label="Deliveries and captures, newest first"
      initialHeight={initialHeight}
      className="feed"
      renderRow={(r) => <FeedRow row={r} inboxName={inboxName} />}
    />
  );
}
