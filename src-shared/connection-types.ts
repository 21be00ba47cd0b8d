// Connections to real deployments of the service (docs/connections.md): what the
// console API answers about them. A connection's API key never appears here: the
// backend holds it (OS keychain, or an environment variable or file the user names)
// and calls the remote on the page's behalf.

/** Where a connection's API key is read from. */
export type KeySourceKind = 'keychain' | 'env' | 'file';

export interface Connection {
  id: string; // conn_…
  name: string;
  /** The remote service's API, e.g. https://api.example.com (no trailing slash). */
  base_url: string;
  /** The remote's web app, e.g. https://app.example.com: document links open there. */
  app_url: string;
  key_source: KeySourceKind;
  /** The environment variable's name or the file's path; null for the keychain. */
  key_ref: string | null;
  created_at: string;
}

export interface KeyStorageInfo {
  /** True on the desktop: a key typed into the console is kept in the OS keychain. */
  keychain: boolean;
  /** One sentence a person can read about where keys are kept. */
  note: string;
}

export interface ConnectionList {
  data: Connection[];
  key_storage: KeyStorageInfo;
}

export interface NewConnection {
  name: string;
  base_url: string;
  app_url: string;
  /** Kept in the OS keychain (desktop only). */
  api_key?: string;
  /** The name of an environment variable of the Countersign process that holds the key. */
  api_key_env?: string;
  /** The path of a file that holds the key (its first line). */
  api_key_file?: string;
}

/** The result of asking the remote whether it answers and takes the key. */
export interface ConnectionCheck {
  state: 'online' | 'unauthorized' | 'offline' | 'error';
  /** What happened, in words (the remote's own error message when it sent one). */
  message: string;
  checked_at: string;
  /** Round trip, when the remote answered. */
  duration_ms: number | null;
}

/** A subscription Countersign made on a remote for one of its inboxes, through the tunnel. */
export interface TunnelSubscription {
  subscription_id: string;
  inbox_id: string;
  url: string;
}

/** Subscriptions on a remote that still point at an old tunnel address. */
export interface TunnelMoves {
  /** The tunnel's public URL now; null when the tunnel is not online (nothing can be moved). */
  public_url: string | null;
  data: (TunnelSubscription & { new_url: string | null })[];
}

export interface TunnelMoveResult {
  moved: { old_subscription_id: string; subscription_id: string; url: string; secret_key: string }[];
  failed: { subscription_id: string; message: string }[];
}

/** The console's name for the built-in local service in connection-aware routes. */
export const LOCAL_CONNECTION = 'local';
