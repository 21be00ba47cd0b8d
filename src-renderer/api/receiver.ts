// The receiver's inboxes and the tunnel (receiver/console-routes.ts): shapes, query
// options under the ['receiver'] prefix (which the live stream refreshes on inbox,
// capture and tunnel changes) and mutations that await the refetch they cause.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { qk } from './keys.js';
import { consoleJson } from './receiver-http.js';
import type { SubscriptionType } from './types.js';

export type ResponseMode =
  | { mode: 'status'; status: number; delay_ms?: number }
  | { mode: 'fail_first_n'; fail_first_n: number; fail_status: number; delay_ms?: number }
  | { mode: 'hang' }
  | { mode: 'gone'; delay_ms?: number }
  | { mode: 'rate_limited'; retry_after: number; delay_ms?: number };

export interface Inbox {
  id: string;
  name: string;
  created_at: string;
  path: string;
  local_url: string;
  public_url: string | null;
  secret: { source: 'pasted' | 'linked' | 'none'; fingerprint: string | null; format_ok: boolean | null; linked_subscription_ids: string[] };
  response: ResponseMode;
  response_description: string;
  capture_count: number;
}

export type TunnelStatus = 'off' | 'connecting' | 'online' | 'error' | 'offline';

export interface StaleSubscription {
  public_id: string;
  url: string;
  type: string;
  inbox_id: string;
  reason: 'old_public_url' | 'old_local_url';
  new_url: string;
}

export interface TunnelView {
  status: TunnelStatus;
  public_url?: string;
  message?: string;
  local_url: string;
  stale_subscriptions: StaleSubscription[];
}

export interface MovedSubscription {
  from_id: string;
  from_url: string;
  to_id: string;
  to_url: string;
  inbox_id: string;
  type: string;
}

export interface SubscribeResult {
  subscription: { public_id: string; url: string; type: string; status: string; created_at: string; secret_fingerprint: string };
  inbox: Inbox;
}

export interface InboxInput {
  name?: string;
  /** null clears a pasted secret (update only). */
  secret?: string | null;
  response?: ResponseMode;
}

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

export const useCreateInbox = () => useReceiverMutation((input: InboxInput) => consoleJson<Inbox>('/inboxes', { method: 'POST', body: input }));

export const useUpdateInbox = () =>
  useReceiverMutation(({ id, patch }: { id: string; patch: InboxInput }) => consoleJson<Inbox>(`/inboxes/${enc(id)}`, { method: 'PATCH', body: patch }));

export const useDeleteInbox = () => useReceiverMutation((id: string) => consoleJson<void>(`/inboxes/${enc(id)}`, { method: 'DELETE' }));

export const useSubscribeInbox = () =>
  useReceiverMutation(
    ({ id, type }: { id: string; type: SubscriptionType }) => consoleJson<SubscribeResult>(`/inboxes/${enc(id)}/subscribe`, { method: 'POST', body: { type } }),
    true,
  );

export const useStartTunnel = () =>
  useReceiverMutation((authtoken: string | undefined) => consoleJson<TunnelView>('/tunnel/start', { method: 'POST', body: authtoken ? { authtoken } : {} }));

export const useStopTunnel = () => useReceiverMutation(() => consoleJson<TunnelView>('/tunnel/stop', { method: 'POST' }));

export const useMoveSubscriptions = () =>
  useReceiverMutation(
    (ids: string[] | undefined) => consoleJson<{ moved: MovedSubscription[]; tunnel: TunnelView }>('/tunnel/move-subscriptions', { method: 'POST', body: ids ? { ids } : {} }),
    true,
  );
