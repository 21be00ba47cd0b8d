// Which service the console is working on: the built-in local one, or a connection to a
// real deployment (docs/connections.md). One small store the page reads everywhere: the
// key factories put its id in every service-backed query key (so caches never mix),
// the client routes service calls through the backend's pass-through on a remote, and
// the frame shows it. Kept per tab (sessionStorage), never the key: the page never has it.
import { useSyncExternalStore } from 'react';
import { LOCAL_CONNECTION, type Connection } from '@shared/connection-types.js';

export type ActiveConnection = { id: typeof LOCAL_CONNECTION; name: string; app_url: null } | Connection;

export const LOCAL: ActiveConnection = { id: LOCAL_CONNECTION, name: 'Local', app_url: null };

const STORAGE_KEY = 'countersign.connection';
let current: ActiveConnection = LOCAL;
const listeners = new Set<() => void>();

function remembered(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function currentConnection(): ActiveConnection {
  return current;
}

/** The id that scopes query keys and service calls: 'local' or conn_…. */
export function currentConnectionId(): string {
  return current.id;
}

export const isRemote = (c: ActiveConnection): c is Connection => c.id !== LOCAL_CONNECTION;

export function switchConnection(next: ActiveConnection): void {
  if (next.id === current.id && next.name === current.name && next.app_url === current.app_url) return;
  current = next;
  try {
    if (isRemote(next)) sessionStorage.setItem(STORAGE_KEY, next.id);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    /* storage off: the choice lasts until reload */
  }
  for (const l of listeners) l();
}

/** Once the list is known: the tab's remembered connection if it still exists, else local; a deleted current one falls back to local. */
export function reconcileConnections(list: readonly Connection[]): void {
  const wanted = isRemote(current) ? current.id : remembered();
  const found = wanted ? list.find((c) => c.id === wanted) : undefined;
  switchConnection(found ?? LOCAL);
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useConnection(): ActiveConnection {
  return useSyncExternalStore(subscribe, currentConnection, currentConnection);
}

/** The connection's own link to a document: {app_url}/documents?d=<id>. Null for the built-in service (its link is the console's). */
export function remoteDocumentUrl(c: ActiveConnection, documentId: string): string | null {
  return isRemote(c) ? `${c.app_url}/documents?d=${encodeURIComponent(documentId)}` : null;
}

/**
 * Maps a pasted document link to where it lives: `{app_url}/documents?d=<id>` of a
 * connection (or of the built-in service's console, `…/app/documents?d=`), or a bare id
 * for the current connection. Null when it is neither.
 */
export function mapDocumentLink(
  input: string,
  connections: readonly Connection[],
  localAppUrl: string | null,
  active: ActiveConnection,
): { connection: ActiveConnection; documentId: string } | null {
  const text = input.trim();
  if (/^doc_[0-9A-Za-z]+$/.test(text)) return { connection: active, documentId: text };
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  const id = u.searchParams.get('d');
  if (!id || !/^doc_[0-9A-Za-z]+$/.test(id) || !/\/documents\/?$/.test(u.pathname)) return null;
  const base = `${u.origin}${u.pathname.replace(/\/documents\/?$/, '')}`;
  const same = (appUrl: string) => appUrl.replace(/\/+$/, '') === base;
  const remote = connections.find((c) => same(c.app_url));
  if (remote) return { connection: remote, documentId: id };
  if (localAppUrl && same(localAppUrl)) return { connection: LOCAL, documentId: id };
  return null;
}
