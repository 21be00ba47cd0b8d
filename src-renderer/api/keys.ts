// Every query key of the console: one hierarchical factory per resource (TanStack
// Query 5 style). Invalidating a prefix refreshes everything under it (e.g.
// documentKeys.detail(id) covers the document, its timeline and its actions). A key
// always holds one type of data: two queries that share a key share one answer.
// Screens never write keys: they use the queryOptions of their resource's module.
//
// What the service answers depends on which service: the keys of documents and webhooks
// carry the connection (`local` or conn_…) right after their root, the current one unless
// a caller names it (the live stream names `local`: its changes are the built-in
// service's), so two connections' answers never share a cache entry.
import type { DocumentStatus } from '@shared/api-types.js';
import type { InspectorFilters } from '@shared/inspector-types.js';
import { LOCAL_CONNECTION } from '@shared/connection-types.js';
import { currentConnectionId } from './connection.js';

export { LOCAL_CONNECTION };

export interface DocumentListFilter {
  status?: DocumentStatus;
  q?: string;
  starting_after?: string;
}

export interface PageFilter {
  limit: number;
  starting_after?: string;
}

export const sessionKeys = { all: ['session'] as const };

export const statusKeys = { all: ['status'] as const };

/** The service's test clock (one for the whole service). */
export const clockKeys = { all: ['clock'] as const };

/** The scenarios and demo packs that ship (they change only with the app). */
export const scenarioKeys = {
  all: ['scenarios'] as const,
  list: () => ['scenarios', 'list'] as const,
  packs: () => ['scenarios', 'packs'] as const,
};

/**
 * The keys of a listed resource on one connection: all of it (every connection), one
 * connection's, its lists, one list (by its filter), and everything about one item (a prefix).
 */
function resourceKeys<const Root extends string, Filter>(root: Root) {
  const scope = (c: string = currentConnectionId()) => [root, c] as const;
  return {
    all: [root] as const,
    scope,
    lists: (c?: string) => [...scope(c), 'list'] as const,
    list: (f: Filter, c?: string) => [...scope(c), 'list', f] as const,
    detail: (id: string, c?: string) => [...scope(c), 'detail', id] as const,
  };
}

const documents = resourceKeys<'documents', DocumentListFilter>('documents');

export const documentKeys = {
  ...documents,
  doc: (id: string, c?: string) => [...documents.detail(id, c), 'doc'] as const,
  timeline: (id: string, c?: string) => [...documents.detail(id, c), 'timeline'] as const,
  actions: (id: string, c?: string) => [...documents.detail(id, c), 'actions'] as const,
};

const webhooks = resourceKeys<'webhooks', PageFilter>('webhooks');

export const webhookKeys = {
  ...webhooks,
  sub: (id: string, c?: string) => [...webhooks.detail(id, c), 'sub'] as const,
  secrets: (id: string, c?: string) => [...webhooks.detail(id, c), 'secrets'] as const,
  deliveries: (id: string, c?: string) => [...webhooks.detail(id, c), 'deliveries'] as const,
  deliveryPage: (id: string, f: PageFilter, c?: string) => [...webhooks.detail(id, c), 'deliveries', 'page', f] as const,
  delivery: (id: string, deliveryId: string, c?: string) => [...webhooks.detail(id, c), 'deliveries', 'one', deliveryId] as const,
};

/** The connections to real deployments, and each one's state and pending tunnel moves. */
export const connectionKeys = {
  all: ['connections'] as const,
  list: () => ['connections', 'list'] as const,
  check: (id: string) => ['connections', 'check', id] as const,
  moves: (id: string) => ['connections', 'moves', id] as const,
};

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => ['api-keys', 'list'] as const,
};

export interface NotificationFilter {
  document_id?: string;
  starting_after?: string;
}

export const notificationKeys = {
  all: ['notifications'] as const,
  list: (f: NotificationFilter) => ['notifications', 'list', f] as const,
};

/** The receiver's inboxes and the tunnel: the live stream refreshes the whole prefix. */
export const receiverKeys = {
  all: ['receiver'] as const,
  inboxes: () => ['receiver', 'inboxes'] as const,
  tunnel: () => ['receiver', 'tunnel'] as const,
};

/**
 * The inspector. Its merged list lives under its own root ['inspector-feed'], not
 * ['inspector']: the live stream refreshes ['inspector'] on every capture, which for a
 * list of many loaded pages would mean refetching all of them; the list is kept up to
 * date row by row instead (inspector-live.ts).
 */
export const inspectorKeys = {
  feeds: () => ['inspector-feed'] as const,
  feed: (f: InspectorFilters) => ['inspector-feed', f] as const,
  all: ['inspector'] as const,
  allStats: () => ['inspector', 'stats'] as const,
  stats: (f: InspectorFilters) => ['inspector', 'stats', f] as const,
  delivery: (id: string) => ['inspector', 'delivery', id] as const,
  capture: (id: string) => ['inspector', 'capture', id] as const,
  pairs: () => ['inspector', 'pair'] as const,
  pair: (captureId: string) => ['inspector', 'pair', captureId] as const,
};

/** A subscription's deliberate faults (test helpers), under its detail prefix. */
export const faultKeys = {
  of: (subscriptionId: string) => ['webhooks', 'detail', subscriptionId, 'faults'] as const,
};
