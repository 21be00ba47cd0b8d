// The console's run: its session (this run's admin key of "Demo Company", which the
// service calls read from this query's data: see client.ts) and its status (start-up
// warnings, addresses, tunnel).
import { queryOptions } from '@tanstack/react-query';
import type { ConsoleSession, ConsoleStatus } from '@shared/api-types.js';
import { consoleApi } from './client.js';
import { sessionKeys, statusKeys } from './keys.js';

export const sessionQuery = () =>
  queryOptions({
    queryKey: sessionKeys.all,
    queryFn: ({ signal }) => consoleApi<ConsoleSession>('/session', { signal }),
    staleTime: Infinity,
    retry: 1,
  });

export const statusQuery = () =>
  queryOptions({
    queryKey: statusKeys.all,
    queryFn: ({ signal }) => consoleApi<ConsoleStatus>('/status', { signal }),
    staleTime: 30_000,
  });
