// The inspector's console routes over real HTTP on loopback, against a whole backend:
// real signed deliveries from the engine to a real inbox on the receiver's listener,
// requests from "another sender" posted straight to an inbox, and a second company
// whose deliveries must never show. Only loopback addresses are ever sent to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherCompanyAdmin, startTestBackend, type TestBackend } from '../helpers/backend.js';
import { waitUntil } from '../helpers/wait.js';

let t: TestBackend;
let inboxA: { id: string; local_url: string };
let inboxB: { id: string; local_url: string };
let subA: string;
let docId: string;
let otherDelivery: string;

const consoleApi = (method: string, path: string, body?: unknown) => t.consoleApi(method, path, body);

const feed = async (query = '') =>
  (await consoleApi('GET', `/inspector/feed?limit=500${query}`)).body as { data: any[]; next_cursor: string | null };

beforeAll(async () => {
  t = await startTestBackend();
  inboxA = (await consoleApi('POST', '/inboxes', { name: 'A' })).body;
  inboxB = (await consoleApi('POST', '/inboxes', { name: 'B' })).body;
  subA = (await consoleApi('POST', `/inboxes/${inboxA.id}/subscribe`, {})).body.subscription.public_id;
  const doc = await t.api('POST', '/v2/test_helpers/documents', {
    title: 'Lease',
    recipients: [{ name: 'Ann', email: 'ann@example.com' }],
  });
  docId = doc.body.public_id;
  await t.api('POST', `/v2/test_helpers/documents/${docId}/send`, {});
  // Another company, subscribed to inbox B: its deliveries land, but its log is not ours.
  const otherKey = await otherCompanyAdmin(t.backend, 'Other Co');
  await t.api('POST', '/v2/webhooks', { url: inboxB.local_url, type: 'all' }, otherKey);
  const otherDoc = await t.api(
    'POST',
    '/v2/test_helpers/documents',
    { title: 'Theirs', recipients: [{ name: 'Zed', email: 'z@example.com' }] },
    otherKey,
  );
  const otherSub = (await t.api('GET', '/v2/webhooks', undefined, otherKey)).body.data[0].public_id;
  otherDelivery = await waitUntil('the other company delivery', async () => {
    const log = await t.api('GET', `/v2/webhooks/${otherSub}/deliveries`, undefined, otherKey);
    return log.body.data.find((d: any) => d.status === 'succeeded' && d.document_id === otherDoc.body.public_id)?.id;
  });
  // Our two deliveries (created, sent) and their two captures.
  await waitUntil('two succeeded deliveries and two captures', async () => {
    const f = await feed(`&inbox_id=${inboxA.id}`);
    const ok =
      f.data.filter((r) => r.kind === 'delivery' && r.outcome === 'succeeded').length === 2 &&
      f.data.filter((r) => r.kind === 'capture').length === 2;
    return ok && f;
  });
});
afterAll(() => t.destroy());

