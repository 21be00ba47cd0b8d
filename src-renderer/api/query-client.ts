// The console's QueryClient settings, shared by the page and the tests.
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './errors.js';
import { connectionKeys, sessionKeys } from './keys.js';

/** A remote connection that did not answer: the backend already waited its deadline, so no retry; the switcher's state is asked again. */
const REMOTE_DOWN = new Set(['remote_unreachable', 'remote_timeout']);
const noRetry = (err: unknown) =>
  err instanceof ApiRequestError &&
  ((err.status > 0 && err.status < 500) || REMOTE_DOWN.has(err.code) || err.code === 'remote_invalid_response');

export function createQueryClient(overrides: { retry?: boolean } = {}): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        // The console's key was revoked from elsewhere: fetch a fresh session (the
        // server mints a new key) unless it is the session itself that failed.
        if (err instanceof ApiRequestError && err.status === 401 && query.queryKey[0] !== sessionKeys.all[0]) {
          void client.invalidateQueries({ queryKey: sessionKeys.all });
        }
        if (err instanceof ApiRequestError && REMOTE_DOWN.has(err.code) && query.queryKey[0] !== connectionKeys.all[0]) {
          void client.invalidateQueries({ queryKey: connectionKeys.all });
        }
      },
    }),
    defaultOptions: {
      // The backend is on this machine: never wait for "online".
      queries: {
        networkMode: 'always',
        staleTime: 5_000,
        retry: overrides.retry === false ? false : (n, err) => n < 2 && !noRetry(err),
      },
      mutations: { networkMode: 'always' },
    },
  });
  return client;
}
