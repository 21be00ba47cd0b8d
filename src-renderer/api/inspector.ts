// The inspector's data: query keys, queryOptions and mutations. The merged list lives
// under its own prefix ['inspector-feed'] (not ['inspector']): the shared live stream
// invalidates ['inspector'] on every capture, which for a list of many loaded pages
// would mean refetching all of them; the list is kept up to date row by row instead
// (inspector-live.ts). Details and the chart live under ['inspector'].
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { serviceApi } from './client.js';
import { qk } from './keys.js';
import { consoleJson, consoleText } from './receiver-http.js';
import { receiverKeys } from './receiver.js';
import type { Delivery } from '@shared/api-types.js';
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

export const inspectorKeys = {
  feedAll: ['inspector-feed'] as const,
  feed: (f: InspectorFilters) => ['inspector-feed', f] as const,
  all: ['inspector'] as const,
  stats: (f: InspectorFilters) => ['inspector', 'stats', f] as const,
  delivery: (id: string) => ['inspector', 'delivery', id] as const,
  capture: (id: string) => ['inspector', 'capture', id] as const,
  pair: (captureId: string) => ['inspector', 'pair', captureId] as const,
};

type Query = Record<string, string | number | undefined>;
const filterQuery = (f: InspectorFilters): Query => ({ ...f });

export const feedQuery = (f: InspectorFilters) =>
  infiniteQueryOptions({
    queryKey: inspectorKeys.feed(f),
    queryFn: ({ pageParam, signal }) =>
      consoleJson<FeedPage>('/inspector/feed', {
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
  return consoleJson<RowsAnswer>('/inspector/rows', {
    query: { ...filterQuery(f), refs: refs.join(',') || undefined, event_ids: eventIds.join(',') || undefined },
  });
}

export const statsQuery = (f: InspectorFilters) =>
  queryOptions({
    queryKey: inspectorKeys.stats(f),
    queryFn: ({ signal }) => consoleJson<InspectorStats>('/inspector/stats', { signal, query: filterQuery(f) }),
    // The minute buckets move on even when nothing happens.
    refetchInterval: 30_000,
    staleTime: 2_000,
  });

export const deliveryDetailQuery = (id: string) =>
  queryOptions({
    queryKey: inspectorKeys.delivery(id),
    queryFn: ({ signal }) => consoleJson<DeliveryDetail>(`/inspector/deliveries/${enc(id)}`, { signal }),
  });

export const captureDetailQuery = (id: string) =>
  queryOptions({
    queryKey: inspectorKeys.capture(id),
    queryFn: ({ signal }) => consoleJson<CaptureDetail>(`/inspector/captures/${enc(id)}`, { signal }),
  });

export const pairQuery = (captureId: string) =>
  queryOptions({
    queryKey: inspectorKeys.pair(captureId),
    queryFn: ({ signal }) => consoleJson<CapturePair>(`/inspector/captures/${enc(captureId)}/pair`, { signal }),
  });

/** "Copy as curl" of a capture: the receiver builds it (every value shell-quoted). */
export function captureCurl(captureId: string, url?: string): Promise<string> {
  return consoleText(`/captures/${enc(captureId)}/curl`, { query: { url } }).then((r) => r.text);
}

export function useRedeliver() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ subscriptionId, deliveryId }: { subscriptionId: string; deliveryId: string }) =>
      serviceApi<Delivery>(`/v2/webhooks/${enc(subscriptionId)}/deliveries/${enc(deliveryId)}/redeliver`, { method: 'POST' }),
    onSuccess: async (_d, v) => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: inspectorKeys.delivery(v.deliveryId) }),
        qc.invalidateQueries({ queryKey: qk.webhooks.deliveries(v.subscriptionId) }),
      ]);
    },
  });
}

export function useReplay(captureId: string) {
  return useMutation({
    mutationFn: (input: ReplayInput) => consoleJson<ReplayResult>(`/captures/${enc(captureId)}/replay`, { method: 'POST', body: input }),
  });
}

export function exportFile(): Promise<{ text: string; filename: string | null }> {
  return consoleText('/export');
}

export function useImport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => consoleJson<ImportResult>('/import', { method: 'POST', body: text }),
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: inspectorKeys.feedAll }),
        qc.invalidateQueries({ queryKey: inspectorKeys.all }),
        qc.invalidateQueries({ queryKey: receiverKeys.all }),
      ]);
    },
  });
}
