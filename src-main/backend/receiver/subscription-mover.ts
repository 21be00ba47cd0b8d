// Moving subscriptions left on an URL that no longer reaches their inbox (an old tunnel
// URL, an old local port) to the inbox's current URL: by hand (POST /tunnel/move-
// subscriptions) or by itself when the tunnel comes online with a new public URL
// (followTunnel). The API has no update, so each is re-created at the new URL with the
// same type and secret, then the old one is deleted: created first, so a failure never
// leaves the inbox without a subscription; the old one's pending retries are cancelled.
// Guards against two moves of one subscription at once (one chain of moves at a time)
// and against moving anything but subscriptions that point at this receiver's inboxes.
import type { ChangeBus } from '../bus.js';
import type { Domain } from '../domain/domain.js';
import type { Store } from '../store/store.js';
import type { Tunnel } from '../tunnel/tunnel.js';
import type { Receiver } from './receiver.js';
import type { MovedSubscription, StaleSubscription } from '@shared/receiver-types.js';

export interface MoverDeps {
  receiver: Receiver;
  store: Store;
  domain: Pick<Domain, 'createSubscription' | 'deleteSubscription'>;
}

let chain: Promise<unknown> = Promise.resolve();

/** Moves the stale subscriptions `pick` chooses, one after the other; resolves with what moved. */
export function moveStale(deps: MoverDeps, pick: (s: StaleSubscription) => boolean): Promise<MovedSubscription[]> {
  const run = async () => {
    const moved: MovedSubscription[] = [];
    for (const s of deps.receiver.inboxes.stale().filter(pick)) {
      const old = deps.store.subscriptions.get(s.public_id);
      if (!old) continue;
      const created = await deps.domain.createSubscription(s.company_id, { url: s.new_url, type: old.type, secret_key: old.secret_key });
      await deps.domain.deleteSubscription(s.company_id, old.public_id);
      moved.push({
        from_id: old.public_id,
        from_url: old.url,
        to_id: created.public_id,
        to_url: created.url,
        inbox_id: s.inbox_id,
        type: created.type,
      });
    }
    return moved;
  };
  const next = chain.then(run, run);
  chain = next.catch(() => undefined);
  return next;
}

/**
 * The local half of tunnel-aware subscriptions: whenever the tunnel is online under a
 * public URL, subscriptions of the local service left on an earlier public URL of one of
 * its inboxes are moved to the new one, with no question asked (they are Countersign's
 * own, on this machine). `onMoved` hears of each batch (logged on stderr by default).
 */
export function followTunnel(
  deps: MoverDeps & { bus: ChangeBus; tunnel: Pick<Tunnel, 'state'> },
  onMoved: (moved: MovedSubscription[]) => void = (moved) =>
    console.error(`[tunnel] moved ${moved.length} subscription(s) to the new public URL`),
): () => void {
  return deps.bus.subscribe((change) => {
    if (change.kind !== 'tunnel' || deps.tunnel.state().status !== 'online') return;
    // After the receiver has noted the new URL (its own listener on the same event).
    queueMicrotask(() => {
      moveStale(deps, (s) => s.reason === 'old_public_url').then(
        (moved) => moved.length && onMoved(moved),
        (err: unknown) => console.error('[tunnel] moving subscriptions to the new public URL failed:', err),
      );
    });
  });
}

/**
 * For the delivery engine: whether a URL is one of this receiver's public tunnel URLs
 * (current or past) while the tunnel is not online, so a failed attempt to it is marked
 * `tunnel_offline` (the inspector's "tunnel down", docs/inspector.md).
 */
export function tunnelOfflineCheck(tunnel: Pick<Tunnel, 'state'>, receiver: Pick<Receiver, 'inboxes'>): (url: string) => boolean {
  // Asked for every delivery attempt: a URL that cannot name an inbox (no "inb_"; the URL
  // parser only drops tabs and newlines, it never makes letters) is answered without parsing it.
  return (url) => mayNameInbox(url) && tunnel.state().status !== 'online' && receiver.inboxes.isTunnelUrl(url);
}

const mayNameInbox = (url: string): boolean => url.includes('inb_') || /[\t\n\r]/.test(url);
