// What a change from the live stream makes stale. Small references arrive (kinds and
// ids); the queries that show them are refetched. Pure, so it is tested on its own.
// Every change is the built-in service's, so its keys name the local connection.
import type { Change } from '@shared/api-types.js';
import {
  apiKeyKeys,
  clockKeys,
  documentKeys,
  inspectorKeys,
  LOCAL_CONNECTION as L,
  notificationKeys,
  receiverKeys,
  statusKeys,
  webhookKeys,
} from './keys.js';

export type QueryKey = readonly unknown[];

export function keysForChange(change: Change): QueryKey[] {
  switch (change.kind) {
    case 'document':
      return [documentKeys.lists(L), documentKeys.detail(change.id, L)];
    case 'event':
      return change.document_id ? [documentKeys.timeline(change.document_id, L)] : [];
    case 'delivery': {
      const keys: QueryKey[] = [webhookKeys.deliveries(change.subscription_id, L)];
      if (change.document_id) keys.push(documentKeys.timeline(change.document_id, L));
      return keys;
    }
    case 'subscription':
      return [webhookKeys.lists(L), webhookKeys.sub(change.id, L)];
    case 'notification':
      return [notificationKeys.all];
    case 'api_key':
      return [apiKeyKeys.all];
    case 'tunnel':
      return [statusKeys.all, receiverKeys.all];
    case 'capture':
    case 'inbox':
      return [receiverKeys.all, inspectorKeys.all];
    case 'clock':
      return [clockKeys.all];
  }
}

/** Drops keys covered by a shorter key in the same set (a prefix refresh covers them). */
export function dedupeKeys(keys: QueryKey[]): QueryKey[] {
  const byJson = new Map<string, QueryKey>();
  for (const k of keys) byJson.set(JSON.stringify(k), k);
  const unique = [...byJson.values()];
  const isPrefix = (p: QueryKey, k: QueryKey) => p.length < k.length && p.every((part, i) => JSON.stringify(part) === JSON.stringify(k[i]));
  return unique.filter((k) => !unique.some((p) => isPrefix(p, k)));
}
