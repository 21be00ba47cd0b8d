// The service's test clock (/v2/test_helpers/clock): one for the whole service. The
// live stream's "clock" change refreshes it; an advance also changes deliveries, which
// the stream announces on their own.
import { queryOptions } from '@tanstack/react-query';
import type { TestClockView } from '@shared/api-types.js';
import { serviceApi } from './client.js';
import { clockKeys } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

export const clockQuery = () =>
  queryOptions({
    queryKey: clockKeys.all,
    queryFn: ({ client, signal }) => serviceApi<TestClockView>('/v2/test_helpers/clock', { client, signal }),
  });

export type ClockAction = { kind: 'freeze' } | { kind: 'resume' } | { kind: 'advance'; seconds: number };

export const useClockAction = () =>
  useRefreshingMutation({
    mutationFn: (a: ClockAction, client) =>
      serviceApi<TestClockView>(`/v2/test_helpers/clock/${a.kind}`, {
        client,
        method: 'POST',
        body: a.kind === 'advance' ? { seconds: a.seconds } : {},
      }),
    write: (qc, view) => qc.setQueryData(clockKeys.all, view),
    stale: () => [],
  });
