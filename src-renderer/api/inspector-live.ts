// Keeps the inspector's loaded list in step with the live stream, row by row: the
// changes the stream names (a delivery, a capture, an event's new deliveries) are
// collected for a moment, fetched in one request as they are now (with the list's
// filters), and merged into the TanStack Query cache: known rows are replaced where
// they stand, new ones go in at the top in time order, rows that no longer pass the
// filters leave. The chart and the open detail are invalidated (throttled).
import { useEffect } from 'react';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { onLiveChange } from './live.js';
import { fetchRows } from './inspector.js';
import { inspectorKeys } from './keys.js';
import type { FeedPage, InspectorFilters, InspectorRow, RowsAnswer } from '@shared/inspector-types.js';

type Feed = InfiniteData<FeedPage, string | null>;

const timeOf = (r: InspectorRow) => Date.parse(r.at) || 0;

/** Merges fresh rows into the loaded pages (pure; returns the same object when nothing changed). */
export function mergeRows(feed: Feed | undefined, answer: RowsAnswer): Feed | undefined {
  if (!feed || feed.pages.length === 0) return feed;
  const gone = new Set(answer.gone);
  const fresh = new Map(answer.data.map((r) => [r.ref, r]));
  let changed = false;
  const pages = feed.pages.map((p) => {
    let touched = false;
    const data: InspectorRow[] = [];
    for (const row of p.data) {
      if (gone.has(row.ref)) {
        touched = true;
        continue;
      }
      const update = fresh.get(row.ref);
      if (update) {
        fresh.delete(row.ref);
        touched = true;
        data.push(update);
      } else data.push(row);
    }
    if (!touched) return p;
    changed = true;
    return { ...p, data };
  });
  if (fresh.size > 0) {
    // New rows: newest first, into the first page where their time puts them.
    const first = [...pages[0].data];
    for (const row of [...fresh.values()].sort((a, b) => timeOf(b) - timeOf(a))) {
      const t = timeOf(row);
      let i = first.findIndex((r) => timeOf(r) < t || (timeOf(r) === t && r.kind === 'delivery' && row.kind === 'capture'));
      if (i === -1) i = first.length;
      first.splice(i, 0, row);
    }
    pages[0] = { ...pages[0], data: first };
    changed = true;
  }
  return changed ? { ...feed, pages } : feed;
}

/** Listens to the stream while the inspector shows the list for these filters. */
export function useInspectorLive(filters: InspectorFilters, windowMs = 200): void {
  const qc = useQueryClient();
  const filterKey = JSON.stringify(filters);
  useEffect(() => {
    const f = JSON.parse(filterKey) as InspectorFilters;
    const key = inspectorKeys.feed(f);
    const refs = new Set<string>();
    const events = new Set<string>();
    const deliveries = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    let statsDue = 0;
    let stopped = false;

    const flush = async () => {
      timer = null;
      const r = [...refs];
      const e = [...events];
      const touched = [...deliveries];
      refs.clear();
      events.clear();
      deliveries.clear();
      for (const id of touched) void qc.invalidateQueries({ queryKey: inspectorKeys.delivery(id) });
      if (touched.length > 0) void qc.invalidateQueries({ queryKey: inspectorKeys.pairs() });
      // The chart: at most every 2 s (captures already refresh inspectorKeys.all through the shared stream).
      if (Date.now() >= statsDue) {
        statsDue = Date.now() + 2000;
        void qc.invalidateQueries({ queryKey: inspectorKeys.allStats() });
      }
      try {
        const answer = await fetchRows(f, r, e);
        if (!stopped) qc.setQueryData<Feed>(key, (old) => mergeRows(old, answer));
      } catch {
        // A failed refresh is caught up by the next change or a reconnect's full refetch.
      }
    };

    const off = onLiveChange((change) => {
      if (change.kind === 'delivery') {
        refs.add(`d:${change.id}`);
        deliveries.add(change.id);
      } else if (change.kind === 'capture') refs.add(`c:${change.id}`);
      else if (change.kind === 'event') events.add(change.id);
      else return;
      // Bounded batches (the route takes 500 rows and 100 events): a burst is fetched in several requests.
      if (refs.size >= 400 || events.size >= 90) {
        if (timer) clearTimeout(timer);
        void flush();
        return;
      }
      timer ??= setTimeout(() => void flush(), windowMs);
    });
    return () => {
      stopped = true;
      off();
      if (timer) clearTimeout(timer);
    };
  }, [qc, filterKey, windowMs]);
}
