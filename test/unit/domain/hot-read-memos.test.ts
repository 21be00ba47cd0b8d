// What the hot read keeps between requests (key-auth.ts, document-json.ts,
// listener-urls.ts) always answers as the store is now: a key whose record changed in
// any way is checked again, a document's bytes follow every change, and the app URL is
// one string per port. A real store in a temporary folder; no HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src-main/backend/store/store.js';
import { hashKey } from '../../../src-main/backend/domain/api-keys.js';
import { keyAuthenticator } from '../../../src-main/backend/domain/key-auth.js';
import { documentJsonReader } from '../../../src-main/backend/domain/document-json.js';
import { listenerUrls } from '../../../src-main/backend/listener-urls.js';
import type { DomainContext } from '../../../src-main/backend/domain/context.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-memos-'));
  store = new Store(dir);
  await store.open();
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const K1 = 'cs_test_key_one_0123456789';
const K2 = 'cs_test_key_two_0123456789';
const keyRow = {
  id: 'key_1',
  user_id: 'usr_1',
  company_id: 'co_1',
  role: 'admin' as const,
  hash: hashKey(K1),
  hint: '6789',
  label: 'k',
  created_at: '',
};

describe('the hot read between requests', () => {
  it('checks a key again once its record changes, and forgets a revoked one', () => {
    const auth = keyAuthenticator({ store } as DomainContext);
    store.apiKeys.insert(keyRow);
    const first = auth(K1);
    expect(first).toEqual({ company_id: 'co_1', user_id: 'usr_1', key_id: 'key_1', role: 'admin' });
    expect(auth(K1)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    store.apiKeys.update('key_1', { role: 'member' });
    expect(auth(K1)?.role).toBe('member');
    // The record now stands for another key: the first key, remembered, must not pass.
    store.apiKeys.update('key_1', { hash: hashKey(K2) });
    expect(auth(K2)?.key_id).toBe('key_1');
    expect(auth(K1)).toBeUndefined();
    store.apiKeys.remove('key_1');
    expect(auth(K2)).toBeUndefined();
    expect(auth(undefined)).toBeUndefined();
    expect(auth('')).toBeUndefined();
  });

  it("serves a document's bytes as it is now, only to its own company", () => {
    const urls = listenerUrls('127.0.0.1');
    urls.ports.api = 4010;
    const read = documentJsonReader({ store, appUrl: urls.appUrl } as DomainContext);
    store.documents.insert({
      public_id: 'doc_1',
      company_id: 'co_1',
      title: 'Lease',
      status: 'DRAFT',
      recipients: [{ public_id: 'rcp_1', name: 'Ann', email: 'ann@example.com', role: 'signer', status: 'pending', completed_at: null }],
      metadata: {},
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-01T00:00:00.000Z',
    });
    const first = read('co_1', 'doc_1')!;
    expect(JSON.parse(first.toString()).url).toBe('http://127.0.0.1:4010/app/documents?d=doc_1');
    expect(read('co_1', 'doc_1')).toBe(first);
    expect(read('co_2', 'doc_1')).toBeUndefined();
    expect(read('co_1', 'doc_2')).toBeUndefined();
    store.documents.update('doc_1', (d) => (d.recipients[0].status = 'viewed'));
    expect(JSON.parse(read('co_1', 'doc_1')!.toString()).recipients[0].status).toBe('viewed');
    urls.ports.api = 4020;
    expect(JSON.parse(read('co_1', 'doc_1')!.toString()).url).toBe('http://127.0.0.1:4020/app/documents?d=doc_1');
  });

  it('gives the same URL string while the port stays, a new one when it changes', () => {
    const urls = listenerUrls('127.0.0.1');
    urls.ports.api = 4010;
    urls.ports.receiver = 4011;
    const a = urls.appUrl();
    expect(a).toBe('http://127.0.0.1:4010/app');
    expect(urls.appUrl()).toBe(a);
    expect(urls.apiBase()).toBe('http://127.0.0.1:4010');
    expect(urls.receiverUrl()).toBe('http://127.0.0.1:4011');
    urls.ports.api = 5000;
    expect(urls.appUrl()).toBe('http://127.0.0.1:5000/app');
    expect(urls.apiBase()).toBe('http://127.0.0.1:5000');
  });
});
