// GET /v2/test_helpers/connections over real HTTP: what `countersign listen --connection`
// reads with the command line's key. It says where each connection's key is kept (an
// environment variable's name, a file's path), never the key; only admins of the
// console's own company (Demo Company) may read it: a member and another company's admin
// are refused. Answers are checked against the OpenAPI document by the helper.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, otherCompanyAdmin, startTestBackend, type TestBackend } from '../helpers/backend.js';

const REMOTE_KEY = 'cs_remote_key_for_the_route_test_0001';
let t: TestBackend;
let keyDir: string;

beforeAll(async () => {
  keyDir = await mkdtemp(join(tmpdir(), 'countersign-keyfile-'));
  t = await startTestBackend({}, undefined, { env: { ROUTE_TEST_KEY: REMOTE_KEY } });
});
afterAll(async () => {
  await t?.destroy();
  await rm(keyDir, { recursive: true, force: true });
});

describe('GET /v2/test_helpers/connections', () => {
  it('lists every connection with where its key is, never the key', async () => {
    expect((await t.api('GET', '/v2/test_helpers/connections')).body).toEqual({ data: [] });
    const file = join(keyDir, 'key');
    await writeFile(file, `${REMOTE_KEY}\n`, { mode: 0o600 });
    const base = { base_url: 'https://api.example.com', app_url: 'https://app.example.com' };
    expect((await t.consoleApi('POST', '/connections', { name: 'From env', ...base, api_key_env: 'ROUTE_TEST_KEY' })).status).toBe(201);
    expect((await t.consoleApi('POST', '/connections', { name: 'From file', ...base, api_key_file: file })).status).toBe(201);

    const list = await t.api('GET', '/v2/test_helpers/connections');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({ name: 'From env', ...base, key_source: 'env', key_ref: 'ROUTE_TEST_KEY' }),
      expect.objectContaining({ name: 'From file', ...base, key_source: 'file', key_ref: file }),
    ]);
    expect(list.text).not.toContain(REMOTE_KEY);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual(
      (await t.consoleApi('GET', '/connections')).body.data.map((c: { id: string }) => c.id),
    );
  });

  it('is for admins of the console’s company only', async () => {
    const member = (await t.api('POST', '/v2/test_helpers/api_keys', { role: 'member' })).body.key;
    const asMember = await t.api('GET', '/v2/test_helpers/connections', undefined, member);
    expect(asMember.status).toBe(403);
    const other = await otherCompanyAdmin(t.backend, 'Other Co');
    const asOther = await t.api('GET', '/v2/test_helpers/connections', undefined, other);
    expect(asOther.status).toBe(403);
    expect(asOther.body.error.message).toContain('Demo Company');
    expect(asOther.text).not.toContain('From env');
    expect((await t.api('GET', '/v2/test_helpers/connections', undefined, null)).status).toBe(401);
    expect((await t.api('GET', '/v2/test_helpers/connections', undefined, ADMIN_KEY)).status).toBe(200);
  });
});
