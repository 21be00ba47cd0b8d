// The one rule for credential headers (src-shared/credential-headers.ts), used by the
// export file and by copy as curl on both sides.
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_REMOVED,
  isCredentialHeader,
  withoutCredentialPairs,
  withoutCredentials,
} from '../../../src-shared/credential-headers.js';

describe('credential headers', () => {
  it('are the named ones and any whose name says token, secret, key, auth, signature, password or session, in any case', () => {
    for (const name of [
      'Authorization',
      'proxy-authorization',
      'COOKIE',
      'Set-Cookie',
      'X-Api-Key',
      'x-console-token',
      'X-Auth-Token',
      'X-Shopify-Hmac-Sha256-Signature',
      'Stripe-Signature',
      'svix-signature',
      'X-Hub-Signature-256',
      'X-Webhook-Secret',
      'Api-Key',
      'X-Session-Id',
      'X-Password',
      'WWW-Authenticate',
    ])
      expect(isCredentialHeader(name), name).toBe(true);
  });

  it('are not the ordinary ones, nor the Standard Webhooks signature the inspector needs', () => {
    for (const name of ['Content-Type', 'User-Agent', 'webhook-id', 'webhook-timestamp', 'Webhook-Signature', 'Keep-Alive', 'X-Request-Id'])
      expect(isCredentialHeader(name), name).toBe(false);
  });

  it('lose their values, keeping names and order, in pairs and in records', () => {
    expect(
      withoutCredentialPairs([
        ['Content-Type', 'application/json'],
        ['Authorization', 'Bearer cs_live_abc'],
        ['webhook-signature', 'v1,abc'],
      ]),
    ).toEqual([
      ['Content-Type', 'application/json'],
      ['Authorization', CREDENTIAL_REMOVED],
      ['webhook-signature', 'v1,abc'],
    ]);
    expect(withoutCredentials({ 'set-cookie': 'sid=1', 'x-ok': '1' })).toEqual({ 'set-cookie': CREDENTIAL_REMOVED, 'x-ok': '1' });
  });
});
