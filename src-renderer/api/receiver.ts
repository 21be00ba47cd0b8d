// The receiver's inboxes and the tunnel (console-api/receiver-routes.ts; shapes in
// src-shared/receiver-types.ts): query options under receiverKeys.all (which the live
// stream refreshes on inbox, capture and tunnel changes) and the changes.
import { queryOptions } from '@tanstack/react-query';
import type { SubscriptionType } from '@shared/api-types.js';
import type { Inbox, InboxInput, MovedSubscription, SubscribeResult, TunnelView } from '@shared/receiver-types.js';
import { consoleApi } from './client.js';
import { receiverKeys, webhookKeys } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

const enc = encodeURIComponent;

export const inboxListQuery = () =>
  queryOptions({
    queryKey: receiverKeys.inboxes(),
    queryFn: ({ signal }) => consoleApi<{ data: Inbox[] }>('/inboxes', { signal }).then((r) => r.data),
  });

export const tunnelQuery = () =>
  queryOptions({ queryKey: receiverKeys.tunnel(), queryFn: ({ signal }) => consoleApi<TunnelView>('/tunnel', { signal }) });

/** A receiver change; those that make or move subscriptions refresh them too. */
const useReceiverMutation = <V, R>(mutationFn: (v: V) => Promise<R>, alsoSubscriptions = false) =>
  useRefreshingMutation({ mutationFn, stale: () => [receiverKeys.all, alsoSubscriptions && webhookKeys.all] });

export const useCreateInbox = () =>
  useReceiverMutation((input: InboxInput) => consoleApi<Inbox>('/inboxes', { method: 'POST', body: input }));

export const useUpdateInbox = () =>
  useReceiverMutation(({ id, patch }: { id: string; patch: InboxInput }) =>
    consoleApi<Inbox>(`/inboxes/${enc(id)}`, { method: 'PATCH', body: patch }),
  );

export const useDeleteInbox = () => useReceiverMutation((id: string) => consoleApi<void>(`/inboxes/${enc(id)}`, { method: 'DELETE' }));

export const useSubscribeInbox = () =>
  useReceiverMutation(
    ({ id, type }: { id: string; type: SubscriptionType }) =>
      consoleApi<SubscribeResult>(`/inboxes/${enc(id)}/subscribe`, { method: 'POST', body: { type } }),
    true,
  );

export const useStartTunnel = () =>
  useReceiverMutation((authtoken: string | undefined) =>
    consoleApi<TunnelView>('/tunnel/start', { method: 'POST', body: authtoken ? { authtoken } : {} }),
  );

export const useStopTunnel = () => useReceiverMutation(() => consoleApi<TunnelView>('/tunnel/stop', { method: 'POST' }));

export const useForgetAuthtoken = () => useReceiverMutation(() => consoleApi<TunnelView>('/tunnel/forget-authtoken', { method: 'POST' }));

export const useMoveSubscriptions = () =>
  useReceiverMutation(
    (ids: string[] | undefined) =>
      consoleApi<{ moved: MovedSubscription[]; tunnel: TunnelView }>('/tunnel/move-subscriptions', {
        method: 'POST',
        body: ids ? { ids } : {},
      }),
    true,
  );
