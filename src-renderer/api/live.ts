// React side of the live stream: one stream per page, its changes turned into query
// invalidations (batched, so a burst of deliveries costs one refetch per list), and
// its state available to an indicator. Other screens (the inspector) can listen to
// raw changes through onLiveChange.
import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { clientBase, consoleToken } from './client.js';
import { dedupeKeys, keysForChange, type QueryKey } from './change-keys.js';
import type { Change } from '@shared/api-types.js';
import { LiveStream, type LiveState } from './live-stream.js';

const changeListeners = new Set<(c: Change) => void>();
const stateListeners = new Set<() => void>();
let liveState: LiveState = 'stopped';

/** Subscribes to every change the stream delivers; returns the unsubscribe function. */
export function onLiveChange(listener: (c: Change) => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

function setLiveState(s: LiveState) {
  liveState = s;
  for (const l of stateListeners) l();
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(
    (cb) => {
      stateListeners.add(cb);
      return () => stateListeners.delete(cb);
    },
    () => liveState,
  );
}

/** Collects keys for `windowMs` and invalidates each distinct one once. */
export function createInvalidationBatcher(qc: QueryClient, windowMs = 150) {
  let pending: QueryKey[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const keys = dedupeKeys(pending);
    pending = [];
    for (const queryKey of keys) void qc.invalidateQueries({ queryKey });
  };
  return {
    add(keys: QueryKey[]) {
      pending.push(...keys);
      timer ??= setTimeout(flush, windowMs);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = [];
    },
  };
}

/** Keeps the page's caches in step with the backend while mounted. */
export function useLiveStream(enabled = true): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const batcher = createInvalidationBatcher(qc);
    const stream = new LiveStream({
      url: `${clientBase()}/console/api/stream`,
      token: consoleToken,
      onChange: (change) => {
        batcher.add(keysForChange(change));
        for (const l of changeListeners) l(change);
      },
      onReconnected: () => void qc.invalidateQueries(),
      onState: setLiveState,
    });
    stream.start();
    return () => {
      stream.stop();
      batcher.cancel();
    };
  }, [qc, enabled]);
}
