// The console's one way to change something: a mutation that resolves only after the
// queries it makes stale have been refetched (awaiting the invalidation of their key
// prefixes), so a screen never shows the old state right after a success message.
import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';

export interface RefreshingMutation<V, R> {
  /** The call; `client` is the QueryClient running it (service calls take their key from it). */
  mutationFn: (vars: V, client: QueryClient) => Promise<R>;
  /** The key prefixes the change makes stale (falsy entries are skipped). */
  stale: (result: R, vars: V) => readonly (QueryKey | false | null | undefined)[];
  /** Cache entries known from the answer itself, written before the refetch. */
  write?: (client: QueryClient, result: R, vars: V) => void;
}

export function useRefreshingMutation<V = void, R = unknown>(m: RefreshingMutation<V, R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (vars: V) => m.mutationFn(vars, qc),
    onSuccess: async (result: R, vars: V) => {
      m.write?.(qc, result, vars);
      const keys = m.stale(result, vars).filter((k): k is QueryKey => Boolean(k));
      await Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));
    },
  });
}
