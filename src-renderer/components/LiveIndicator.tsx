// Whether the page is receiving live changes; said in words, not only colour.
import { useLiveState } from '../api/live.js';

const TEXT = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Session expired',
  stopped: 'Offline',
} as const;

export function LiveIndicator() {
  const state = useLiveState();
  return (
    <div className={`live live-${state}`} role="status" aria-live="polite" title="Live updates from the local service">
      <span className="live-dot" aria-hidden="true" />
      {TEXT[state]}
    </div>
  );
}
