// Property-based tests of the HTTP edge (issue 9): generated paths, queries, headers and
// bodies, from plausible to hostile, against every route of the three listeners (the
// service API, the console API with and without its token, the receiver). For every
// request: the process answers (no crash, no hang), never with a 5xx (the receiver only
// with the 5xx its inbox is set to give), every refusal in the one error shape, and a
// refused request changes nothing (a digest of the store, the captures and the delivery
// log, before and after). The delivery engine is stopped, so that state changes only by
// the requests themselves. Seeded and bounded: a fixed seed unless COUNTERSIGN_FC_SEED
// gives one (a number, or "random"); a failure says the seed to reproduce it with.
// The console page (/app) is held to no 5xx and no change, not to the API's error shape.
// On the API listener, a Host that is not one of its names is always 403, first (the
// rest of finding 7: DNS rebinding refused on every route, the fast read path included).
// Not generated: the console's live stream (it never ends), starting the tunnel (it would
// call ngrok's servers) and replaying a real capture (it would send to the generated URL).
import { resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_KEY, otherCompanyAdmin, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import {
  bodyFor,
  expectErrorShape,
  extraHeaders,
  field,
  mostly,
  routeFrom,
  sendRaw,
  stateDigest,
  type EdgeRequest,
  type EdgeResponse,
} from '../helpers/edge-arbitraries.js';
import { ACTIONS } from '../../src-main/backend/domain/lifecycle.js';
import { EVENT_TYPES } from '@shared/api-types.js';

/** Every route of the service API (docs/api.md), and two kinds of unknown path. */
const SERVICE_ROUTES = [
  'GET /v2/webhooks',
  'POST /v2/webhooks subscription',
  'GET /v2/webhooks/{sub}',
  'DELETE /v2/webhooks/{sub}',
  'GET /v2/webhooks/{sub}/deliveries',
  'GET /v2/webhooks/{sub}/deliveries/{delivery}',
  'POST /v2/webhooks/{sub}/deliveries/{delivery}/redeliver',
  'POST /v2/webhooks/{sub}/test',
  'GET /documents/{doc}',
  'PUT /documents/{doc} documentPatch',
  'POST /documents/{doc}/remind',
  'POST /v2/test_helpers/documents newDocument',
  'POST /v2/test_helpers/documents/{doc}/{action} transition',
  'POST /v2/test_helpers/api_keys apiKey',
  'POST /v2/test_helpers/checks check',
  'GET /openapi.json',
  'GET /{junk}',
  'POST /v2/{junk}/{junk}',
];

/** Every route of the console API (docs/console.md, docs/receiver.md, docs/inspector.md) but the three above, and the page. */
const CONSOLE_ROUTES = [
  ...[
    'GET /session',
    'GET /status',
    'GET /documents',
    'GET /documents/{doc}/timeline',
    'GET /documents/{doc}/actions',
    'GET /api-keys',
    'POST /api-keys apiKey',
    'DELETE /api-keys/{key}',
    'GET /notifications',
    'GET /inboxes',
    'POST /inboxes inbox',
    'GET /inboxes/{inbox}',
    'PATCH /inboxes/{inbox} inbox',
    'DELETE /inboxes/{inbox}',
    'GET /inboxes/{inbox}/captures',
    'POST /inboxes/{inbox}/subscribe subscribe',
    'GET /captures/{capture}',
    'GET /captures/{capture}/curl',
    'POST /captures/{nocapture}/replay replay',
    'GET /tunnel',
    'POST /tunnel/stop',
    'POST /tunnel/move-subscriptions move',
    'GET /export',
    'POST /import import',
    'GET /inspector/feed',
    'GET /inspector/rows',
    'GET /inspector/stats',
    'GET /inspector/deliveries/{delivery}',
    'GET /inspector/captures/{capture}',
    'GET /inspector/captures/{capture}/pair',
    'GET /connections',
    'POST /connections connection',
    'GET /connections/{conn}',
    'GET /connections/{conn}/check',
    'GET /connections/{conn}/remote/v2/webhooks',
    'POST /connections/{conn}/remote/v2/webhooks subscription',
    'GET /connections/{conn}/remote/documents/{doc}',
    'PUT /connections/{conn}/remote/documents/{doc} documentPatch',
    'POST /connections/{conn}/remote/v2/{junk}',
    'GET /connections/{conn}/tunnel-moves',
    'POST /connections/{conn}/tunnel-moves',
    'DELETE /connections/{noconn}',
    'GET /{junk}',
  ].map((r) => r.replace(' /', ' /console/api/')),
  'GET /app',
  'GET /app/{junk}',
];

const RECEIVER_ROUTES = [
  'POST /in/{rinbox}',
  'PUT /in/{rinbox}/{junk}',
  'GET /in/{unknown}',
  'POST /{junk}',
  'POST /in/',
  'POST /in/{rinbox}{junk}',
];

const RUNS = 1000;
const RENDERER_DIR = resolve('out/renderer');
const raw = process.env.COUNTERSIGN_FC_SEED;
const SEED = raw === 'random' ? Math.floor(Math.random() * 2 ** 31) : raw ? Number(raw) : 9_2026;

const RECEIVER_MODES = {
  ok: { mode: 'status', status: 200 },
  unavailable: { mode: 'status', status: 503 },
  flaky: { mode: 'fail_first_n', fail_first_n: 2, fail_status: 502 },
  gone: { mode: 'gone' },
  limited: { mode: 'rate_limited', retry_after: 5 },
} as const;
/** What each inbox may answer: its mode's statuses, and nothing else. */
const ALLOWED: Record<keyof typeof RECEIVER_MODES, number[]> = {
  ok: [200],
  unavailable: [503],
  flaky: [502, 200],
  gone: [410],
  limited: [429],
};

let t: TestBackend;
let port: number;
const ids: Record<string, string[]> = {};
const inboxModes = new Map<string, keyof typeof RECEIVER_MODES>();
const errors = vi.spyOn(console, 'error');

async function check(prop: fc.IAsyncPropertyWithHooks<[EdgeRequest]> | fc.IAsyncProperty<[EdgeRequest]>): Promise<void> {
  try {
    await fc.assert(prop, { seed: SEED, numRuns: RUNS });
  } catch (err) {
    // fast-check's report names the counterexample; the assertion that failed is its cause.
    const cause = (err as Error).cause as Error | undefined;
    throw new Error(
      `edge property failed; reproduce with COUNTERSIGN_FC_SEED=${SEED}\n${(err as Error).message}\n${cause?.message ?? ''}`,
      {
        cause: err,
      },
    );
  }
}

/** Requests for a route table; a route's body mostly has its own shape (valid or near it), else any. */
function requestOf(
  routes: fc.Arbitrary<{ method: string; path: string; shape: string }>,
  shapes: Record<string, fc.Arbitrary<unknown>>,
  base: fc.Arbitrary<Record<string, string | undefined>>,
): fc.Arbitrary<EdgeRequest> {
  const any = fc.oneof(...Object.values(shapes));
  return routes.chain(({ method, path, shape }) =>
    fc.tuple(base, extraHeaders, bodyFor(shapes[shape] ?? any)).map(([given, extra, b]) => {
      const headers: Record<string, string> = { ...extra, ...b.headers };
      for (const [name, value] of Object.entries(given)) if (value !== undefined) headers[name] = value;
      return { method, path, headers, body: b.body };
    }),
  );
}

/** Mostly this listener's own name; one in five a rebinding page's, or another form of its own. */
const host = () =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>(`127.0.0.1:${port}`) },
    { weight: 1, arbitrary: fc.constantFrom<string | undefined>(`localhost:${port}`, `[::1]:${port}`, '', undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<string | undefined>(
        'evil.example',
        `evil.example:${port}`,
        '127.0.0.1',
        `127.0.0.1:${port + 1}`,
        'LOCALHOST.',
      ),
    },
  );