describe('feed', () => {
  it('merges deliveries and captures newest first, pairs a capture with its delivery, and hides another company', async () => {
    const { data, next_cursor } = await feed();
    expect(next_cursor).toBeNull();
    const times = data.map((r) => Date.parse(r.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const deliveries = data.filter((r) => r.kind === 'delivery');
    expect(deliveries.map((r) => r.event_type).sort()).toEqual(['document.created', 'document.sent']);
    expect(deliveries.every((r) => r.subscription_id === subA && r.inbox_id === inboxA.id && r.document_id === docId)).toBe(true);
    expect(deliveries.some((r) => r.id === otherDelivery)).toBe(false);

    const capsA = data.filter((r) => r.kind === 'capture' && r.inbox_id === inboxA.id);
    expect(capsA).toHaveLength(2);
    for (const c of capsA) {
      expect(c).toMatchObject({
        outcome: 'verified',
        verdict: 'verified',
        duplicate: false,
        status_code: 200,
        subscription_id: subA,
        document_id: docId,
      });
      expect(deliveries.map((d) => d.id)).toContain(c.delivery_id);
    }
    // The other company's delivery landed in inbox B: the capture shows (the receiver is
    // the machine's), but nothing of that company's log is borrowed for it.
    const capB = data.find((r) => r.kind === 'capture' && r.webhook_id === otherDelivery);
    expect(capB).toMatchObject({ inbox_id: inboxB.id, delivery_id: null, document_id: null, subscription_id: null });
  });

  it('filters by kind, event type, subscription, inbox, outcome, document and text', async () => {
    expect((await feed('&kind=capture')).data.every((r) => r.kind === 'capture')).toBe(true);
    const sent = (await feed('&event_type=document.sent')).data;
    expect(sent.map((r) => r.kind).sort()).toEqual(['capture', 'delivery']);
    expect((await feed(`&subscription_id=${subA}`)).data).toHaveLength(4);
    expect((await feed(`&inbox_id=${inboxB.id}`)).data.every((r) => r.inbox_id === inboxB.id)).toBe(true);
    expect((await feed('&outcome=verified')).data.every((r) => r.kind === 'capture' && r.verdict === 'verified')).toBe(true);
    expect((await feed('&outcome=succeeded')).data.map((r) => r.kind)).toEqual(['delivery', 'delivery']);
    expect((await feed(`&document_id=${docId}`)).data).toHaveLength(4);
    expect((await feed('&document_id=doc_nothing')).data).toHaveLength(0);

    // Another sender: no signature, the body searched as text.
    const res = await fetch(inboxB.local_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"note":"needle-7731"}',
    });
    const capId = res.headers.get('x-countersign-capture');
    const hits = (await feed('&q=needle-7731')).data;
    expect(hits.map((r) => r.id)).toEqual([capId]);
    expect(hits[0]).toMatchObject({ outcome: 'unverified', verdict: 'no_signature_headers' });
    expect((await feed('&outcome=unverified')).data.map((r) => r.id)).toContain(capId);
    // Field search is case-insensitive.
    expect((await feed(`&q=${docId.toUpperCase()}&kind=delivery`)).data).toHaveLength(2);
  });

  it('pages with a cursor: no row twice, none missing, and a bad cursor is 422', async () => {
    const all = (await feed()).data.map((r) => r.ref);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (await consoleApi('GET', `/inspector/feed?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).body;
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((r: any) => r.ref));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    const bad = await consoleApi('GET', '/inspector/feed?cursor=not-a-cursor');
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields[0].field).toBe('cursor');
    expect((await consoleApi('GET', '/inspector/feed?outcome=maybe')).status).toBe(422);
  });

  it('puts imported deliveries where they happened in time, not above today’s', async () => {
    const old = (n: number) => new Date(Date.now() - 2 * 86400_000 + n * 1000).toISOString();
    const delivery = (n: number) => ({
      delivery: {
        id: `msg_imported${n}`,
        event_id: 'evt_imported',
        event_type: 'document.voided',
        subscription_id: 'wh_gone',
        company_id: 'co_x',
        document_id: 'doc_imported',
        url: 'https://example.com/hook',
        status: 'failed',
        attempts: 8,
        created_at: old(n),
        last_attempt_at: old(n),
        last_status_code: 500,
        last_error: null,
        last_duration_ms: 12,
        next_attempt_at: null,
      },
      attempts: [],
    });
    const file = {
      format: 'countersign-export',
      version: 1,
      inboxes: [],
      captures: [],
      events: [
        {
          event: {
            id: 'evt_imported',
            company_id: 'co_x',
            type: 'document.voided',
            timestamp: old(0),
            document_id: 'doc_imported',
            subscription_id: null,
          },
          body: '{}',
        },
      ],
      deliveries: [delivery(2), delivery(1), delivery(3)],
    };
    const imported = await consoleApi('POST', '/import', file);
    expect(imported.body.deliveries_added).toBe(3);
    const { data } = await feed();
    // Last, newest of them first: they are two days old.
    expect(data.slice(-3).map((r) => r.id)).toEqual(['msg_imported3', 'msg_imported2', 'msg_imported1']);
    const times = data.map((r) => Date.parse(r.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await feed('&document_id=doc_imported')).data).toHaveLength(3);
  });

  it('answers named rows as they are now, and says which are gone', async () => {
    const { data } = await feed(`&inbox_id=${inboxA.id}`);
    const d = data.find((r) => r.kind === 'delivery')!;
    const c = data.find((r) => r.kind === 'capture')!;
    const res = (await consoleApi('GET', `/inspector/rows?refs=${d.ref},${c.ref},c:cap_unknown,d:${otherDelivery}&event_ids=${d.event_id}`))
      .body;
    expect(res.data.map((r: any) => r.ref).sort()).toEqual([c.ref, d.ref].sort());
    expect(res.gone.sort()).toEqual(['c:cap_unknown', `d:${otherDelivery}`].sort());
    // A row that no longer passes the filters is "gone" for that list.
    const filtered = (await consoleApi('GET', `/inspector/rows?refs=${d.ref}&outcome=failed`)).body;
    expect(filtered).toEqual({ data: [], gone: [d.ref] });
  });
});

describe('detail and pair', () => {
  it('shows a delivery with its attempts and where it landed; another company is 404', async () => {
    const d = (await feed(`&kind=delivery&event_type=document.sent`)).data[0];
    const detail = (await consoleApi('GET', `/inspector/deliveries/${d.id}`)).body;
    expect(detail.delivery).toMatchObject({ id: d.id, status: 'succeeded', attempts: 1 });
    expect(detail.attempts[0].request.headers['webhook-id']).toBe(d.id);
    expect(detail.attempts[0].response.status).toBe(200);
    expect(JSON.parse(detail.event_body).type).toBe('document.sent');
    expect(detail.landed).toHaveLength(1);
    expect(detail.landed[0]).toMatchObject({ inbox_id: inboxA.id, inbox_name: 'A', verdict: 'verified' });
    expect(detail.subscription.public_id).toBe(subA);
    expect((await consoleApi('GET', `/inspector/deliveries/${otherDelivery}`)).status).toBe(404);
  });

  it('shows a capture with its verdict, and the sent and received requests side by side', async () => {
    const c = (await feed(`&kind=capture&inbox_id=${inboxA.id}&event_type=document.created`)).data[0];
    const detail = (await consoleApi('GET', `/inspector/captures/${c.id}`)).body;
    expect(detail.capture.verdict).toMatchObject({ reason: 'verified', secret_source: 'linked', subscription_id: subA });
    expect(detail.capture.body_encoding).toBe('utf8');
    expect(detail.delivery.id).toBe(c.delivery_id);
    expect(detail.inbox).toEqual({ id: inboxA.id, name: 'A' });

    const pair = (await consoleApi('GET', `/inspector/captures/${c.id}/pair`)).body;
    expect(pair).toMatchObject({ capture_id: c.id, delivery_id: c.delivery_id, match: 'exact', note: null });
    expect(pair.received.body_text).toBe(pair.sent.body);
    const sig = (hs: [string, string][]) => hs.find(([n]) => n.toLowerCase() === 'webhook-signature')?.[1];
    expect(sig(pair.received.headers)).toBe(sig(pair.sent.headers));
    expect(pair.sent.url).toBe(inboxA.local_url);

    const foreign = (await feed('&q=needle-7731')).data[0];
    expect((await consoleApi('GET', `/inspector/captures/${foreign.id}/pair`)).status).toBe(404);
    expect((await consoleApi('GET', '/inspector/captures/cap_nope')).status).toBe(404);
  });
});

describe('stats', () => {
  it('counts deliveries per minute by outcome, captures, and latency percentiles', async () => {
    const s = (await consoleApi('GET', '/inspector/stats')).body;
    expect(s.minutes).toBe(60);
    expect(s.buckets).toHaveLength(60);
    expect(s.totals.succeeded).toBe(2);
    expect(s.totals.captures).toBeGreaterThanOrEqual(4);
    expect(s.totals.p50_ms).toEqual(expect.any(Number));
    expect(s.totals.p95_ms).toBeGreaterThanOrEqual(s.totals.p50_ms);
    const last = s.buckets[s.buckets.length - 1];
    expect(Date.parse(last.start)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(last.start)).toBeGreaterThan(Date.now() - 120_000);
    // Filters apply to the chart too.
    const onlyB = (await consoleApi('GET', `/inspector/stats?inbox_id=${inboxB.id}&minutes=5`)).body;
    expect(onlyB.buckets).toHaveLength(5);
    expect(onlyB.totals.succeeded).toBe(0);
    expect((await consoleApi('GET', '/inspector/stats?minutes=1000')).status).toBe(422);
  });

  it('requires the console token', async () => {
    expect((await fetch(`${t.urls.api_url}/console/api/inspector/feed`)).status).toBe(401);
  });
});
