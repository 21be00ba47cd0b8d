// A subscription's deliberate faults (/v2/test_helpers/webhooks/{id}/faults): read,
// replace, clear. An emulator extra, set from the subscription's "Faults" card.
import { queryOptions } from '@tanstack/react-query';
import type { WebhookFaults, WebhookFaultsView } from '@shared/api-types.js';
import { serviceApi } from './client.js';
import { faultKeys } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

const path = (id: string) => `/v2/test_helpers/webhooks/${encodeURIComponent(id)}/faults`;

export const faultsQuery = (subscriptionId: string) =>
  queryOptions({
    queryKey: faultKeys.of(subscriptionId),
    queryFn: ({ client, signal }) => serviceApi<WebhookFaultsView>(path(subscriptionId), { client, signal }),
  });

export const useSetFaults = (subscriptionId: string) =>
  useRefreshingMutation({
    mutationFn: (faults: WebhookFaults, client) =>
      serviceApi<WebhookFaultsView>(path(subscriptionId), { client, method: 'PUT', body: faults }),
    write: (qc, view) => qc.setQueryData(faultKeys.of(subscriptionId), view),
    stale: () => [],
  });