/** The API listener's own names (finding 7: any other Host is refused first, on every route, the fast read included). */
// (Left out or empty, Node's client sends the address's own: 127.0.0.1:<port>.)
const ownHost = (h: string | undefined) => !h || [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(h);

/** Refused: an error in the one shape, and nothing changed. Answered: no 5xx either way. */
async function expectEdgeContract(r: EdgeRequest, send: () => Promise<EdgeResponse>, hostChecked: boolean) {
  const before = stateDigest(t.backend);
  const res = await send();
  const what = `${r.method} ${r.path} (Host ${r.headers.host}) → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, what).toBeLessThan(500);
  if (hostChecked && !ownHost(r.headers.host)) expect(res.status, what).toBe(403);
  if (res.status >= 400) {
    // The console page (/app) is a page, not an API: a missing file there is a plain 404.
    if (r.method !== 'HEAD' && !/^\/app(?:[/?]|$)/.test(r.path)) expectErrorShape(res, what);
    expect(stateDigest(t.backend), `refused but changed state: ${what}`).toBe(before);
  }
}

/**
 * Sends to the API listener and checks the answer against the OpenAPI document, as the
 * API tests' helper does (which leaves the console page and API, /app and /console, alone).
 */
async function sendService(r: EdgeRequest): Promise<EdgeResponse> {
  const res = await sendRaw(t.urls.api_url, r);
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers.set(name, String(value));
  let body: unknown;
  try {
    body = res.text ? JSON.parse(res.text) : undefined;
  } catch {
    body = undefined;
  }
  checkAgainstOpenApi(r.method, r.path, { status: res.status, headers, text: res.text, body });
  return res;
}

beforeAll(async () => {
  // The console page as built (npm test builds first); without it /app is the "not built" page, a 503.
  // A connection to itself (the key from the environment): the pass-through reaches a real service.
  t = await startTestBackend({}, undefined, { rendererDir: RENDERER_DIR, env: { EDGE_KEY: ADMIN_KEY } });
  port = Number(new URL(t.urls.api_url).port);
  await t.backend.engine.stop();
  const doc = (await t.api('POST', '/v2/test_helpers/documents', { title: 'D', recipients: [{ name: 'A', email: 'a@b.co' }] })).body;
  const sub = (await t.api('POST', '/v2/webhooks', { url: 'https://example.com/hook', type: 'all' })).body;
  await t.api('POST', `/v2/test_helpers/documents/${doc.public_id}/send`);
  const delivery = (await t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data[0].id;
  const member = (await t.api('POST', '/v2/test_helpers/api_keys', { role: 'member' })).body;
  const other = await otherCompanyAdmin(t.backend, 'Other Co');
  const otherDoc = (await t.api('POST', '/v2/test_helpers/documents', { title: 'O', recipients: [{ name: 'B', email: 'b@b.co' }] }, other))
    .body;
  await t.consoleApi('GET', '/session'); // the console's session key is made on first use
  const consoleInbox = (await t.consoleApi('POST', '/inboxes', { name: 'console' })).body.id;
  await fetch(`${t.urls.receiver_url}/in/${consoleInbox}`, { method: 'POST', body: '{}' });
  const capture = (await t.consoleApi('GET', `/inboxes/${consoleInbox}/captures`)).body.data[0].id;
  for (const [name, response] of Object.entries(RECEIVER_MODES)) {
    const id = (await t.consoleApi('POST', '/inboxes', { name, response })).body.id;
    inboxModes.set(id, name as keyof typeof RECEIVER_MODES);
  }
  const conn = (
    await t.consoleApi('POST', '/connections', { name: 'Self', base_url: t.urls.api_url, app_url: t.urls.app_url, api_key_env: 'EDGE_KEY' })
  ).body.id;
  Object.assign(ids, {
    conn: [conn, 'conn_unknown'],
    noconn: ['conn_unknown', 'local'],
    doc: [doc.public_id, otherDoc.public_id, 'doc_unknown'],
    sub: [sub.public_id, 'wh_unknown'],
    delivery: [delivery, 'msg_unknown'],
    action: [...ACTIONS, 'explode'],
    key: [member.id, 'key_unknown'],
    inbox: [consoleInbox, 'inb_unknown'],
    capture: [capture, 'cap_unknown'],
    nocapture: ['cap_unknown', 'cap_'],
    rinbox: [...inboxModes.keys()],
    unknown: ['inb_unknown0', 'inb_'],
    junk: ['x', 'app', 'in', 'console', 'v2'],
    keys: [ADMIN_KEY, member.key, other, 'cs_wrong'],
  });
});
afterAll(() => t.destroy());
afterEach(() => {
  // Nothing may reach the 500 path's log either.
  const logged = errors.mock.calls.map((c) => String(c[1] ?? c[0]));
  errors.mockClear();
  expect(logged).toEqual([]);
});

/** Bodies by route, each field mostly plausible (valid or near it), sometimes anything. */
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const shapes = (): Record<string, fc.Arbitrary<unknown>> => ({
  subscription: fc.record(
    {
      url: field(fc.constantFrom('https://example.com/h', `${t.urls.receiver_url}/in/inb_x`, 'http://evil.example/', 'ftp://x', '')),
      type: field(fc.constantFrom('all', ...EVENT_TYPES, 'nope')),
      secret_key: field(fc.constantFrom(SECRET, 'nope')),
    },
    { requiredKeys: ['url', 'type'] },
  ),
  newDocument: fc.record(
    {
      title: field(fc.string({ maxLength: 300 })),
      recipients: field(
        fc.array(fc.record({ name: field(fc.string()), email: field(fc.constantFrom('a@b.co', 'nope')) }), { maxLength: 2 }),
      ),
      metadata: field(fc.dictionary(fc.string({ maxLength: 45 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })),
    },
    { requiredKeys: ['title', 'recipients'] },
  ),
  documentPatch: fc.record(
    {
      title: field(fc.string({ maxLength: 300 })),
      metadata: field(fc.dictionary(fc.string({ maxLength: 45 }), fc.jsonValue({ maxDepth: 9 }), { maxKeys: 4 })),
    },
    { requiredKeys: [] },
  ),
  transition: fc.record({ recipient_id: field(fc.constantFrom('rcp_unknown', '')) }, { requiredKeys: [] }),
  apiKey: fc.record(
    {
      role: field(fc.constantFrom('admin', 'member', 'root')),
      company: field(fc.constantFrom('Demo Company', 'Other Co', 'New Co')),
      label: field(fc.string()),
    },
    { requiredKeys: ['role'] },
  ),
  inbox: fc.record(
    {
      name: field(fc.string()),
      secret: field(fc.constantFrom(SECRET, 'x', null)),
      response: field(fc.constantFrom({ mode: 'status', status: 201 }, { mode: 'hang' }, { mode: 'gone', delay_ms: 10 }, { mode: 'nope' })),
    },
    { requiredKeys: [] },
  ),
  // A valid check goes to a closed loopback port: every request is refused at once.
  check: fc.record(
    {
      url: field(fc.constantFrom('http://127.0.0.1:9/hook', 'http://evil.example/', 'ftp://x', '')),
      secret: field(fc.constantFrom(SECRET, 'nope')),
      timeout_ms: field(fc.constantFrom(500, 5, 'soon')),
    },
    { requiredKeys: ['url', 'secret'] },
  ),
  subscribe: fc.record({ type: field(fc.constantFrom('all', 'document.sent', 'nope')) }, { requiredKeys: [] }),
  connection: fc.record(
    {
      name: field(fc.string({ maxLength: 70 })),
      base_url: field(fc.constantFrom('https://api.example.com', 'http://api.example.com', 'nope', '')),
      app_url: field(fc.constantFrom('https://app.example.com/', 'javascript:alert(1)')),
      api_key: field(fc.string({ maxLength: 10 })),
      api_key_env: field(fc.constantFrom('EDGE_KEY', 'UNSET_KEY', '1bad')),
      api_key_file: field(fc.constantFrom('/nonexistent/key', 'relative/key')),
    },
    { requiredKeys: ['name'] },
  ),
  move: fc.record({ ids: field(fc.array(fc.string(), { maxLength: 2 })) }, { requiredKeys: [] }),
  replay: fc.record(
    {
      url: field(fc.constantFrom('http://127.0.0.1:1/x', 'nope')),
      mode: field(fc.constantFrom('exact', 'resign')),
      body: field(fc.string()),
      secret: field(fc.constantFrom(SECRET)),
    },
    { requiredKeys: ['url'] },
  ),
  import: fc.record(
    {
      format: field(fc.constant('countersign-export')),
      version: field(fc.constant(1)),
      inboxes: field(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 })),
      captures: field(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 })),
      events: field(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 })),
      deliveries: field(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 })),
    },
    { requiredKeys: ['format', 'version', 'inboxes', 'captures', 'events', 'deliveries'] },
  ),
  any: fc.jsonValue({ maxDepth: 3 }),
});

describe('the HTTP edge, generated', () => {
  it('service API: no 5xx, one error shape, refusals change nothing', async () => {
    const routes = routeFrom(SERVICE_ROUTES, ids);
    const base = fc.record({ host: host(), 'x-api-key': mostly(ADMIN_KEY, ids.keys) });
    await check(fc.asyncProperty(requestOf(routes, shapes(), base), (r) => expectEdgeContract(r, () => sendService(r), true)));
  });

  it('console API and page: no 5xx, one error shape, refusals change nothing', async () => {
    const routes = routeFrom(CONSOLE_ROUTES, ids);
    const token = t.backend.consoleToken;
    const base = fc.record({
      host: host(),
      'x-console-token': mostly(token, ['', 'wrong', `${token}x`]),
      origin: mostly(undefined, [`http://127.0.0.1:${port}`, 'https://evil.example', 'null']),
      'sec-fetch-site': mostly(undefined, ['same-origin', 'cross-site', 'same-site', 'none']),
    });
    await check(fc.asyncProperty(requestOf(routes, shapes(), base), (r) => expectEdgeContract(r, () => sendRaw(t.urls.api_url, r), true)));
  });

  it('receiver: inboxes answer as they are set to (5xx only when set so), anything else in the one error shape', async () => {
    const routes = routeFrom(RECEIVER_ROUTES, ids);
    const base = fc.record({
      host: fc.constantFrom('anything.example', `127.0.0.1:${port}`, ''),
      'webhook-id': mostly(undefined, ['msg_1', 'msg_2', '', 'x'.repeat(100)]),
      'webhook-timestamp': mostly(undefined, ['1', 'x', String(Math.floor(Date.now() / 1000))]),
      'webhook-signature': mostly(undefined, ['v1,abc', 'v1,', 'x', 'v1,AAAA v2,BBBB']),
    });
    await check(
      fc.asyncProperty(requestOf(routes, { any: fc.jsonValue({ maxDepth: 3 }) }, base), async (r) => {
        const id = /^\/in\/(inb_[0-9A-Za-z]+)(?:\/.*)?$/.exec(r.path.split('?')[0])?.[1];
        const mode = id ? inboxModes.get(id) : undefined;
        if (!mode) return expectEdgeContract(r, () => sendRaw(t.urls.receiver_url, r), false);
        const res = await sendRaw(t.urls.receiver_url, r);
        const what = `${r.method} ${r.path} → ${res.status} ${res.text.slice(0, 200)}`;
        expect(ALLOWED[mode], what).toContain(res.status);
        expect(res.headers['x-countersign-capture'], what).toMatch(/^cap_/);
        if (r.method !== 'HEAD') expect(JSON.parse(res.text), what).toMatchObject({ received: true });
      }),
    );
  });
});
