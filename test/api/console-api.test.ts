// The console mount over real HTTP on loopback: the guard (token, Host, Origin), the
// absence of CORS headers, the page's security headers and deep-link fallback, the
// console-only routes, and the live stream's company filter and cleanup.
import { OutgoingMessage, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../helpers/config.js';
import { createBackend, type Backend, type BackendAddresses } from '../../src-main/backend/index.js';
import { otherCompanyAdmin } from '../helpers/backend.js';
import { CONSOLE_CSP } from '../../src-main/backend/console-api/static.js';

const TOKEN = 'console-test-token-0123456789';
const ADMIN = 'cs_console_api_test_admin_key_000';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
}

let dir: string;
let rendererDir: string;
let backend: Backend;
let urls: BackendAddresses;
let port: number;

function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const authed = (extra: Record<string, string> = {}) => ({ 'x-console-token': TOKEN, ...extra });

function expectNoCors(headers: IncomingHttpHeaders) {
  for (const name of Object.keys(headers)) expect(name.toLowerCase().startsWith('access-control-')).toBe(false);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-console-api-'));
  rendererDir = join(dir, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>console page</title><div id="root"></div>');
  await writeFile(join(rendererDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  backend = createBackend(testConfig(join(dir, 'data'), { consoleToken: TOKEN, adminKey: ADMIN }), { rendererDir, tunnelAutostart: false });
  urls = await backend.start();
  port = Number(new URL(urls.api_url).port);
});

afterAll(async () => {
  await backend?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('console API guard', () => {
  it('answers 401 in the contract shape without the token, and with a wrong one', async () => {
    for (const headers of [{}, { 'x-console-token': 'wrong' }, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
      const res = await raw('GET', '/console/api/session', headers);
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('unauthorized');
      expect(typeof res.json.error.message).toBe('string');
      expectNoCors(res.headers);
    }
  });

  it('accepts the token as X-Console-Token or as a Bearer token', async () => {
    const a = await raw('GET', '/console/api/session', authed());
    expect(a.status).toBe(200);
    expect(a.json.company_name).toBe('Demo Company');
    expect(a.json.api_key).toMatch(/^cs_/);
    expect(a.headers['cache-control']).toBe('no-store');
    const b = await raw('GET', '/console/api/session', { authorization: `Bearer ${TOKEN}` });
    expect(b.status).toBe(200);
    // One session per run: every tab gets the same key.
    expect(b.json.api_key).toBe(a.json.api_key);
  });

  it('refuses a Host that is not the listener’s own name (DNS rebinding), token or not', async () => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${port + 1}`]) {
      const res = await raw('GET', '/console/api/session', authed({ host }));
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('forbidden');
    }
    const page = await raw('GET', '/app/', { host: `rebound.example:${port}` });
    expect(page.status).toBe(403);
    const ok = await raw('GET', '/console/api/session', authed({ host: `localhost:${port}` }));
    expect(ok.status).toBe(200);
  });

  it('refuses a foreign Origin on state-changing requests and on the stream, even with the token', async () => {
    const body = JSON.stringify({ role: 'member' });
    const json = { 'content-type': 'application/json' };
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${port + 1}`]) {
      const post = await raw('POST', '/console/api/api-keys', authed({ ...json, origin }), body);
      expect(post.status).toBe(403);
      expectNoCors(post.headers);
      const del = await raw('DELETE', '/console/api/api-keys/key_x', authed({ origin }));
      expect(del.status).toBe(403);
      const stream = await raw('GET', '/console/api/stream', authed({ origin }));
      expect(stream.status).toBe(403);
    }
    const crossSite = await raw('POST', '/console/api/api-keys', authed({ ...json, 'sec-fetch-site': 'cross-site' }), body);
    expect(crossSite.status).toBe(403);
    const same = await raw(
      'POST',
      '/console/api/api-keys',
      authed({ ...json, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' }),
      body,
    );
    expect(same.status).toBe(201);
    expect(same.json.key).toMatch(/^cs_/);
  });

  it('writes no CORS headers, preflights included', async () => {
    const pre = await raw('OPTIONS', '/console/api/api-keys', { origin: 'http://evil.example', 'access-control-request-method': 'POST' });
    expect([401, 403]).toContain(pre.status);
    expectNoCors(pre.headers);
    const ok = await raw('GET', '/console/api/status', authed());
    expect(ok.status).toBe(200);
    expectNoCors(ok.headers);
  });

  it('answers unknown console routes 404 itself (never the service API) and bad JSON 400, with no stack', async () => {
    const missing = await raw('GET', '/console/api/nope', authed());
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('not_found');
    const bad = await raw('POST', '/console/api/api-keys', authed({ 'content-type': 'application/json' }), '{"role":');
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_json');
    expect(bad.text).not.toMatch(/at .*\.(js|ts):\d+/);
  });
});

describe('session cookie', () => {
  const cookieName = () => `countersign_console_${port}`;
  const signIn = async () => {
    const res = await raw('POST', '/console/api/sign-in', authed({ 'sec-fetch-site': 'same-origin' }));
    expect(res.status).toBe(204);
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(set).toHaveLength(1);
    return set[0];
  };
  const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({ cookie, ...extra });

  it('is set only for the token: HttpOnly, SameSite=Strict, scoped to /console/api, named for the port, not the token', async () => {
    const noToken = await raw('POST', '/console/api/sign-in', { 'sec-fetch-site': 'same-origin' });
    expect(noToken.status).toBe(401);
    expect(noToken.headers['set-cookie']).toBeUndefined();
    const wrong = await raw('POST', '/console/api/sign-in', { 'x-console-token': 'wrong', 'sec-fetch-site': 'same-origin' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const set = await signIn();
    const [pair, ...attrs] = set.split(';').map((p) => p.trim());
    expect(pair.startsWith(`${cookieName()}=`)).toBe(true);
    expect(pair).not.toContain(TOKEN);
    expect(attrs).toEqual(expect.arrayContaining(['Path=/console/api', 'HttpOnly', 'SameSite=Strict']));
    expect(attrs.some((a) => /^(Expires|Max-Age|Domain)=/i.test(a))).toBe(false);
  });

  it('speaks for a same-origin browser request, reads and writes, with no token', async () => {
    const cookie = (await signIn()).split(';')[0];
    const read = await raw('GET', '/console/api/session', withCookie(cookie, { 'sec-fetch-site': 'same-origin' }));
    expect(read.status).toBe(200);
    expect(read.json.company_name).toBe('Demo Company');
    const write = await raw(
      'POST',
      '/console/api/api-keys',
      withCookie(cookie, { 'sec-fetch-site': 'same-origin', origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json' }),
      JSON.stringify({ role: 'member', label: 'by cookie' }),
    );
    expect(write.status).toBe(201);
  });

  it('is refused from another site, another origin of this site, a typed or followed link, and without Sec-Fetch-Site', async () => {
    const cookie = (await signIn()).split(';')[0];
    const json = { 'content-type': 'application/json' };
    const cases: [Record<string, string>, number][] = [
      [{ 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' }, 403],
      [{ 'sec-fetch-site': 'same-site', origin: `http://127.0.0.1:${port + 1}` }, 403],
      [{ 'sec-fetch-site': 'same-site' }, 403],
      [{ 'sec-fetch-site': 'none' }, 401],
      [{}, 401],
      [{ 'sec-fetch-site': 'same-origin', origin: 'http://evil.example' }, 403],
    ];
    for (const [headers, status] of cases) {
      const read = await raw('GET', '/console/api/session', withCookie(cookie, headers));
      expect(read.status, JSON.stringify(headers)).toBe(status);
      const write = await raw(
        'POST',
        '/console/api/api-keys',
        withCookie(cookie, { ...headers, ...json }),
        JSON.stringify({ role: 'admin' }),
      );
      expect(write.status, JSON.stringify(headers)).toBe(status);
    }
    const forged = await raw('GET', '/console/api/session', withCookie(`${cookieName()}=${TOKEN}`, { 'sec-fetch-site': 'same-origin' }));
    expect(forged.status).toBe(401);
    const otherPort = await raw(
      'GET',
      '/console/api/session',
      withCookie(`countersign_console_${port + 1}=${cookie.split('=')[1]}`, { 'sec-fetch-site': 'same-origin' }),
    );
    expect(otherPort.status).toBe(401);
  });

  it('is removed by signing out', async () => {
    const cookie = (await signIn()).split(';')[0];
    const out = await raw('POST', '/console/api/sign-out', withCookie(cookie, { 'sec-fetch-site': 'same-origin' }));
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(new RegExp(`^${cookieName()}=;.*Max-Age=0`));
  });
});

describe('console page under /app', () => {
  it('serves the page with a strict CSP and no-cache, for deep links too', async () => {
    for (const path of ['/app', '/app/', '/app/documents?d=doc_abc', '/app/settings/webhooks']) {
      const res = await raw('GET', path);
      expect(res.status).toBe(200);
      expect(res.text).toContain('console page');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-cache');
      expectNoCors(res.headers);
    }
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).not.toContain('unsafe');
  });

  it('caches hashed assets for good and answers a missing file 404, not the page', async () => {
    const asset = await raw('GET', '/app/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['content-security-policy']).toBe(CONSOLE_CSP);
    const missing = await raw('GET', '/app/assets/missing-000.js');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('console page');
  });

  it('says plainly that the console is not built when the renderer folder is missing', async () => {
    const other = createBackend(testConfig(join(dir, 'data2'), { consoleToken: TOKEN }), {
      rendererDir: join(dir, 'absent'),
      tunnelAutostart: false,
    });
    const u = await other.start();
    try {
      const res = await fetch(`${u.app_url}/`);
      expect(res.status).toBe(503);
      expect(await res.text()).toContain('npm run build');
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    } finally {
      await other.stop();
    }
  });
});

describe('console routes', () => {
  const service = async (method: string, path: string, body?: unknown, key = ADMIN) => {
    const res = await fetch(urls.api_url + path, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (res.status === 204 ? undefined : await res.json()) as any };
  };

  it('lists documents newest first with status filter, search and paging', async () => {
    const made = [];
    for (const title of ['Alpha lease', 'Beta contract', 'Gamma lease']) {
      made.push(
        (await service('POST', '/v2/test_helpers/documents', { title, recipients: [{ name: 'Ann Signer', email: 'ann@example.com' }] }))
          .body,
      );
    }
    await service('POST', `/v2/test_helpers/documents/${made[1].public_id}/send`, {});
    const all = await raw('GET', '/console/api/documents?limit=2', authed());
    expect(all.json.data.map((d: any) => d.title)).toEqual(['Gamma lease', 'Beta contract']);
    expect(all.json.has_more).toBe(true);
    const next = await raw('GET', `/console/api/documents?limit=2&starting_after=${all.json.data[1].public_id}`, authed());
    expect(next.json.data.map((d: any) => d.title)).toEqual(['Alpha lease']);
    const sent = await raw('GET', '/console/api/documents?status=OUT_FOR_SIGNATURE', authed());
    expect(sent.json.data.map((d: any) => d.public_id)).toEqual([made[1].public_id]);
    const lease = await raw('GET', '/console/api/documents?q=LEASE', authed());
    expect(lease.json.data).toHaveLength(2);
    const bad = await raw('GET', '/console/api/documents?status=NOPE', authed());
    expect(bad.status).toBe(422);
    expect(bad.json.error.details.fields[0].field).toBe('status');

    const timeline = await raw('GET', `/console/api/documents/${made[1].public_id}/timeline`, authed());
    expect(timeline.json.data.map((e: any) => e.type)).toEqual(['document.created', 'document.sent']);
    const actions = await raw('GET', `/console/api/documents/${made[1].public_id}/actions`, authed());
    expect(actions.json.document).toEqual(expect.arrayContaining(['expire', 'void']));
    expect(actions.json.document).not.toContain('send');

    await service('POST', `/documents/${made[1].public_id}/remind`);
    const notes = await raw('GET', `/console/api/notifications?document_id=${made[1].public_id}`, authed());
    expect(notes.json.data.map((n: any) => n.kind)).toEqual(['reminder', 'signature_request']);
    expect(notes.json.data[0]).not.toHaveProperty('company_id');
    expect(notes.json.data[0].document_title).toBe('Beta contract');
  });

  it('creates, lists and revokes API keys, and will not revoke the console’s own key', async () => {
    const made = await raw(
      'POST',
      '/console/api/api-keys',
      authed({ 'content-type': 'application/json' }),
      JSON.stringify({ role: 'member', label: 'CI' }),
    );
    expect(made.status).toBe(201);
    const list = await raw('GET', '/console/api/api-keys', authed());
    const entry = list.json.data.find((k: any) => k.id === made.json.id);
    expect(entry).toMatchObject({ role: 'member', label: 'CI' });
    expect(JSON.stringify(list.json)).not.toContain(made.json.key);
    const own = list.json.data.find((k: any) => k.current_console);
    expect(own).toBeDefined();
    const refused = await raw('DELETE', `/console/api/api-keys/${own.id}`, authed());
    expect(refused.status).toBe(422);
    const revoked = await raw('DELETE', `/console/api/api-keys/${made.json.id}`, authed());
    expect(revoked.status).toBe(204);
    expect((await service('GET', '/v2/webhooks', undefined, made.json.key)).status).toBe(401);
  });
});

describe('live stream', () => {
  it('sends a retry hint, then the session company’s changes only, and lets go on close', async () => {
    const listeners = () => (backend.bus as any).emitter.listenerCount('change') as number;
    const before = listeners();
    const abort = new AbortController();
    const res = await fetch(`${urls.api_url}/console/api/stream`, { headers: { 'x-console-token': TOKEN }, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expectNoCors(Object.fromEntries(res.headers) as IncomingHttpHeaders);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      const deadline = Date.now() + 5000;
      while (!text.includes(needle)) {
        if (Date.now() > deadline) throw new Error(`stream never said ${needle}: ${text}`);
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil('event: ready');
    expect(text).toMatch(/^retry: \d+/m);
    expect(listeners()).toBe(before + 1);

    // Another company's document must not show up.
    const other = { key: await otherCompanyAdmin(backend, 'Other Co') };
    const hidden = await fetch(`${urls.api_url}/v2/test_helpers/documents`, {
      method: 'POST',
      headers: { 'x-api-key': other.key, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Secret', recipients: [{ name: 'B', email: 'b@example.com' }] }),
    }).then((r) => r.json() as Promise<any>);
    const shown = await fetch(`${urls.api_url}/v2/test_helpers/documents`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Visible', recipients: [{ name: 'C', email: 'c@example.com' }] }),
    }).then((r) => r.json() as Promise<any>);
    await readUntil(shown.public_id);
    expect(text).toContain('event: change');
    expect(text).not.toContain(hidden.public_id);

    // A burst of changes (a fan-out's deliveries) leaves in one write to the socket, in order.
    const writes = vi.spyOn(OutgoingMessage.prototype, 'write');
    try {
      for (let i = 0; i < 20; i++) backend.bus.emit({ kind: 'capture', inbox_id: 'inb_burst', id: `cap_burst_${i}` });
      await readUntil('cap_burst_19');
      const burst = writes.mock.calls.map(([chunk]) => String(chunk)).filter((chunk) => chunk.includes('cap_burst_'));
      expect(burst).toHaveLength(1);
      expect([...burst[0].matchAll(/cap_burst_(\d+)/g)].map((m) => Number(m[1]))).toEqual([...Array(20).keys()]);
      const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
      expect(ids).toEqual(ids.map((_, i) => ids[0] + i));
    } finally {
      writes.mockRestore();
    }

    abort.abort();
    await reader.cancel().catch(() => undefined);
    const deadline = Date.now() + 3000;
    while (listeners() !== before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(listeners()).toBe(before);
  });
});
