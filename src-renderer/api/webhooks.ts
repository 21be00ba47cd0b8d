// Webhook subscriptions (the service API's /v2/webhooks…): the list, one subscription,
// its delivery log with every attempt, and the changes, redelivery included (from the
// subscription's log and from the inspector alike). Each query and mutation is bound to
// the connection current when it is made (its key and its calls alike).
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  CreatedSubscription,
  Delivery,
  DeliveryWithAttempts,
  Page,
  RecoverResult,
  RotatedSecret,
  Subscription,
  SubscriptionSecrets,
  SubscriptionType,
  TestEventResult,
} from '@shared/api-types.js';
import { PAGE_SIZE, serviceApi } from './client.js';
import { currentConnectionId } from './connection.js';
import { documentKeys, inspectorKeys, webhookKeys, type PageFilter } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

const enc = encodeURIComponent;

/** A company has at most 100 subscriptions: one page of 100 is all of them. */
const ALL_SUBSCRIPTIONS: PageFilter = { limit: 100 };

export const subscriptionListQuery = (f: PageFilter = { limit: PAGE_SIZE }, connection = currentConnectionId()) =>
  queryOptions({
    queryKey: webhookKeys.list(f, connection),
    queryFn: ({ client, signal }) => serviceApi<Page<Subscription>>('/v2/webhooks', { client, signal, connection, query: { ...f } }),
    placeholderData: keepPreviousData,
  });

/** Every subscription, for a choice (the inspector's filter: the built-in service's). Under the list prefix, so kept fresh. */
export const allSubscriptionsQuery = (connection = currentConnectionId()) =>
  queryOptions({
    ...subscriptionListQuery(ALL_SUBSCRIPTIONS, connection),
    select: (page: Page<Subscription>) => page.data,
    staleTime: 30_000,
  });

export const subscriptionQuery = (id: string, connection = currentConnectionId()) =>
  queryOptions({
    queryKey: webhookKeys.sub(id, connection),
    queryFn: ({ client, signal }) => serviceApi<Subscription>(`/v2/webhooks/${enc(id)}`, { client, signal, connection }),
  });

export const deliveryPageQuery = (id: string, f: PageFilter, connection = currentConnectionId()) =>
  queryOptions({
    queryKey: webhookKeys.deliveryPage(id, f, connection),
    queryFn: ({ client, signal }) =>
      serviceApi<Page<Delivery>>(`/v2/webhooks/${enc(id)}/deliveries`, { client, signal, connection, query: { ...f } }),
    placeholderData: keepPreviousData,
  });

export const deliveryQuery = (id: string, deliveryId: string, connection = currentConnectionId()) =>
  queryOptions({
    queryKey: webhookKeys.delivery(id, deliveryId, connection),
    queryFn: ({ client, signal }) =>
      serviceApi<DeliveryWithAttempts>(`/v2/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}`, { client, signal, connection }),
  });

export const useCreateSubscription = () => {
  const connection = currentConnectionId();
  return useRefreshingMutation({
    mutationFn: (input: { url: string; type: SubscriptionType }, client) =>
      serviceApi<CreatedSubscription>('/v2/webhooks', { client, connection, method: 'POST', body: input }),
    stale: () => [webhookKeys.lists(connection)],
  });
};

export const useDeleteSubscription = () => {
  const connection = currentConnectionId();
  return useRefreshingMutation({
    mutationFn: (id: string, client) => serviceApi<void>(`/v2/webhooks/${enc(id)}`, { client, connection, method: 'DELETE' }),
    write: (qc, _r, id) => qc.removeQueries({ queryKey: webhookKeys.detail(id, connection) }),
    stale: () => [webhookKeys.lists(connection)],
  });
};

export const useSendTestEvent = (subscriptionId: string) => {
  const connection = currentConnectionId();
  return useRefreshingMutation({
    mutationFn: (_: void, client) =>
      serviceApi<TestEventResult>(`/v2/webhooks/${enc(subscriptionId)}/test`, { client, connection, method: 'POST' }),
    stale: () => [webhookKeys.deliveries(subscriptionId, connection)],
  });
};

export interface RedeliverInput {
  subscriptionId: string;
  deliveryId: string;
}

/** Sends a delivery again (same webhook-id, a new attempt): its log, its inspector detail and its document's timeline refresh. */
export const useRedeliver = (connection = currentConnectionId()) => {
  return useRefreshingMutation({
    mutationFn: ({ subscriptionId, deliveryId }: RedeliverInput, client) =>
      serviceApi<Delivery>(`/v2/webhooks/${enc(subscriptionId)}/deliveries/${enc(deliveryId)}/redeliver`, {
        client,
        connection,
        method: 'POST',
      }),
    stale: (d, v) => [
      webhookKeys.deliveries(v.subscriptionId, connection),
      inspectorKeys.delivery(v.deliveryId),
      d.document_id ? documentKeys.timeline(d.document_id, connection) : null,
    ],
  });
};

/** Which secrets sign now, by fingerprint (an emulator extra: /v2/test_helpers/webhooks/{id}/secrets). */
export const subscriptionSecretsQuery = (id: string, connection = currentConnectionId()) =>
  queryOptions({
    queryKey: webhookKeys.secrets(id, connection),
    queryFn: ({ client, signal }) =>
      serviceApi<SubscriptionSecrets>(`/v2/test_helpers/webhooks/${enc(id)}/secrets`, { client, signal, connection }),
  });

/** Disable (with a reason) or enable a subscription by hand. */
export const useSetSubscriptionEnabled = (id: string, connection = currentConnectionId()) =>
  useRefreshingMutation({
    mutationFn: (input: { enabled: boolean; reason?: string }, client) =>
      serviceApi<Subscription>(`/v2/test_helpers/webhooks/${enc(id)}/${input.enabled ? 'enable' : 'disable'}`, {
        client,
        connection,
        method: 'POST',
        body: input.enabled ? {} : input.reason ? { reason: input.reason } : {},
      }),
    stale: () => [webhookKeys.detail(id, connection), webhookKeys.lists(connection)],
  });

/** Re-sends every failed or skipped delivery since a time (same webhook-ids, oldest first). */
export const useRecover = (id: string, connection = currentConnectionId()) =>
  useRefreshingMutation({
    mutationFn: (since: string, client) =>
      serviceApi<RecoverResult>(`/v2/test_helpers/webhooks/${enc(id)}/recover`, { client, connection, method: 'POST', body: { since } }),
    stale: () => [webhookKeys.deliveries(id, connection), inspectorKeys.all, inspectorKeys.feeds()],
  });

/** A new secret, answered once; the old one keeps signing for the overlap. */
export const useRotateSecret = (id: string, connection = currentConnectionId()) =>
  useRefreshingMutation({
    mutationFn: (_: void, client) =>
      serviceApi<RotatedSecret>(`/v2/test_helpers/webhooks/${enc(id)}/rotate_secret`, { client, connection, method: 'POST', body: {} }),
    stale: () => [webhookKeys.secrets(id, connection)],
  });
