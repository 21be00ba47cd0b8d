// queryOptions per resource: one place that says where each thing comes from.
import { queryOptions, keepPreviousData } from '@tanstack/react-query';
import { configureClient, consoleApi, serviceApi } from './client.js';
import { qk, type DocumentListFilter } from './keys.js';
import type {
  AllowedActions,
  ApiKey,
  ConsoleSession,
  ConsoleStatus,
  Delivery,
  DeliveryWithAttempts,
  Document,
  Notification,
  Page,
  Subscription,
  TimelineEvent,
} from '@shared/api-types.js';

export const PAGE_SIZE = 25;
const enc = encodeURIComponent;

/** The console session; its admin key is handed to the client (memory only) for the service API. */
export const sessionQuery = () =>
  queryOptions({
    queryKey: qk.session,
    queryFn: async ({ signal }) => {
      const session = await consoleApi<ConsoleSession>('/session', { signal });
      configureClient({ apiKey: session.api_key });
      return session;
    },
    staleTime: Infinity,
    retry: 1,
  });

export const statusQuery = () =>
  queryOptions({ queryKey: qk.status, queryFn: ({ signal }) => consoleApi<ConsoleStatus>('/status', { signal }), staleTime: 30_000 });

export const documentListQuery = (f: DocumentListFilter) =>
  queryOptions({
    queryKey: qk.documents.list(f),
    queryFn: ({ signal }) => consoleApi<Page<Document>>('/documents', { signal, query: { ...f, limit: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

export const documentQuery = (id: string) =>
  queryOptions({ queryKey: qk.documents.doc(id), queryFn: ({ signal }) => serviceApi<Document>(`/documents/${enc(id)}`, { signal }) });

export const timelineQuery = (id: string) =>
  queryOptions({
    queryKey: qk.documents.timeline(id),
    queryFn: ({ signal }) => consoleApi<{ data: TimelineEvent[] }>(`/documents/${enc(id)}/timeline`, { signal }).then((r) => r.data),
  });

export const actionsQuery = (id: string) =>
  queryOptions({
    queryKey: qk.documents.actions(id),
    queryFn: ({ signal }) => consoleApi<AllowedActions>(`/documents/${enc(id)}/actions`, { signal }),
  });

export const subscriptionListQuery = (startingAfter?: string) =>
  queryOptions({
    queryKey: qk.webhooks.list(startingAfter),
    queryFn: ({ signal }) =>
      serviceApi<Page<Subscription>>('/v2/webhooks', { signal, query: { limit: PAGE_SIZE, starting_after: startingAfter } }),
    placeholderData: keepPreviousData,
  });

export const subscriptionQuery = (id: string) =>
  queryOptions({ queryKey: qk.webhooks.sub(id), queryFn: ({ signal }) => serviceApi<Subscription>(`/v2/webhooks/${enc(id)}`, { signal }) });

export const deliveryPageQuery = (id: string, limit: number, startingAfter?: string) =>
  queryOptions({
    queryKey: qk.webhooks.deliveryPage(id, limit, startingAfter),
    queryFn: ({ signal }) =>
      serviceApi<Page<Delivery>>(`/v2/webhooks/${enc(id)}/deliveries`, { signal, query: { limit, starting_after: startingAfter } }),
    placeholderData: keepPreviousData,
  });

export const deliveryQuery = (id: string, deliveryId: string) =>
  queryOptions({
    queryKey: qk.webhooks.delivery(id, deliveryId),
    queryFn: ({ signal }) => serviceApi<DeliveryWithAttempts>(`/v2/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}`, { signal }),
  });

/** The receiver's inboxes (receiver/console-routes.ts), to offer one as a webhook endpoint. */
export const inboxesQuery = () =>
  queryOptions({
    queryKey: ['receiver', 'inboxes'] as const,
    queryFn: ({ signal }) =>
      consoleApi<{ data: { id: string; name: string; local_url: string; public_url: string | null }[] }>('/inboxes', { signal }).then(
        (r) => r.data,
      ),
    staleTime: 30_000,
  });

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: qk.apiKeys.all,
    queryFn: ({ signal }) => consoleApi<{ data: ApiKey[] }>('/api-keys', { signal }).then((r) => r.data),
  });

export const notificationsQuery = (f: { document_id?: string; starting_after?: string }) =>
  queryOptions({
    queryKey: qk.notifications.list(f),
    queryFn: ({ signal }) => consoleApi<Page<Notification>>('/notifications', { signal, query: { ...f, limit: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
