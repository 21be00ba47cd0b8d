// undici is loaded by the first send (net/undici.ts), so a service that sends nothing (a
// fresh one, or one used only to receive) never holds it. Loading it takes 25-80 ms of the
// main thread (more on the shared 2-core machine under load); inside the first delivery, that is
// also the wait of the request that made its event. So a service that has somewhere to
// send loads the delivery's parts ahead, on their own turn of the event loop: at start when
// it has a subscription, else right after its first subscription is made.
import type { ChangeBus } from '../bus.js';
import { systemClock } from '../clock.js';
import type { Store } from '../store/store.js';
import { loadSendingParts } from './undici.js';

/** Starts the warm-up; returns what stops waiting for a first subscription (stop()). */
export function warmUpSending(store: Store, bus: ChangeBus): () => void {
  const soon = () => void systemClock.setTimeout(loadSendingParts, 0).unref();
  if (store.subscriptions.size > 0) {
    soon();
    return () => {};
  }
  const off = bus.subscribe((change) => {
    if (change.kind !== 'subscription' || change.deleted) return;
    off();
    soon();
  });
  return off;
}
