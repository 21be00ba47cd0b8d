// Which cached queries a live change makes stale.
import { describe, expect, it } from 'vitest';
import { dedupeKeys, keysForChange } from '../../src-renderer/api/change-keys.js';
import { qk } from '../../src-renderer/api/keys.js';

describe('keysForChange', () => {
  it('refreshes the document, its lists, and nothing of other documents', () => {
    const keys = keysForChange({ kind: 'document', company_id: 'co_1', id: 'doc_1' });
    expect(keys).toEqual([qk.documents.lists(), qk.documents.detail('doc_1')]);
  });

  it('sends a delivery to its subscription log and to its document timeline', () => {
    const keys = keysForChange({
      kind: 'delivery',
      company_id: 'co',
      id: 'msg_1',
      subscription_id: 'wh_1',
      status: 'succeeded',
      document_id: 'doc_9',
    });
    expect(keys).toEqual([qk.webhooks.deliveries('wh_1'), qk.documents.timeline('doc_9')]);
    const test = keysForChange({
      kind: 'delivery',
      company_id: 'co',
      id: 'msg_2',
      subscription_id: 'wh_1',
      status: 'pending',
      document_id: null,
    });
    expect(test).toEqual([qk.webhooks.deliveries('wh_1')]);
  });

  it('maps the other kinds to their lists', () => {
    expect(keysForChange({ kind: 'notification', company_id: 'c', id: 'n', document_id: 'd' })).toEqual([qk.notifications.all]);
    expect(keysForChange({ kind: 'api_key', company_id: 'c', id: 'k' })).toEqual([qk.apiKeys.all]);
    expect(keysForChange({ kind: 'subscription', company_id: 'c', id: 'wh_2' })).toEqual([qk.webhooks.lists(), qk.webhooks.sub('wh_2')]);
    expect(keysForChange({ kind: 'event', company_id: 'c', id: 'e', type: 'webhook.test', document_id: null })).toEqual([]);
  });
});

describe('dedupeKeys', () => {
  it('drops duplicates and keys already covered by a shorter prefix', () => {
    const keys = dedupeKeys([
      qk.documents.timeline('d1'),
      qk.documents.detail('d1'),
      qk.documents.detail('d1'),
      qk.documents.timeline('d2'),
      qk.documents.lists(),
    ]);
    expect(keys).toEqual([qk.documents.detail('d1'), qk.documents.timeline('d2'), qk.documents.lists()]);
  });
});
