// Subscriptions (docs/api.md section 6): shape, secret shown once, URL and secret rules,
// paging oldest first, the per-company limit, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashCopy, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { Store } from '../../src-main/backend/store/store.js';

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(() => t.destroy());

const create = (body: unknown, key?: string) => t.api('POST', '/v2/webhooks', body, key);

describe('create', () => {
  it('returns the subscription with its secret once; never again', async () => {
    const res = await create({ url: 'https://hooks.example.com/cs', type: 'document.completed' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      public_id: expect.stringMatching(/^wh_/),
      url: 'https://hooks.example.com/cs',
      type: 'document.completed',
      status: 'enabled',
      created_at: expect.any(String),
      secret_key: expect.stringMatching(/^whsec_/),
    });
    expect(Buffer.from(res.body.secret_key.slice(6), 'base64')).toHaveLength(32);
    const one = await t.api('GET', `/v2/webhooks/${res.body.public_id}`);
    expect(one.body.secret_key).toBeUndefined();
    expect(one.text).not.toContain(res.body.secret_key);
    const list = await t.api('GET', '/v2/webhooks');
    expect(list.text).not.toContain(res.body.secret_key);
    expect(list.body.data.find((s: { public_id: string }) => s.public_id === res.body.public_id)).toEqual(one.body);
  });
  it('accepts a given secret of 24 to 64 bytes and refuses others', async () => {
    const ok = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    expect((await create({ url: 'https://a.example', type: 'all', secret_key: ok })).body.secret_key).toBe(ok);
    expect(
      (await create({ url: 'https://a.example', type: 'all', secret_key: `whsec_${Buffer.alloc(64, 1).toString('base64')}` })).status,
    ).toBe(201);
    for (const bad of [
      `whsec_${Buffer.alloc(23).toString('base64')}`,
      `whsec_${Buffer.alloc(65).toString('base64')}`,
      'whsec_not base64!!',
      Buffer.alloc(32).toString('base64'),
      'whsec_',
      42,
    ]) {
      const res = await create({ url: 'https://a.example', type: 'all', secret_key: bad });
      expect(res.status, String(bad)).toBe(422);
      expect(res.body.error.details.fields[0].field).toBe('secret_key');
    }
  });
  it('accepts https anywhere and http only for loopback hosts', async () => {
    for (const url of [
      'https://example.com/x',
      'http://localhost:4011/in/a',
      'http://127.0.0.1/x',
      'http://127.9.8.7:9/x',
      'http://[::1]:8080/x',
    ]) {
      expect((await create({ url, type: 'all' })).status, url).toBe(201);
    }
    for (const url of [
      'http://example.com/x',
      'http://10.0.0.1/x',
      'ftp://example.com',
      'example.com/x',
      '/relative',
      `https://e.com/${'a'.repeat(2048)}`,
      'https://user:pw@example.com/',
      '',
    ]) {
      const res = await create({ url, type: 'all' });
      expect(res.status, url.slice(0, 40)).toBe(422);
      expect(res.body.error.details.fields[0].field).toBe('url');
    }
  });
  it('accepts all and every event type, and refuses anything else or missing fields', async () => {
    for (const type of ['all', 'document.sent', 'document.reminded', 'webhook.test'])
      expect((await create({ url: 'https://a.example', type })).status).toBe(201);
    const res = await create({});
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['type', 'url']);
    expect((await create({ url: 'https://a.example', type: 'document.*' })).status).toBe(422);
    expect((await create({ url: 'https://a.example', type: 'all', status: 'disabled' })).body.error.details.fields[0].field).toBe('status');
  });
});

describe('list, paging and limits', () => {
  let fresh: TestBackend;
  beforeAll(async () => {
    fresh = await startTestBackend();
  });
  afterAll(() => fresh.destroy());

  it('pages oldest first with limit and starting_after, and caps at 100 per company', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++)
      ids.push((await fresh.api('POST', '/v2/webhooks', { url: `https://h.example/${i}`, type: 'all' })).body.public_id);
    const over = await fresh.api('POST', '/v2/webhooks', { url: 'https://h.example/101', type: 'all' });
    expect(over.status).toBe(422);
    const first = await fresh.api('GET', '/v2/webhooks');
    expect(first.body.data).toHaveLength(50);
    expect(first.body.has_more).toBe(true);
    expect(first.body.data.map((s: { public_id: string }) => s.public_id)).toEqual(ids.slice(0, 50));
    const page = await fresh.api('GET', `/v2/webhooks?limit=30&starting_after=${ids[79]}`);
    expect(page.body.data.map((s: { public_id: string }) => s.public_id)).toEqual(ids.slice(80, 100));
    expect(page.body.has_more).toBe(false);
    const exact = await fresh.api('GET', `/v2/webhooks?limit=20&starting_after=${ids[79]}`);
    expect(exact.body.has_more).toBe(false);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5']) {
      const res = await fresh.api('GET', `/v2/webhooks?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.error.details.fields[0].field).toBe('limit');
    }
    expect((await fresh.api('GET', '/v2/webhooks?starting_after=wh_nope')).status).toBe(422);
  });
});

describe('delete', () => {
  it('answers 204 with an empty body, then 404; the store forgets it', async () => {
    const sub = (await create({ url: 'https://gone.example', type: 'all' })).body;
    const del = await t.api('DELETE', `/v2/webhooks/${sub.public_id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await t.api('GET', `/v2/webhooks/${sub.public_id}`)).status).toBe(404);
    expect((await t.api('DELETE', `/v2/webhooks/${sub.public_id}`)).status).toBe(404);
    const copy = await crashCopy(t.dataDir);
    const store = new Store(copy);
    await store.open();
    expect(store.subscriptions.has(sub.public_id)).toBe(false);
    await store.close();
  });
});
