// The conformance scorecard (POST /v2/test_helpers/checks, with the session's key): runs
// a check of an endpoint and answers with the scorecard. Its deliveries land in the
// inspector, so the inspector's queries go stale.
import type { CheckRequest, CheckResult } from '@shared/check-types.js';
import { serviceApi } from './client.js';
import { inspectorKeys } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

export const useRunCheck = () =>
  useRefreshingMutation({
    mutationFn: (input: CheckRequest, client) =>
      serviceApi<CheckResult>('/v2/test_helpers/checks', { method: 'POST', body: input, client }),
    stale: () => [inspectorKeys.all, inspectorKeys.feeds()],
  });
