// The receiver's console routes over real HTTP on loopback, against a whole backend:
// inbox CRUD, subscribe-this-inbox, captures, replay (byte-exact and re-signed) to a
// second inbox, copy-as-curl run by the real curl, the tunnel without a token, and no
// secret in any answer. Only loopback addresses are ever sent to.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { generateSecret } from '../../src-main/backend/delivery/signing.js';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';

let t: TestBackend;

const consoleApi = (method: string, path: string, body?: unknown) => t.consoleApi(method, path, body);

async function post(inboxId: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.urls.receiver_url}/in/${inboxId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await res.text();
  return res.headers.get('x-countersign-capture')!;
}

beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(() => t.destroy());

describe('inboxes', () => {
  it('create, read, update, list and delete; secrets shown only as fingerprints', async () => {
    const secret = generateSecret();
    const made = await consoleApi('POST', '/inboxes', { name: 'Orders', secret });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Orders',
      path: `/in/${made.body.id}`,
      public_url: null,
      response: { mode: 'status', status: 200 },
    });
    expect(made.body.local_url).toBe(`${t.urls.receiver_url}/in/${made.body.id}`);
    expect(made.body.secret).toMatchObject({ source: 'pasted', format_ok: true });
    expect(made.body.secret.fingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(made.text).not.toContain(secret.slice(6));

    const patched = await consoleApi('PATCH', `/inboxes/${made.body.id}`, {
      name: 'Orders 2',
      secret: 'not-whsec',
      response: { mode: 'fail_first_n', fail_first_n: 3 },
    });
    expect(patched.body).toMatchObject({
      name: 'Orders 2',
      secret: { source: 'pasted', format_ok: false },
      response: { mode: 'fail_first_n', fail_first_n: 3, fail_status: 500 },
    });
    expect((await consoleApi('GET', `/inboxes/${made.body.id}`)).body.name).toBe('Orders 2');
    expect((await consoleApi('GET', '/inboxes')).body.data.map((i: any) => i.id)).toContain(made.body.id);

    expect((await consoleApi('DELETE', `/inboxes/${made.body.id}`)).status).toBe(204);
    expect((await consoleApi('GET', `/inboxes/${made.body.id}`)).status).toBe(404);
  });

  it('refuses bad input with 422 naming the field', async () => {
    const bad = await consoleApi('POST', '/inboxes', { response: { mode: 'status', status: 99 } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields[0].field).toBe('response.status');
    const unknown = await consoleApi('POST', '/inboxes', { colour: 'red' });
    expect(unknown.body.error.details.fields[0].field).toBe('colour');
    expect((await consoleApi('PATCH', '/inboxes/inb_nope', {})).status).toBe(404);
  });

  it('requires the console token', async () => {
    const res = await fetch(`${t.urls.api_url}/console/api/inboxes`);
    expect(res.status).toBe(401);
  });
});

describe('subscribe this inbox', () => {
  it('creates a local subscription to the inbox, links its secret, and deliveries verify', async () => {
    const inbox = (await consoleApi('POST', '/inboxes', { name: 'linked' })).body;
    const sub = await consoleApi('POST', `/inboxes/${inbox.id}/subscribe`, { type: 'document.created' });
    expect(sub.status).toBe(201);
    expect(sub.body.subscription).toMatchObject({ url: inbox.local_url, type: 'document.created', status: 'enabled' });
    // The signing secret, once (as POST /v2/webhooks shows it), and never again.
    expect(sub.body.subscription.secret_key).toMatch(/^whsec_/);
    const again = await t.api('GET', `/v2/webhooks/${sub.body.subscription.public_id}`);
    expect(again.status).toBe(200);
    expect(again.body.secret_key).toBeUndefined();
    expect(sub.body.inbox.secret).toMatchObject({ source: 'linked', linked_subscription_ids: [sub.body.subscription.public_id] });
    expect(sub.body.subscription.secret_fingerprint).toBe(sub.body.inbox.secret.fingerprint);

    const doc = await t.api('POST', '/v2/test_helpers/documents', {
      title: 'NDA',
      recipients: [{ name: 'Ann', email: 'ann@example.com' }],
    });
    expect(doc.status).toBe(201);
    let page: any;
    for (let i = 0; i < 200 && !page?.data.length; i++) {
      await new Promise((r) => setTimeout(r, 25));
      page = (await consoleApi('GET', `/inboxes/${inbox.id}/captures`)).body;
    }
    expect(page.data[0]).toMatchObject({ verdict: 'verified', event_type: 'document.created', response_status: 200, duplicate: false });
    const full = (await consoleApi('GET', `/captures/${page.data[0].id}`)).body;
    expect(JSON.parse(full.body_text).data.document.public_id).toBe(doc.body.public_id);
    expect(full.body_encoding).toBe('utf8');
    expect(full.verdict.subscription_id).toBe(sub.body.subscription.public_id);
    expect(full.headers.map((h: [string, string]) => h[0].toLowerCase())).toContain('webhook-signature');
  });
});

