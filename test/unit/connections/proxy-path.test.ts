// Which paths a remote connection passes (connections/proxy.ts): the service's webhook
// and document routes, nothing else, and no way around the check.
import { describe, expect, it } from 'vitest';
import { remotePathAllowed } from '../../../src-main/backend/connections/proxy.js';

describe('remotePathAllowed', () => {
  it('passes the webhook and document routes a real deployment has', () => {
    for (const p of [
      '/v2/webhooks',
      '/v2/webhooks/wh_1',
      '/v2/webhooks/wh_1/test',
      '/v2/webhooks/wh_1/deliveries',
      '/v2/webhooks/wh_1/deliveries/msg_1',
      '/v2/webhooks/wh_1/deliveries/msg_1/redeliver',
      '/documents/doc_1',
      '/documents/doc_1/remind',
    ])
      expect(remotePathAllowed(p), p).toBe(true);
  });
  it('refuses test helpers, other routes, traversal and encoded separators', () => {
    for (const p of [
      '/',
      '/v2',
      '/v2/test_helpers/documents',
      '/documents',
      '/documents/doc_1/send',
      '/v2/webhooks/wh_1/x',
      '/v2/webhooks/wh_1/test/x',
      '/v2/webhooks/wh_1/deliveries/msg_1/redeliver/x',
      '/v2/webhooks/..',
      '/v2/webhooks/../../console/api/session',
      '/v2/webhooks/%2F..%2Fconsole',
      '/v2/webhooks/%2e%2e',
      '/documents/doc_1/',
      '//v2/webhooks',
      'v2/webhooks',
      '/v2/webhooks/a b',
    ])
      expect(remotePathAllowed(p), p).toBe(false);
  });
});
