// The role and company matrix (docs/api.md section 4): admins and members of two
// companies against every route family; another company's ids answer exactly as unknown ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allStoredText, otherCompanyAdmin, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { hashKey } from '../../src-main/backend/domain/api-keys.js';

let t: TestBackend;
let keys: { adminA: string; memberA: string; adminB: string; memberB: string };
let docA: string;
let subA: string;

beforeAll(async () => {
  t = await startTestBackend();
  const mk = async (role: string) => (await t.api('POST', '/v2/test_helpers/api_keys', { role })).body.key as string;
  keys = { adminA: await mk('admin'), memberA: await mk('member'), adminB: await otherCompanyAdmin(t.backend, 'Other Co'), memberB: '' };
  keys.memberB = (await t.api('POST', '/v2/test_helpers/api_keys', { role: 'member' }, keys.adminB)).body.key;
  docA = (
    await t.api(
      'POST',
      '/v2/test_helpers/documents',
      { title: 'A doc', recipients: [{ name: 'Ann', email: 'ann@example.com' }] },
      keys.adminA,
    )
  ).body.public_id;
  subA = (await t.api('POST', '/v2/webhooks', { url: 'https://a.example/hook', type: 'all' }, keys.adminA)).body.public_id;
});
afterAll(() => t.destroy());

describe('roles', () => {
  it('API keys are shown once and stored only as hashes', async () => {
    const made = await t.api('POST', '/v2/test_helpers/api_keys', { role: 'member' });
    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^cs_/);
    expect(made.body.role).toBe('member');
    await t.backend.store.settle();
    expect(await allStoredText(t.dataDir)).not.toContain(made.body.key);
    expect(await allStoredText(t.dataDir)).toContain(made.body.id);
  });
  it('members can read and change documents but not webhooks or test helpers', async () => {
    expect((await t.api('GET', `/documents/${docA}`, undefined, keys.memberA)).status).toBe(200);
    expect((await t.api('PUT', `/documents/${docA}`, { title: 'By member' }, keys.memberA)).status).toBe(200);
    for (const [m, p, b] of [
      ['GET', '/v2/webhooks'],
      ['POST', '/v2/webhooks', { url: 'https://x.example', type: 'all' }],
      ['GET', `/v2/webhooks/${subA}`],
      ['DELETE', `/v2/webhooks/${subA}`],
      ['GET', `/v2/webhooks/${subA}/deliveries`],
      ['POST', `/v2/webhooks/${subA}/test`],
      ['POST', '/v2/test_helpers/documents', { title: 't', recipients: [{ name: 'a', email: 'a@b.co' }] }],
      ['POST', '/v2/test_helpers/api_keys', { role: 'admin' }],
    ] as [string, string, unknown?][]) {
      const res = await t.api(m, p, b, keys.memberA);
      expect(res.status, `${m} ${p}`).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
  });
});

describe('company isolation', () => {
  it('an admin cannot mint a key in another company, existing or not (issue 9 finding 6)', async () => {
    const store = t.backend.store;
    const counts = () => [store.companies.all().length, store.apiKeys.all().length, store.users.all().length];
    const before = counts();
    const existing = await t.api('POST', '/v2/test_helpers/api_keys', { role: 'admin', company: 'Other Co' }, keys.adminA);
    const unknown = await t.api('POST', '/v2/test_helpers/api_keys', { role: 'admin', company: 'Brand New Co' }, keys.adminA);
    for (const res of [existing, unknown]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(res.text).not.toMatch(/cs_/);
    }
    // The same answer either way: nothing said about which companies exist.
    expect(existing.body).toEqual(unknown.body);
    expect(counts()).toEqual(before);
    // Its own company, by name or by id, is still accepted.
    const ownId = store.apiKeys.byHash(hashKey(keys.adminA))!.company_id;
    const byName = await t.api('POST', '/v2/test_helpers/api_keys', { role: 'member', company: 'Demo Company' }, keys.adminA);
    const byId = await t.api('POST', '/v2/test_helpers/api_keys', { role: 'member', company: ownId }, keys.adminA);
    expect([byName.status, byId.status]).toEqual([201, 201]);
    expect([byName.body.company.id, byId.body.company.id]).toEqual([ownId, ownId]);
  });

  it("another company's document answers 404 exactly like an unknown one", async () => {
    for (const key of [keys.adminB, keys.memberB]) {
      const other = await t.api('GET', `/documents/${docA}`, undefined, key);
      const unknown = await t.api('GET', '/documents/doc_doesnotexist', undefined, key);
      expect(other.status).toBe(404);
      expect(other.body.error.code).toBe(unknown.body.error.code);
      expect(other.body.error.message).toBe(unknown.body.error.message);
      expect((await t.api('PUT', `/documents/${docA}`, { title: 'hijack' }, key)).status).toBe(404);
      expect((await t.api('POST', `/documents/${docA}/remind`, undefined, key)).status).toBe(404);
    }
    expect((await t.api('GET', `/documents/${docA}`, undefined, keys.adminA)).body.title).toBe('By member');
  });
  it("another company's subscriptions are invisible and untouchable", async () => {
    const listB = await t.api('GET', '/v2/webhooks', undefined, keys.adminB);
    expect(listB.body.data).toEqual([]);
    expect((await t.api('GET', `/v2/webhooks/${subA}`, undefined, keys.adminB)).status).toBe(404);
    expect((await t.api('DELETE', `/v2/webhooks/${subA}`, undefined, keys.adminB)).status).toBe(404);
    expect((await t.api('POST', `/v2/webhooks/${subA}/test`, undefined, keys.adminB)).status).toBe(404);
    expect((await t.api('GET', `/v2/webhooks/${subA}/deliveries`, undefined, keys.adminB)).status).toBe(404);
    expect((await t.api('POST', `/v2/test_helpers/documents/${docA}/send`, undefined, keys.adminB)).status).toBe(404);
    expect((await t.api('GET', `/v2/webhooks/${subA}`, undefined, keys.adminA)).status).toBe(200);
  });
  it("a company's events are delivered only to its own subscriptions", async () => {
    const docB = (
      await t.api(
        'POST',
        '/v2/test_helpers/documents',
        { title: 'B doc', recipients: [{ name: 'Bo', email: 'bo@example.com' }] },
        keys.adminB,
      )
    ).body.public_id;
    await t.api('POST', `/v2/test_helpers/documents/${docB}/send`, undefined, keys.adminB);
    const logA = await t.api('GET', `/v2/webhooks/${subA}/deliveries?limit=100`, undefined, keys.adminA);
    expect(logA.body.data.some((d: { document_id: string }) => d.document_id === docB)).toBe(false);
    expect(logA.body.data.some((d: { document_id: string }) => d.document_id === docA)).toBe(true);
  });
});
