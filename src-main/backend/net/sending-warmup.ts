// undici is loaded by the first send (net/undici.ts), so a service that sends nothing (a
// fresh one, or one used only to receive) never holds it. Loading it takes 25-80 ms of the
// main thread (more on the shared 2-core machine under load); inside the first delivery,
// that is also the wait of the request that made its event. So a service that has
// somewhere to send loads the delivery's parts ahead, on a turn of the event loop of their
// own: a second after start when it has a subscription (the requests that come right after
// the ready line, a console opening, do not wait for it; a delivery due before then loads
// them itself), else right after its first subscription is made.
import type { ChangeBus } from '../bus.js';
import { systemClock, type Timer } from '../clock.js';
import type { Store } from '../store/store.js';
import { loadSendingParts } from './undici.js';

/** How long after start a service with a subscription loads the delivery's parts, in ms. */
export const WARM_UP_AFTER_START_MS = 1000;

/** Starts the warm-up; returns what stops it (stop()). */
export function warmUpSending(store: Store, bus: ChangeBus): () => void {
  let timer: Timer | null = null;
  const load = (ms: number): void => {
    timer = systemClock.setTimeout(loadSendingParts, ms).unref();
  };
  if (store.subscriptions.size > 0) {
    load(WARM_UP_AFTER_START_MS);
    return () => systemClock.clearTimeout(timer);
  }
  const off = bus.subscribe((change) => {
    if (change.kind !== 'subscription' || change.deleted) return;
    off();
    load(0);
  });
  return () => {
    off();
    systemClock.clearTimeout(timer);
  };
}
