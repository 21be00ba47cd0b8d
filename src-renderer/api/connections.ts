// The connections to real deployments (console API /connections…): the list, a new one,
// deletion, the remote's state, and moving subscriptions after the tunnel's URL changed.
import { queryOptions } from '@tanstack/react-query';
import type {
  Connection,
  ConnectionCheck,
  ConnectionList,
  NewConnection,
  TunnelMoveResult,
  TunnelMoves,
} from '@shared/connection-types.js';
import { consoleApi } from './client.js';
import { connectionKeys, webhookKeys } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

const enc = encodeURIComponent;

export const connectionListQuery = () =>
  queryOptions({
    queryKey: connectionKeys.list(),
    queryFn: ({ signal }) => consoleApi<ConnectionList>('/connections', { signal }),
    staleTime: 30_000,
  });

/** Whether the remote answers and takes the key; asked again every 30 s while shown. */
export const connectionCheckQuery = (id: string) =>
  queryOptions({
    queryKey: connectionKeys.check(id),
    queryFn: ({ signal }) => consoleApi<ConnectionCheck>(`/connections/${enc(id)}/check`, { signal }),
    refetchInterval: 30_000,
    staleTime: 10_000,
  });

export const tunnelMovesQuery = (id: string) =>
  queryOptions({
    queryKey: connectionKeys.moves(id),
    queryFn: ({ signal }) => consoleApi<TunnelMoves>(`/connections/${enc(id)}/tunnel-moves`, { signal }),
  });

export const useCreateConnection = () =>
  useRefreshingMutation({
    mutationFn: (input: NewConnection) => consoleApi<Connection>('/connections', { method: 'POST', body: input }),
    stale: () => [connectionKeys.all],
  });

export const useDeleteConnection = () =>
  useRefreshingMutation({
    mutationFn: (id: string) => consoleApi<void>(`/connections/${enc(id)}`, { method: 'DELETE' }),
    write: (qc, _r, id) => qc.removeQueries({ queryKey: webhookKeys.scope(id) }),
    stale: () => [connectionKeys.all],
  });

export const useMoveTunnelSubscriptions = (id: string) =>
  useRefreshingMutation({
    mutationFn: () => consoleApi<TunnelMoveResult>(`/connections/${enc(id)}/tunnel-moves`, { method: 'POST' }),
    stale: () => [connectionKeys.moves(id), webhookKeys.scope(id)],
  });
