// A connection as the store keeps it: the public view plus what Countersign made on the
// remote through the tunnel. Never the key (connections/keyring.ts says where that is).
import type { Connection, TunnelSubscription } from '@shared/connection-types.js';

export interface ConnectionRecord extends Connection {
  /** Subscriptions this Countersign created on the remote for its inboxes (moved when the tunnel's URL changes). */
  tunnel_subscriptions: TunnelSubscription[];
}

/** The store extension holding every connection (store/table.ts Extensions). */
export const CONNECTIONS_EXTENSION = 'connections';

export interface ConnectionsData {
  version: 1;
  connections: ConnectionRecord[];
}
