// Connections to a real deployment, over real HTTP on loopback: a second backend plays
// "the real service"; the local one holds the connection (its key from the environment
// or a file, as headless has no keychain) and passes the console's calls through. What
// the console does is checked on the remote's own API. The remote going away and a
// remote that never answers give clear errors within the deadline, not a hang.
import { createServer, type Server } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allStoredText, startTestBackend, ADMIN_KEY, type TestBackend } from '../helpers/backend.js';
import { callApi } from '../helpers/http.js';

const ENV_NAME = 'REMOTE_COUNTERSIGN_KEY';
let remote: TestBackend;
let local: TestBackend;
let keyDir: string;
const env: Record<string, string | undefined> = {};

beforeAll(async () => {
  remote = await startTestBackend();
  env[ENV_NAME] = ADMIN_KEY;
  local = await startTestBackend({ remoteTimeoutMs: 1500 }, undefined, { env });
  keyDir = await mkdtemp(join(tmpdir(), 'countersign-keyfile-'));
});
afterAll(async () => {
  await local?.destroy();
  await remote?.destroy();
  await rm(keyDir, { recursive: true, force: true });
});

async function connect(name: string, key: Record<string, string>, base = remote.urls.api_url) {
  const res = await local.consoleApi('POST', '/connections', { name, base_url: base, app_url: 'http://127.0.0.1:9/app', ...key });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string; key_source: string; key_ref: string | null };
}