describe('captures, replay and curl', () => {
  let source: any;
  let target: any;
  const secret = generateSecret();
  const body = '{"id":"evt_x","type":"document.sent","data":{}}';
  const signedHeaders = (b: string, id = 'msg_replay1') => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, new Date(), b),
  });

  beforeAll(async () => {
    source = (await consoleApi('POST', '/inboxes', { name: 'source', secret })).body;
    target = (await consoleApi('POST', '/inboxes', { name: 'target', secret })).body;
  });

  it('pages captures newest first', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await post(source.id, `{"n":${i}}`));
    const first = (await consoleApi('GET', `/inboxes/${source.id}/captures?limit=2`)).body;
    expect(first.data.map((c: any) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const next = (await consoleApi('GET', `/inboxes/${source.id}/captures?limit=2&starting_after=${ids[1]}`)).body;
    expect(next.data.map((c: any) => c.id)).toEqual([ids[0]]);
    expect(next.has_more).toBe(false);
    expect((await consoleApi('GET', `/inboxes/${source.id}/captures?limit=0`)).status).toBe(422);
  });

  it('a body that is not UTF-8 comes back as base64', async () => {
    const id = await post(source.id, Buffer.from([0xff, 0x00, 0xc3]), { 'content-type': 'application/octet-stream' });
    const full = (await consoleApi('GET', `/captures/${id}`)).body;
    expect(full).toMatchObject({
      body_text: null,
      body_base64: Buffer.from([0xff, 0x00, 0xc3]).toString('base64'),
      body_encoding: 'base64',
    });
    expect((await consoleApi('GET', '/captures/cap_nope')).status).toBe(404);
  });

  it('replays byte-exact to a second inbox, where it verifies', async () => {
    const id = await post(source.id, body, signedHeaders(body));
    const r = await consoleApi('POST', `/captures/${id}/replay`, { url: target.local_url, mode: 'exact' });
    expect(r.status).toBe(200);
    expect(r.body.response.status).toBe(200);
    const landed = (await consoleApi('GET', `/captures/${r.body.response.headers['x-countersign-capture']}`)).body;
    expect(landed.inbox_id).toBe(target.id);
    expect(landed.body_text).toBe(body);
    expect(landed.verdict.reason).toBe('verified');
  });

  it('replays an edited body re-signed (with the inbox secret, or a given one)', async () => {
    const id = await post(source.id, body, signedHeaders(body, 'msg_resign'));
    const edited = '{"id":"evt_x","type":"document.sent","data":{"edited":true}}';
    const r = await consoleApi('POST', `/captures/${id}/replay`, { url: target.local_url, mode: 'resign', body: edited });
    const landed = (await consoleApi('GET', `/captures/${r.body.response.headers['x-countersign-capture']}`)).body;
    expect(landed).toMatchObject({ body_text: edited, webhook_id: 'msg_resign' });
    expect(landed.verdict.reason).toBe('verified');
    expect(r.body.request.secret_fingerprint).toBe(source.secret.fingerprint);

    const other = generateSecret();
    const r2 = await consoleApi('POST', `/captures/${id}/replay`, { url: target.local_url, mode: 'resign', secret: other });
    const landed2 = (await consoleApi('GET', `/captures/${r2.body.response.headers['x-countersign-capture']}`)).body;
    expect(landed2.verdict.reason).toBe('signature_mismatch');
    expect(r2.text).not.toContain(other.slice(6));
  });

  it('an exact replay with an edited body, a bad secret or a non-HTTP URL is 422', async () => {
    const id = await post(source.id, body, signedHeaders(body));
    expect((await consoleApi('POST', `/captures/${id}/replay`, { url: target.local_url, mode: 'exact', body: '{}' })).status).toBe(422);
    expect((await consoleApi('POST', `/captures/${id}/replay`, { url: target.local_url, mode: 'resign', secret: 'nope' })).status).toBe(
      422,
    );
    const ftp = await consoleApi('POST', `/captures/${id}/replay`, { url: 'file:///etc/passwd', mode: 'exact' });
    expect(ftp.status).toBe(422);
    expect(ftp.body.error.details.fields[0].field).toBe('url');
  });

  it('a replay to a closed port reports the network error, not a 500', async () => {
    const id = await post(source.id, body);
    const r = await consoleApi('POST', `/captures/${id}/replay`, { url: 'http://127.0.0.1:1/in/x', mode: 'exact' });
    expect(r.status).toBe(200);
    expect(r.body.response).toBeNull();
    expect(r.body.error).toMatch(/ECONNREFUSED|connect/i);
  });

  it('copy as curl: the real curl sends it again byte-exact, and it verifies', async () => {
    const tricky = `{"q":"it's \\"quoted\\" $(whoami) \`x\`","n":"\u00e9"}`;
    const id = await post(source.id, tricky, signedHeaders(tricky, 'msg_curl'));
    const cmd = await consoleApi('GET', `/captures/${id}/curl?url=${encodeURIComponent(target.local_url)}`);
    expect(cmd.headers.get('content-type')).toMatch(/^text\/plain/);
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', cmd.text]);
    const landed = (await consoleApi('GET', `/captures/${JSON.parse(stdout).capture_id}`)).body;
    expect(landed.body_text).toBe(tricky);
    expect(landed.verdict.reason).toBe('verified');
    expect(landed.duplicate).toBe(false);
  });
});

describe('tunnel without a token', () => {
  it('says offline plainly; start without a token stays offline', async () => {
    const state = (await consoleApi('GET', '/tunnel')).body;
    expect(state).toMatchObject({
      status: 'offline',
      message: expect.stringMatching(/No ngrok authtoken/),
      local_url: t.urls.receiver_url,
      stale_subscriptions: [],
    });
    expect((await consoleApi('POST', '/tunnel/start', {})).body.status).toBe('offline');
    expect((await consoleApi('POST', '/tunnel/stop')).body.status).toBe('offline');
  });
  it('forgets an authtoken on request: offline, with the same view as the other tunnel routes', async () => {
    const forgot = await consoleApi('POST', '/tunnel/forget-authtoken');
    expect(forgot.status).toBe(200);
    expect(forgot.body).toMatchObject({
      status: 'offline',
      message: expect.stringMatching(/No ngrok authtoken/),
      local_url: t.urls.receiver_url,
    });
  });
});
