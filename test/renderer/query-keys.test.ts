// Every query of the console, built from its resource's key factory: no key is shared by
// two queries of different data, and each live change reaches exactly the queries that
// show what it names (and never the inspector's list, which is merged row by row).
import { describe, expect, it } from 'vitest';
import { hashKey, partialMatchKey, type QueryKey } from '@tanstack/react-query';
import { keysForChange } from '../../src-renderer/api/change-keys.js';
import { apiKeysQuery } from '../../src-renderer/api/api-keys.js';
import { actionsQuery, documentListQuery, documentQuery, timelineQuery } from '../../src-renderer/api/documents.js';
import { captureDetailQuery, deliveryDetailQuery, feedQuery, pairQuery, statsQuery } from '../../src-renderer/api/inspector.js';
import { notificationsQuery } from '../../src-renderer/api/notifications.js';
import { inboxListQuery, tunnelQuery } from '../../src-renderer/api/receiver.js';
import { sessionQuery, statusQuery } from '../../src-renderer/api/session.js';
import {
  allSubscriptionsQuery,
  deliveryPageQuery,
  deliveryQuery,
  subscriptionListQuery,
  subscriptionQuery,
} from '../../src-renderer/api/webhooks.js';

const QUERIES: Record<string, QueryKey> = {
  session: sessionQuery().queryKey,
  status: statusQuery().queryKey,
  documentList: documentListQuery({ status: 'DRAFT' }).queryKey,
  document: documentQuery('doc_1').queryKey,
  timeline: timelineQuery('doc_1').queryKey,
  actions: actionsQuery('doc_1').queryKey,
  otherDocument: documentQuery('doc_2').queryKey,
  subscriptionList: subscriptionListQuery().queryKey,
  subscription: subscriptionQuery('wh_1').queryKey,
  deliveryPage: deliveryPageQuery('wh_1', { limit: 1 }).queryKey,
  delivery: deliveryQuery('wh_1', 'msg_1').queryKey,
  otherSubscription: subscriptionQuery('wh_2').queryKey,
  apiKeys: apiKeysQuery().queryKey,
  notifications: notificationsQuery({ document_id: 'doc_1' }).queryKey,
  inboxes: inboxListQuery().queryKey,
  tunnel: tunnelQuery().queryKey,
  feed: feedQuery({}).queryKey,
  stats: statsQuery({}).queryKey,
  inspectorDelivery: deliveryDetailQuery('msg_1').queryKey,
  capture: captureDetailQuery('cap_1').queryKey,
  pair: pairQuery('cap_1').queryKey,
};

/** The queries a change refreshes, by name. */
const refreshed = (change: Parameters<typeof keysForChange>[0]) =>
  Object.entries(QUERIES)
    .filter(([, key]) => keysForChange(change).some((prefix) => partialMatchKey(key, prefix)))
    .map(([name]) => name)
    .sort();

describe('query keys', () => {
  it('never give two queries the same key', () => {
    const hashes = Object.values(QUERIES).map((k) => hashKey(k));
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('let the subscription choices share a list’s entry, holding the same data (a page of 100; `select` picks from it)', () => {
    expect(allSubscriptionsQuery().queryKey).toEqual(subscriptionListQuery({ limit: 100 }).queryKey);
    expect(hashKey(allSubscriptionsQuery().queryKey)).not.toBe(hashKey(QUERIES.subscriptionList));
  });

  it('are refreshed by exactly the live changes that concern them', () => {
    expect(refreshed({ kind: 'document', company_id: 'co', id: 'doc_1' })).toEqual(['actions', 'document', 'documentList', 'timeline']);
    expect(
      refreshed({ kind: 'delivery', company_id: 'co', id: 'msg_1', subscription_id: 'wh_1', status: 'succeeded', document_id: 'doc_1' }),
    ).toEqual(['delivery', 'deliveryPage', 'timeline']);
    expect(refreshed({ kind: 'subscription', company_id: 'co', id: 'wh_1' })).toEqual(['subscription', 'subscriptionList']);
    expect(refreshed({ kind: 'notification', company_id: 'co', id: 'n', document_id: 'doc_1' })).toEqual(['notifications']);
    expect(refreshed({ kind: 'api_key', company_id: 'co', id: 'k' })).toEqual(['apiKeys']);
    expect(refreshed({ kind: 'tunnel', state: 'online' })).toEqual(['inboxes', 'status', 'tunnel']);
    // Captures refresh the receiver and the inspector's chart and details, never its list.
    expect(refreshed({ kind: 'capture', inbox_id: 'inb_1', id: 'cap_1' })).toEqual([
      'capture',
      'inboxes',
      'inspectorDelivery',
      'pair',
      'stats',
      'tunnel',
    ]);
  });
});
