// The inspector's data (keys in keys.ts: inspectorKeys): the merged list of sent and
// received requests, kept fresh row by row (inspector-live.ts) rather than refetched;
// the chart; a delivery's or a capture's detail; and the changes (replay, import).
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { consoleApi, consoleText, type TextAnswer } from './client.js';
import { inspectorKeys, receiverKeys } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';
import type {
  CaptureDetail,
  CapturePair,
  DeliveryDetail,
  FeedPage,
  InspectorFilters,
  InspectorStats,
  RowsAnswer,
} from '@shared/inspector-types.js';
import type { ImportResult, ReplayInput, ReplayResult } from '@shared/receiver-types.js';

export const FEED_PAGE_SIZE = 200;
const enc = encodeURIComponent;

type Query = Record<string, string | number | undefined>;
const filterQuery = (f: InspectorFilters): Query => ({ ...f });

export const feedQuery = (f: InspectorFilters) =>
  infiniteQueryOptions({
    queryKey: inspectorKeys.feed(f),
    queryFn: ({ pageParam, signal }) =>
      consoleApi<FeedPage>('/inspector/feed', {
        signal,
        query: { ...filterQuery(f), limit: FEED_PAGE_SIZE, cursor: pageParam ?? undefined },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Kept fresh by the live stream, row by row, while the list is shown; a refetch would
    // reload every page. Dropped as soon as nothing shows it, so that coming back to the
    // inspector (changes were not followed meanwhile) starts from a fresh first page.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

export function fetchRows(f: InspectorFilters, refs: string[], eventIds: string[]): Promise<RowsAnswer> {
  return consoleApi<RowsAnswer>('/inspector/rows', {
    query: { ...filterQuery(f), refs: refs.join(',') || undefined, event_ids: eventIds.join(',') || undefined },
  });
}

export const statsQuery = (f: InspectorFilters) =>
  queryOptions({
    queryKey: inspectorKeys.stats(f),
    queryFn: ({ signal }) => consoleApi<InspectorStats>('/inspector/stats', { signal, query: filterQuery(f) }),
    // The minute buckets move on even when nothing happens.
    refetchInterval: 30_000,
    staleTime: 2_000,
  });

export const deliveryDetailQuery = (id: string) =>
  queryOptions({
    queryKey: inspectorKeys.delivery(id),
    queryFn: ({ signal }) => consoleApi<DeliveryDetail>(`/inspector/deliveries/${enc(id)}`, { signal }),
  });

export const captureDetailQuery = (id: string) =>
  queryOptions({
    queryKey: inspectorKeys.capture(id),
    queryFn: ({ signal }) => consoleApi<CaptureDetail>(`/inspector/captures/${enc(id)}`, { signal }),
  });

export const pairQuery = (captureId: string) =>
  queryOptions({
    queryKey: inspectorKeys.pair(captureId),
    queryFn: ({ signal }) => consoleApi<CapturePair>(`/inspector/captures/${enc(captureId)}/pair`, { signal }),
  });

/** "Copy as curl" of a capture: the receiver builds it (every value shell-quoted). */
export function captureCurl(captureId: string, url?: string): Promise<string> {
  return consoleText(`/captures/${enc(captureId)}/curl`, { query: { url } }).then((r) => r.text);
}

/** Replays a capture to a URL; to a local inbox, that makes a capture (the receiver and the inspector refresh). */
export const useReplay = (captureId: string) =>
  useRefreshingMutation({
    mutationFn: (input: ReplayInput) => consoleApi<ReplayResult>(`/captures/${enc(captureId)}/replay`, { method: 'POST', body: input }),
    stale: () => [receiverKeys.all, inspectorKeys.all],
  });

export function exportFile(): Promise<TextAnswer> {
  return consoleText('/export');
}

/** Imports an export file, sent as it was read. */
export const useImport = () =>
  useRefreshingMutation({
    mutationFn: (text: string) => consoleApi<ImportResult>('/import', { method: 'POST', rawBody: text }),
    stale: () => [inspectorKeys.feeds(), inspectorKeys.all, receiverKeys.all],
  });
