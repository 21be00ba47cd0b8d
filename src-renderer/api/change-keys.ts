// What a change from the live stream makes stale. Small references arrive (kinds and
// ids); the queries that show them are refetched. Pure, so it is tested on its own.
import type { Change } from '@shared/api-types.js';
import { qk } from './keys.js';

export type QueryKey = readonly unknown[];

export function keysForChange(change: Change): QueryKey[] {
  switch (change.kind) {
    case 'document':
      return [qk.documents.lists(), qk.documents.detail(change.id)];
    case 'event':
      return change.document_id ? [qk.documents.timeline(change.document_id)] : [];
    case 'delivery': {
      const keys: QueryKey[] = [qk.webhooks.deliveries(change.subscription_id)];
      if (change.document_id) keys.push(qk.documents.timeline(change.document_id));
      return keys;
    }
    case 'subscription':
      return [qk.webhooks.lists(), qk.webhooks.sub(change.id)];
    case 'notification':
      return [qk.notifications.all];
    case 'api_key':
      return [qk.apiKeys.all];
    case 'tunnel':
      return [qk.status, ['receiver']];
    case 'capture':
    case 'inbox':
      return [['receiver'], ['inspector']];
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
