// The console's current connection: query keys carry it (so two services' answers never
// share a cache entry), the live stream's changes name the built-in service, and a pasted
// document link maps to the connection whose web app it belongs to.
import { afterEach, describe, expect, it } from 'vitest';
import { hashKey, partialMatchKey } from '@tanstack/react-query';
import type { Connection } from '@shared/connection-types.js';
import {
  LOCAL,
  mapDocumentLink,
  reconcileConnections,
  remoteDocumentUrl,
  switchConnection,
  currentConnection,
} from '../../src-renderer/api/connection.js';
import { keysForChange } from '../../src-renderer/api/change-keys.js';
import { documentQuery } from '../../src-renderer/api/documents.js';
import { subscriptionListQuery, subscriptionQuery } from '../../src-renderer/api/webhooks.js';

const prod: Connection = {
  id: 'conn_prod',
  name: 'Production',
  base_url: 'https://api.example.com',
  app_url: 'https://app.example.com',
  key_source: 'env',
  key_ref: 'K',
  created_at: '2026-01-01T00:00:00.000Z',
};
const staging: Connection = { ...prod, id: 'conn_stg', name: 'Staging', app_url: 'https://staging.example.com/sign' };

afterEach(() => switchConnection(LOCAL));

describe('query keys carry the connection', () => {
  it('gives the same query on two connections two keys', () => {
    const local = subscriptionListQuery().queryKey;
    const localSub = subscriptionQuery('wh_1').queryKey;
    const localDoc = documentQuery('doc_1').queryKey;
    switchConnection(prod);
    expect(hashKey(subscriptionListQuery().queryKey)).not.toBe(hashKey(local));
    expect(hashKey(subscriptionQuery('wh_1').queryKey)).not.toBe(hashKey(localSub));
    expect(hashKey(documentQuery('doc_1').queryKey)).not.toBe(hashKey(localDoc));
    expect(subscriptionQuery('wh_1').queryKey).toContain('conn_prod');
  });

  it("refreshes only the built-in service's entries on a live change, whichever connection is current", () => {
    const localSub = subscriptionQuery('wh_1', 'local').queryKey;
    const remoteSub = subscriptionQuery('wh_1', 'conn_prod').queryKey;
    switchConnection(prod);
    const keys = keysForChange({ kind: 'subscription', id: 'wh_1' } as Parameters<typeof keysForChange>[0]);
    expect(keys.some((k) => partialMatchKey(localSub, k))).toBe(true);
    expect(keys.some((k) => partialMatchKey(remoteSub, k))).toBe(false);
  });
});

describe('the current connection', () => {
  it('falls back to local when the current one was deleted', () => {
    switchConnection(prod);
    reconcileConnections([staging]);
    expect(currentConnection()).toBe(LOCAL);
  });
  it("builds a remote's document link from its app_url, and none for local", () => {
    expect(remoteDocumentUrl(prod, 'doc_1')).toBe('https://app.example.com/documents?d=doc_1');
    expect(remoteDocumentUrl(LOCAL, 'doc_1')).toBeNull();
  });
});

describe('mapDocumentLink', () => {
  const all = [prod, staging];
  const localApp = 'http://127.0.0.1:4010/app';
  it("maps a connection's document link to that connection", () => {
    expect(mapDocumentLink('https://app.example.com/documents?d=doc_9', all, localApp, LOCAL)).toEqual({
      connection: prod,
      documentId: 'doc_9',
    });
    expect(mapDocumentLink(' https://staging.example.com/sign/documents/?d=doc_9 ', all, localApp, LOCAL)?.connection).toBe(staging);
    expect(mapDocumentLink('http://127.0.0.1:4010/app/documents?d=doc_9', all, localApp, prod)?.connection).toBe(LOCAL);
  });
  it('opens a bare id on the current connection', () => {
    expect(mapDocumentLink('doc_abc', all, localApp, staging)).toEqual({ connection: staging, documentId: 'doc_abc' });
  });
  it('refuses unknown apps, other paths and bad ids', () => {
    expect(mapDocumentLink('https://evil.example.com/documents?d=doc_9', all, localApp, LOCAL)).toBeNull();
    expect(mapDocumentLink('https://app.example.com/other?d=doc_9', all, localApp, LOCAL)).toBeNull();
    expect(mapDocumentLink('https://app.example.com/documents?d=<x>', all, localApp, LOCAL)).toBeNull();
    expect(mapDocumentLink('nonsense', all, localApp, LOCAL)).toBeNull();
  });
});
