// The company's API keys (console API): the list, a new key (shown once), revocation.
import { queryOptions } from '@tanstack/react-query';
import type { ApiKey, CreatedApiKey } from '@shared/api-types.js';
import { consoleApi } from './client.js';
import { apiKeyKeys } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: apiKeyKeys.list(),
    queryFn: ({ signal }) => consoleApi<{ data: ApiKey[] }>('/api-keys', { signal }).then((r) => r.data),
  });

export const useCreateApiKey = () =>
  useRefreshingMutation({
    mutationFn: (input: { role: 'admin' | 'member'; label?: string }) =>
      consoleApi<CreatedApiKey>('/api-keys', { method: 'POST', body: input }),
    stale: () => [apiKeyKeys.all],
  });

export const useRevokeApiKey = () =>
  useRefreshingMutation({
    mutationFn: (id: string) => consoleApi<void>(`/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    stale: () => [apiKeyKeys.all],
  });
