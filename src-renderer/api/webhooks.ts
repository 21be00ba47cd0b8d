// Webhook subscriptions (the service API's /v2/webhooks…): the list, one subscription,
// its delivery log with every attempt, and the changes, redelivery included (from the
// subscription's log and from the inspector alike).
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
import { documentKeys, inspectorKeys, webhookKeys, type PageFilter } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

const enc = encodeURIComponent;

/** A company has at most 100 subscriptions: one page of 100 is all of them. */
const ALL_SUBSCRIPTIONS: PageFilter = { limit: 100 };

export const subscriptionListQuery = (f: PageFilter = { limit: PAGE_SIZE }) =>
  queryOptions({
    queryKey: webhookKeys.list(f),
    queryFn: ({ client, signal }) => serviceApi<Page<Subscription>>('/v2/webhooks', { client, signal, query: { ...f } }),
    placeholderData: keepPreviousData,
  });

/** Every subscription, for a choice (the inspector's filter). Under the list prefix, so kept fresh. */
export const allSubscriptionsQuery = () =>
  queryOptions({
    ...subscriptionListQuery(ALL_SUBSCRIPTIONS),
    select: (page: Page<Subscription>) => page.data,
    staleTime: 30_000,
  });

export const subscriptionQuery = (id: string) =>
  queryOptions({
    queryKey: webhookKeys.sub(id),
    queryFn: ({ client, signal }) => serviceApi<Subscription>(`/v2/webhooks/${enc(id)}`, { client, signal }),
  });

export const deliveryPageQuery = (id: string, f: PageFilter) =>
  queryOptions({
    queryKey: webhookKeys.deliveryPage(id, f),
    queryFn: ({ client, signal }) => serviceApi<Page<Delivery>>(`/v2/webhooks/${enc(id)}/deliveries`, { client, signal, query: { ...f } }),
    placeholderData: keepPreviousData,
  });

export const deliveryQuery = (id: string, deliveryId: string) =>
  queryOptions({
    queryKey: webhookKeys.delivery(id, deliveryId),
    queryFn: ({ client, signal }) =>
      serviceApi<DeliveryWithAttempts>(`/v2/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}`, { client, signal }),
  });

export const useCreateSubscription = () =>
  useRefreshingMutation({
    mutationFn: (input: { url: string; type: SubscriptionType }, client) =>
      serviceApi<CreatedSubscription>('/v2/webhooks', { client, method: 'POST', body: input }),
    stale: () => [webhookKeys.lists()],
  });

export const useDeleteSubscription = () =>
  useRefreshingMutation({
    mutationFn: (id: string, client) => serviceApi<void>(`/v2/webhooks/${enc(id)}`, { client, method: 'DELETE' }),
    write: (qc, _r, id) => qc.removeQueries({ queryKey: webhookKeys.detail(id) }),
    stale: () => [webhookKeys.lists()],
  });

export const useSendTestEvent = (subscriptionId: string) =>
  useRefreshingMutation({
    mutationFn: (_: void, client) => serviceApi<TestEventResult>(`/v2/webhooks/${enc(subscriptionId)}/test`, { client, method: 'POST' }),
    stale: () => [webhookKeys.deliveries(subscriptionId)],
  });

export interface RedeliverInput {
  subscriptionId: string;
  deliveryId: string;
}

/** Sends a delivery again (same webhook-id, a new attempt): its log, its inspector detail and its document's timeline refresh. */
export const useRedeliver = () =>
  useRefreshingMutation({
    mutationFn: ({ subscriptionId, deliveryId }: RedeliverInput, client) =>
      serviceApi<Delivery>(`/v2/webhooks/${enc(subscriptionId)}/deliveries/${enc(deliveryId)}/redeliver`, { client, method: 'POST' }),
    stale: (d, v) => [
      webhookKeys.deliveries(v.subscriptionId),
      inspectorKeys.delivery(v.deliveryId),
      d.document_id ? documentKeys.timeline(d.document_id) : null,
    ],
  });

/** Which secrets sign now, by fingerprint (an emulator extra: /v2/test_helpers/webhooks/{id}/secrets). */
export const subscriptionSecretsQuery = (id: string) =>
  queryOptions({
    queryKey: webhookKeys.secrets(id),
    queryFn: ({ client, signal }) => serviceApi<SubscriptionSecrets>(`/v2/test_helpers/webhooks/${enc(id)}/secrets`, { client, signal }),
  });

/** Disable (with a reason) or enable a subscription by hand. */
export const useSetSubscriptionEnabled = (id: string) =>
  useRefreshingMutation({
    mutationFn: (input: { enabled: boolean; reason?: string }, client) =>
      serviceApi<Subscription>(`/v2/test_helpers/webhooks/${enc(id)}/${input.enabled ? 'enable' : 'disable'}`, {
        client,
        method: 'POST',
        body: input.enabled ? {} : input.reason ? { reason: input.reason } : {},
      }),
    stale: () => [webhookKeys.detail(id), webhookKeys.lists()],
  });

/** Re-sends every failed or skipped delivery since a time (same webhook-ids, oldest first). */
export const useRecover = (id: string) =>
  useRefreshingMutation({
    mutationFn: (since: string, client) =>
      serviceApi<RecoverResult>(`/v2/test_helpers/webhooks/${enc(id)}/recover`, { client, method: 'POST', body: { since } }),
    stale: () => [webhookKeys.deliveries(id), inspectorKeys.all, inspectorKeys.feeds()],
  });

/** A new secret, answered once; the old one keeps signing for the overlap. */
export const useRotateSecret = (id: string) =>
  useRefreshingMutation({
    mutationFn: (_: void, client) =>
      serviceApi<RotatedSecret>(`/v2/test_helpers/webhooks/${enc(id)}/rotate_secret`, { client, method: 'POST', body: {} }),
    stale: () => [webhookKeys.secrets(id)],
  });
