// The inspector's live list in its card: the column heads, the rows (FeedList), and
// what to say when there are none yet or none match.
import { useCallback } from 'react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { FeedPage, InspectorRow } from '@shared/inspector-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { EmptyState, Loading } from '../../components/States.js';
import { linkTo } from '../../paths.js';
import { Link } from '../../router.js';
import { FeedList } from './FeedList.js';

export interface FeedSectionProps {
  feed: UseInfiniteQueryResult<InfiniteData<FeedPage>>;
  rows: InspectorRow[];
  filtered: boolean;
  selected: string | null;
  onSelect: (row: InspectorRow) => void;
  onClear: () => void;
  inboxName: (id: string) => string | null;
}

export function FeedSection({ feed, rows, filtered, selected, onSelect, onClear, inboxName }: FeedSectionProps) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  const onEndReached = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return (
    <section className="card card-flush feed-card" aria-label="Live list">
      <div className="feed-head" aria-hidden="true">
        <span />
        <span>Time</span>
        <span>Event</span>
        <span>Outcome</span>
        <span>Where</span>
        <span className="feed-head-meta">
          {rows.length.toLocaleString()}
          {hasNextPage ? '+' : ''} rows
        </span>
      </div>
      {feed.isPending ? (
        <Loading what="the list" />
      ) : feed.isError ? (
        <ErrorNotice error={feed.error} title="The list could not be loaded." />
      ) : rows.length === 0 ? (
        <EmptyState title={filtered ? 'Nothing matches these filters.' : 'Nothing sent or received yet.'}>
          {filtered ? (
            <button type="button" className="btn btn-small" onClick={onClear}>
              Clear the filters
            </button>
          ) : (
            <>
              Make an inbox and subscribe it on the <Link to={linkTo.receiver()}>Receiver</Link> page, then change a document: its
              deliveries appear here as they happen.
            </>
          )}
        </EmptyState>
      ) : (
        <FeedList rows={rows} selected={selected} onSelect={onSelect} onEndReached={onEndReached} inboxName={inboxName} />
      )}
      {isFetchingNextPage && <p className="feed-more subtle">Loading more…</p>}
    </section>
  );
}
