// The receiver's inboxes and the tunnel (receiver/console-routes.ts; shapes in
// src-shared/receiver-types.ts): query options under the ['receiver'] prefix
// (which the live stream refreshes on inbox, capture and tunnel changes) and
// mutations that await the refetch they cause.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { qk } from './keys.js';
import { consoleJson } from './receiver-http.js';
import type { SubscriptionType } from '@shared/api-types.js';
import type { Inbox, InboxInput, MovedSubscription, SubscribeResult, TunnelView } from '@shared/receiver-types.js';

const enc = encodeURIComponent;

export const receiverKeys = {
  all: ['receiver'] as const,
  // The same key (and data: the list's `data` array) as queries.ts's inboxesQuery, so both share one cache entry.
  inboxes: ['receiver', 'inboxes'] as const,
  tunnel: ['receiver', 'tunnel'] as const,
};

export const inboxListQuery = () =>
  queryOptions({
    queryKey: receiverKeys.inboxes,
    queryFn: ({ signal }) => consoleJson<{ data: Inbox[] }>('/inboxes', { signal }).then((r) => r.data),
  });

export const tunnelQuery = () =>
  queryOptions({ queryKey: receiverKeys.tunnel, queryFn: ({ signal }) => consoleJson<TunnelView>('/tunnel', { signal }) });

function useReceiverMutation<V, R>(fn: (v: V) => Promise<R>, alsoSubscriptions = false) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: receiverKeys.all }),
        alsoSubscriptions ? qc.invalidateQueries({ queryKey: qk.webhooks.all }) : undefined,
      ]);
    },
  });
}

export const useCreateInbox = () =>
  useReceiverMutation((input: InboxInput) => consoleJson<Inbox>('/inboxes', { method: 'POST', body: input }));

export const useUpdateInbox = () =>
  useReceiverMutation(({ id, patch }: { id: string; patch: InboxInput }) =>
    consoleJson<Inbox>(`/inboxes/${enc(id)}`, { method: 'PATCH', body: patch }),
  );

export const useDeleteInbox = () => useReceiverMutation((id: string) => consoleJson<void>(`/inboxes/${enc(id)}`, { method: 'DELETE' }));

export const useSubscribeInbox = () =>
  useReceiverMutation(
    ({ id, type }: { id: string; type: SubscriptionType }) =>
      consoleJson<SubscribeResult>(`/inboxes/${enc(id)}/subscribe`, { method: 'POST', body: { type } }),
    true,
  );

export const useStartTunnel = () =>
  useReceiverMutation((authtoken: string | undefined) =>
    consoleJson<TunnelView>('/tunnel/start', { method: 'POST', body: authtoken ? { authtoken } : {} }),
  );

export const useStopTunnel = () => useReceiverMutation(() => consoleJson<TunnelView>('/tunnel/stop', { method: 'POST' }));

export const useMoveSubscriptions = () =>
  useReceiverMutation(
    (ids: string[] | undefined) =>
      consoleJson<{ moved: MovedSubscription[]; tunnel: TunnelView }>('/tunnel/move-subscriptions', {
        method: 'POST',
        body: ids ? { ids } : {},
      }),
    true,
  );