describe('connections: the key in headless mode', () => {
  it('refuses a typed key (no keychain here) and says where a key can come from', async () => {
    const res = await local.consoleApi('POST', '/connections', {
      name: 'Prod',
      base_url: remote.urls.api_url,
      app_url: 'https://app.example.com',
      api_key: 'cs_live_typed',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields).toEqual([{ field: 'api_key', message: expect.stringMatching(/environment variable.*file/) }]);
    const list = await local.consoleApi('GET', '/connections');
    expect(list.body.key_storage).toMatchObject({ keychain: false });
    expect(list.body.data.find((c: { name: string }) => c.name === 'Prod')).toBeUndefined();
  });

  it('checks that a named variable or file holds a key before saving', async () => {
    const unset = await local.consoleApi('POST', '/connections', {
      name: 'Prod',
      base_url: remote.urls.api_url,
      app_url: 'https://app.example.com',
      api_key_env: 'NOT_SET_ANYWHERE',
    });
    expect(unset.status).toBe(422);
    expect(unset.body.error.details.fields[0]).toMatchObject({ field: 'api_key_env', message: expect.stringMatching(/not set/) });
    const noFile = await local.consoleApi('POST', '/connections', {
      name: 'Prod',
      base_url: remote.urls.api_url,
      app_url: 'https://app.example.com',
      api_key_file: join(keyDir, 'missing'),
    });
    expect(noFile.status).toBe(422);
    expect(noFile.body.error.details.fields[0].field).toBe('api_key_file');
  });

  it('validates names and URLs field by field', async () => {
    const res = await local.consoleApi('POST', '/connections', {
      name: 'local',
      base_url: 'http://api.example.com',
      app_url: 'not a url',
      api_key_env: ENV_NAME,
      extra: 1,
    });
    expect(res.status).toBe(422);
    const fields = res.body.error.details.fields.map((f: { field: string }) => f.field).sort();
    expect(fields).toEqual(['app_url', 'base_url', 'extra', 'name']);
  });

  it('keeps the key out of the data directory and out of every answer', async () => {
    const c = await connect('From env', { api_key_env: ENV_NAME });
    expect(c).toMatchObject({ key_source: 'env', key_ref: ENV_NAME });
    const list = await local.consoleApi('GET', '/connections');
    expect(list.text).not.toContain(ADMIN_KEY);
    await local.backend.store.commit();
    expect(await allStoredText(local.dataDir)).not.toContain(ADMIN_KEY);
    const dup = await local.consoleApi('POST', '/connections', {
      name: 'FROM ENV',
      base_url: remote.urls.api_url,
      app_url: 'https://app.example.com',
      api_key_env: ENV_NAME,
    });
    expect(dup.status).toBe(422);
    expect(dup.body.error.details.fields[0]).toMatchObject({ field: 'name' });
  });

  it('reads a key file at each call, so a rotated key is used at once', async () => {
    const file = join(keyDir, 'key');
    await writeFile(file, 'cs_wrong_key\n');
    const c = await connect('From file', { api_key_file: file });
    const wrong = await local.consoleApi('GET', `/connections/${c.id}/remote/v2/webhooks`);
    expect(wrong.status).toBe(401);
    expect((await local.consoleApi('GET', `/connections/${c.id}/check`)).body).toMatchObject({ state: 'unauthorized' });
    await writeFile(file, `${ADMIN_KEY}\n`);
    expect((await local.consoleApi('GET', `/connections/${c.id}/remote/v2/webhooks`)).status).toBe(200);
    expect((await local.consoleApi('GET', `/connections/${c.id}/check`)).body).toMatchObject({ state: 'online' });
  });
});

describe('connections: the console API passes calls to the remote', () => {
  let id: string;
  beforeAll(async () => {
    id = (await connect('Staging', { api_key_env: ENV_NAME })).id;
  });

  it('creates a subscription on the remote (secret shown once) and deletes it, seen on the remote’s own API', async () => {
    const made = await local.consoleApi('POST', `/connections/${id}/remote/v2/webhooks`, {
      url: 'https://hooks.example.com/a',
      type: 'all',
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('x-countersign-connection')).toBe(id);
    expect(made.body.secret_key).toMatch(/^whsec_/);
    const onRemote = await remote.api('GET', `/v2/webhooks/${made.body.public_id}`);
    expect(onRemote.status).toBe(200);
    expect(onRemote.body).toMatchObject({ url: 'https://hooks.example.com/a' });
    expect(onRemote.body.secret_key).toBeUndefined();
    const listed = await local.consoleApi('GET', `/connections/${id}/remote/v2/webhooks?limit=100`);
    expect(listed.body.data.map((s: { public_id: string }) => s.public_id)).toContain(made.body.public_id);
    const del = await local.consoleApi('DELETE', `/connections/${id}/remote/v2/webhooks/${made.body.public_id}`);
    expect(del.status).toBe(204);
    expect((await remote.api('GET', `/v2/webhooks/${made.body.public_id}`)).status).toBe(404);
  });

  it('reads and changes a document by id, and sends a reminder', async () => {
    const doc = await remote.api('POST', '/v2/test_helpers/documents', {
      title: 'Lease',
      recipients: [{ name: 'Ann', email: 'ann@example.com' }],
    });
    await remote.api('POST', `/v2/test_helpers/documents/${doc.body.public_id}/send`);
    const path = `/connections/${id}/remote/documents/${doc.body.public_id}`;
    expect((await local.consoleApi('GET', path)).body).toMatchObject({ title: 'Lease' });
    const put = await local.consoleApi('PUT', path, { title: 'Lease v2', metadata: { ref: 'x' } });
    expect(put.status).toBe(200);
    expect((await remote.api('GET', `/documents/${doc.body.public_id}`)).body).toMatchObject({ title: 'Lease v2', metadata: { ref: 'x' } });
    const remind = await local.consoleApi('POST', `${path}/remind`);
    expect(remind.status).toBe(200);
  });

  it('shows the remote’s own error as it came', async () => {
    const direct = await remote.api('PUT', '/documents/doc_nope', { title: 'x' });
    const viaProxy = await local.consoleApi('PUT', `/connections/${id}/remote/documents/doc_nope`, { title: 'x' });
    expect(viaProxy.status).toBe(direct.status);
    expect(viaProxy.body).toEqual(direct.body);
    const invalid = await local.consoleApi('POST', `/connections/${id}/remote/v2/webhooks`, { url: 'ftp://x' });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual((await remote.api('POST', '/v2/webhooks', { url: 'ftp://x' })).body);
  });

  it('passes nothing but the webhooks and documents routes', async () => {
    // ("..", encoded slashes and the like: test/unit/connections/proxy-path.test.ts; fetch would normalize them away here.)
    for (const path of ['/v2/test_helpers/documents', '/console/api/session', '/documents', '/v2/webhooks/wh_1/x', '/v2/api_keys']) {
      const res = await local.consoleApi('POST', `/connections/${id}/remote${path}`, {});
      expect(res.status, path).toBe(404);
    }
    const unknown = await local.consoleApi('GET', '/connections/conn_nope/remote/v2/webhooks');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/connection/);
  });
});

describe('connections: a remote that goes away or never answers', () => {
  let silent: Server;
  let silentUrl: string;
  beforeAll(async () => {
    // Accepts connections and never answers: a hung service.
    silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    silent.close();
  });

  it('answers 504 remote_timeout within the deadline when the remote hangs', async () => {
    const c = await connect('Hung', { api_key_env: ENV_NAME }, silentUrl);
    const started = Date.now();
    const res = await local.consoleApi('GET', `/connections/${c.id}/remote/v2/webhooks`);
    expect(res.status).toBe(504);
    expect(res.body.error).toMatchObject({ code: 'remote_timeout', message: expect.stringMatching(/Hung did not answer within 1\.5 s/) });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await local.consoleApi('GET', `/connections/${c.id}/check`)).body).toMatchObject({ state: 'offline' });
  });

  it('answers 502 remote_unreachable when the remote stops mid-session, and works again when it is back', async () => {
    const second = await startTestBackend();
    const c = await connect('Going away', { api_key_env: ENV_NAME }, second.urls.api_url);
    expect((await local.consoleApi('GET', `/connections/${c.id}/remote/v2/webhooks`)).status).toBe(200);
    await second.stop();
    const res = await local.consoleApi('GET', `/connections/${c.id}/remote/v2/webhooks`);
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({
      code: 'remote_unreachable',
      message: expect.stringMatching(/Could not reach Going away.*offline/),
    });
    expect((await local.consoleApi('GET', `/connections/${c.id}/check`)).body).toMatchObject({ state: 'offline', duration_ms: null });
    await second.destroy();
  });

  it('answers 502 remote_invalid_response for an answer that is not JSON', async () => {
    // The local backend's console page is HTML: a base_url that points at it plays a misconfigured remote.
    const c = await connect('Wrong URL', { api_key_env: ENV_NAME }, `${local.urls.api_url}/app`);
    const res = await local.consoleApi('GET', `/connections/${c.id}/remote/v2/webhooks`);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('remote_invalid_response');
  });

  it('deletes a connection', async () => {
    const c = await connect('Short-lived', { api_key_env: ENV_NAME });
    expect((await local.consoleApi('DELETE', `/connections/${c.id}`)).status).toBe(204);
    expect((await local.consoleApi('GET', `/connections/${c.id}`)).status).toBe(404);
    expect((await local.consoleApi('DELETE', `/connections/${c.id}`)).status).toBe(404);
  });
});

it('the console API needs its token for connections too', async () => {
  const res = await callApi(local.urls.api_url, 'GET', '/console/api/connections');
  expect(res.status).toBe(401);
});
