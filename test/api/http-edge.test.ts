// The HTTP edge's defects, over real HTTP on loopback: malformed percent-escapes in a
// path (400, not 500), query parameters given twice or in bracket form (422 on the
// field, not silently the first page), compressed bodies (415, not 400), and the Host
// check of the service API and its fast read (DNS rebinding), with the names a user
// adds through COUNTERSIGN_ALLOWED_HOSTS. The receiver is not Host-checked.
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_KEY, startTestBackend, type ApiResponse, type TestBackend } from '../helpers/backend.js';

let t: TestBackend;
let port: number;
const errors = vi.spyOn(console, 'error');

beforeAll(async () => {
  t = await startTestBackend();
  port = Number(new URL(t.urls.api_url).port);
});
afterAll(() => t.destroy());
afterEach(() => {
  // None of these is a defect: nothing may reach the 500 path's log.
  const logged = errors.mock.calls.map((c) => String(c[1] ?? c[0]));
  errors.mockClear();
  expect(logged).toEqual([]);
});

/** A request with any Host header (fetch always sends the URL's own). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<ApiResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode!, headers: new Headers(res.headers as Record<string, string>), body: parsed, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function expectError(res: ApiResponse, status: number, code: string, field?: string) {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error.code).toBe(code);
  expect(res.text).not.toMatch(/\n\s+at |src-main|node_modules|URIError/);
  if (field) expect(res.body.error.details.fields).toEqual([{ field, message: expect.any(String) }]);
}

async function subscription(): Promise<string> {
  const res = await t.api('POST', '/v2/webhooks', { url: 'https://example.com/hook', type: 'all' });
  return res.body.public_id;
}

describe('a malformed percent-escape in a path is 400 invalid_request', () => {
  it('on the service API, after the key is checked', async () => {
    const sub = await subscription();
    for (const path of ['/documents/%', '/documents/%zz', '/documents/%FF', '/v2/webhooks/%', `/v2/webhooks/${sub}/deliveries/%`]) {
      expectError(await t.api('GET', path), 400, 'invalid_request');
    }
    expectError(await t.api('PUT', '/documents/%', { title: 'x' }), 400, 'invalid_request');
    expectError(await t.api('GET', '/documents/%', undefined, null), 401, 'unauthorized');
  });

  it('on the console API and page', async () => {
    for (const path of ['/captures/%', '/inspector/captures/%', '/inboxes/%25%', '/documents/%/timeline']) {
      expectError(await t.consoleApi('GET', path), 400, 'invalid_request');
    }
    expectError(await send(t.urls.api_url, 'GET', '/app/%', { host: `127.0.0.1:${port}` }), 400, 'invalid_request');
  });

  it('on the receiver, outside an inbox; inside one the request is captured as it came', async () => {
    for (const path of ['/in/%', '/in/%zz/x', '/%']) {
      const res = await fetch(t.urls.receiver_url + path, { method: 'POST', body: '{}' });
      expectError(
        { status: res.status, headers: res.headers, text: await res.clone().text(), body: await res.json() },
        400,
        'invalid_request',
      );
    }
    expect((await fetch(`${t.urls.receiver_url}/nothing`)).status).toBe(404);
    const inbox = (await t.consoleApi('POST', '/inboxes', { name: 'Odd paths' })).body;
    const res = await fetch(`${t.urls.receiver_url}/in/${inbox.id}/%`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    const capture = (await t.consoleApi('GET', `/captures/${res.headers.get('x-countersign-capture')}`)).body;
    expect(capture.path).toBe(`/in/${inbox.id}/%`);
  });
});

describe('a paging parameter given twice or in bracket form is 422 on that field', () => {
  it('on the service API lists', async () => {
    const sub = await subscription();
    for (const [query, field] of [
      ['starting_after[]=x', 'starting_after'],
      ['starting_after[0]=x', 'starting_after'],
      ['limit[]=5', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['starting_after=a&starting_after=b', 'starting_after'],
      ['limit=5&limit[]=5', 'limit'],
    ]) {
      expectError(await t.api('GET', `/v2/webhooks?${query}`), 422, 'validation_error', field);
      expectError(await t.api('GET', `/v2/webhooks/${sub}/deliveries?${query}`), 422, 'validation_error', field);
    }
    // Parameters a list does not know are still ignored, in any form.
    expect((await t.api('GET', '/v2/webhooks?expand[]=x&limit=1')).status).toBe(200);
  });

  it('on the console’s lists and filters', async () => {
    const inbox = (await t.consoleApi('POST', '/inboxes', { name: 'Paging' })).body;
    expectError(await t.consoleApi('GET', '/documents?status[]=DRAFT'), 422, 'validation_error', 'status');
    expectError(await t.consoleApi('GET', '/notifications?limit[]=1'), 422, 'validation_error', 'limit');
    expectError(await t.consoleApi('GET', `/inboxes/${inbox.id}/captures?starting_after[]=x`), 422, 'validation_error', 'starting_after');
    expectError(await t.consoleApi('GET', '/inspector/feed?limit=1&limit=2'), 422, 'validation_error', 'limit');
  });
});

describe('a compressed body is 415 unsupported_media_type', () => {
  const json = JSON.stringify({ url: 'https://example.com/gz', type: 'all' });
  const headers = (encoding: string) => ({
    host: `127.0.0.1:${port}`,
    'x-api-key': ADMIN_KEY,
    'content-type': 'application/json',
    'content-encoding': encoding,
  });

  it('on the service API, for gzip and any other encoding; identity is plain', async () => {
    for (const encoding of ['gzip', 'deflate', 'br', 'x-custom']) {
      const res = await send(t.urls.api_url, 'POST', '/v2/webhooks', headers(encoding), gzipSync(json));
      expectError(res, 415, 'unsupported_media_type');
      expect(res.body.error.message).toMatch(/unsupported content encoding/i);
    }
    expect((await send(t.urls.api_url, 'POST', '/v2/webhooks', headers('identity'), json)).status).toBe(201);
  });

  it('on the console API', async () => {
    const res = await send(
      t.urls.api_url,
      'POST',
      '/console/api/inboxes',
      { ...headers('gzip'), 'x-console-token': t.backend.consoleToken },
      gzipSync('{}'),
    );
    expectError(res, 415, 'unsupported_media_type');
  });
});

describe('the service API checks Host (DNS rebinding)', () => {
  let doc: string;
  beforeAll(async () => {
    const made = await t.api('POST', '/v2/test_helpers/documents', { title: 'Host', recipients: [{ name: 'A', email: 'a@b.co' }] });
    doc = made.body.public_id;
  });
  const call = (host: string, method = 'GET', path = '/v2/webhooks', key: string | null = ADMIN_KEY) =>
    send(t.urls.api_url, method, path, { host, ...(key ? { 'x-api-key': key } : {}) });

  it('refuses another name with a valid key, on every route, the fast read included, before the key', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `127.0.0.2:${port}`]) {
      expectError(await call(host), 403, 'forbidden');
      expectError(await call(host, 'GET', `/documents/${doc}`), 403, 'forbidden');
      expectError(await call(host, 'POST', `/documents/${doc}/remind`), 403, 'forbidden');
      expectError(await call(host, 'GET', '/v2/webhooks', null), 403, 'forbidden');
    }
  });

  it('answers under the loopback names', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await call(host)).status, host).toBe(200);
      expect((await call(host, 'GET', `/documents/${doc}`)).body.public_id).toBe(doc);
    }
  });

  it('does not check the receiver, which a tunnel reaches under a public name', async () => {
    const inbox = (await t.consoleApi('POST', '/inboxes', { name: 'Tunnelled' })).body;
    const res = await send(
      t.urls.receiver_url,
      'POST',
      `/in/${inbox.id}`,
      { host: 'abc123.ngrok-free.app', 'content-type': 'application/json' },
      '{}',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-countersign-capture')).toMatch(/^cap_/);
  });
});

describe('COUNTERSIGN_ALLOWED_HOSTS', () => {
  let named: TestBackend;
  let namedPort: number;
  beforeAll(async () => {
    named = await startTestBackend({ allowedHosts: ['api.example.test', 'proxy.test:8443'] });
    namedPort = Number(new URL(named.urls.api_url).port);
  });
  afterAll(() => named.destroy());

  it('adds names to the service API, its fast read and the console', async () => {
    const doc = (await named.api('POST', '/v2/test_helpers/documents', { title: 'N', recipients: [{ name: 'A', email: 'a@b.co' }] })).body;
    for (const host of ['api.example.test', `api.example.test:${namedPort}`, 'proxy.test:8443']) {
      expect((await send(named.urls.api_url, 'GET', '/v2/webhooks', { host, 'x-api-key': ADMIN_KEY })).status, host).toBe(200);
      expect((await send(named.urls.api_url, 'GET', `/documents/${doc.public_id}`, { host, 'x-api-key': ADMIN_KEY })).status).toBe(200);
      const session = await send(named.urls.api_url, 'GET', '/console/api/session', {
        host,
        'x-console-token': named.backend.consoleToken,
        origin: `http://${host}`,
      });
      expect(session.status, host).toBe(200);
    }
    for (const host of ['proxy.test', `proxy.test:${namedPort}`, 'other.test']) {
      expectError(await send(named.urls.api_url, 'GET', '/v2/webhooks', { host, 'x-api-key': ADMIN_KEY }), 403, 'forbidden');
    }
  });
});
