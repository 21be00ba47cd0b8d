// Which cached queries a live change makes stale.
import { describe, expect, it } from 'vitest';
import { dedupeKeys, keysForChange } from '../../src-renderer/api/change-keys.js';
import {
  apiKeyKeys,
  documentKeys,
  inspectorKeys,
  notificationKeys,
  receiverKeys,
  statusKeys,
  webhookKeys,
} from '../../src-renderer/api/keys.js';

describe('keysForChange', () => {
  it('refreshes the document, its lists, and nothing of other documents', () => {
    const keys = keysForChange({ kind: 'document', company_id: 'co_1', id: 'doc_1' });
    expect(keys).toEqual([documentKeys.lists(), documentKeys.detail('doc_1')]);
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
    expect(keys).toEqual([webhookKeys.deliveries('wh_1'), documentKeys.timeline('doc_9')]);
    const test = keysForChange({
      kind: 'delivery',
      company_id: 'co',
      id: 'msg_2',
      subscription_id: 'wh_1',
      status: 'pending',
      document_id: null,
    });
    expect(test).toEqual([webhookKeys.deliveries('wh_1')]);
  });

  it('maps the other kinds to their lists', () => {
    expect(keysForChange({ kind: 'notification', company_id: 'c', id: 'n', document_id: 'd' })).toEqual([notificationKeys.all]);
    expect(keysForChange({ kind: 'api_key', company_id: 'c', id: 'k' })).toEqual([apiKeyKeys.all]);
    expect(keysForChange({ kind: 'subscription', company_id: 'c', id: 'wh_2' })).toEqual([webhookKeys.lists(), webhookKeys.sub('wh_2')]);
    expect(keysForChange({ kind: 'event', company_id: 'c', id: 'e', type: 'webhook.test', document_id: null })).toEqual([]);
    expect(keysForChange({ kind: 'tunnel', state: 'online' })).toEqual([statusKeys.all, receiverKeys.all]);
    expect(keysForChange({ kind: 'capture', inbox_id: 'inb_1', id: 'cap_1' })).toEqual([receiverKeys.all, inspectorKeys.all]);
    expect(keysForChange({ kind: 'inbox', id: 'inb_1' })).toEqual([receiverKeys.all, inspectorKeys.all]);
  });
});

describe('dedupeKeys', () => {
  it('drops duplicates and keys already covered by a shorter prefix', () => {
    const keys = dedupeKeys([
      documentKeys.timeline('d1'),
      documentKeys.detail('d1'),
      documentKeys.detail('d1'),
      documentKeys.timeline('d2'),
      documentKeys.lists(),
    ]);
    expect(keys).toEqual([documentKeys.detail('d1'), documentKeys.timeline('d2'), documentKeys.lists()]);
  });
});
