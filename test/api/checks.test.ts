// POST /v2/test_helpers/checks: the conformance scorecard over real HTTP, against small
// loopback endpoints written here (test/helpers/check-endpoints.ts), with the exact
// items each passes and fails, and its deliveries in the inspector tagged "check".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSecret } from '../../src-main/backend/delivery/signing.js';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { acceptEverything, redirectEverything, verifyingEndpoint, type Endpoint } from '../helpers/check-endpoints.js';
import { CHECK_ITEM_IDS, type CheckResult } from '../../src-shared/check-types.js';

const REFUSALS = ['refuses_unsigned', 'refuses_other_secret', 'refuses_changed_body', 'refuses_old_timestamp', 'refuses_future_timestamp'];

const statuses = (r: CheckResult) => Object.fromEntries(r.items.map((i) => [i.id, i.status]));

describe('POST /v2/test_helpers/checks', () => {
  let tb: TestBackend;
  const secret = generateSecret();
  const endpoints: Endpoint[] = [];
  beforeAll(async () => (tb = await startTestBackend()));
  afterAll(async () => {
    await Promise.all(endpoints.map((e) => e.close()));
    await tb.destroy();
  });

  async function check(url: string, extra: Record<string, unknown> = {}): Promise<CheckResult> {
    const res = await tb.api('POST', '/v2/test_helpers/checks', { url, secret, timeout_ms: 5000, ...extra });
    expect(res.status, res.text).toBe(201);
    return res.body as CheckResult;
  }

  it('passes every item for an endpoint that verifies with standardwebhooks and dedupes', async () => {
    const ep = await verifyingEndpoint(secret);
    endpoints.push(ep);
    const r = await check(ep.url);
    expect(r).toMatchObject({ object: 'check', url: ep.url, reachable: true, passed: true, timeout_ms: 5000 });
    expect(r.id).toMatch(/^chk_/);
    expect(r.items.map((i) => i.id)).toEqual([...CHECK_ITEM_IDS]);
    expect(statuses(r)).toEqual(Object.fromEntries(CHECK_ITEM_IDS.map((id) => [id, 'pass'])));
    expect(r.score).toEqual({ passed: 14, warned: 0, failed: 0, total: 14 });
    expect(r.summary).toBe('14/14 passed; every required item passed');
    // Every answer the endpoint gave matches what the scorecard says it sent: 5 refused, the rest accepted.
    expect(ep.received.filter((x) => x.status === 401)).toHaveLength(5);
    expect(ep.received).toHaveLength(34);
    const signed = r.items.find((i) => i.id === 'accepts_signed')!;
    expect(signed.latency_ms).toEqual(expect.any(Number));
    expect(signed.fix).toBe('');
    expect(signed.why).not.toBe('');
    // The repeat is the same delivery (one webhook-id, two requests).
    const repeated = r.items.find((i) => i.id === 'accepts_repeated_id')!;
    expect(repeated.deliveries).toHaveLength(1);
    expect(ep.received.filter((x) => x.id === repeated.deliveries[0]).map((x) => x.status)).toEqual([204, 200]);
  });

  it('fails exactly the refusal items for an endpoint that accepts everything', async () => {
    const ep = await acceptEverything();
    endpoints.push(ep);
    const r = await check(ep.url);
    expect(r.passed).toBe(false);
    const expected = Object.fromEntries(CHECK_ITEM_IDS.map((id) => [id, REFUSALS.includes(id) ? 'fail' : 'pass']));
    expect(statuses(r)).toEqual(expected);
    expect(r.score).toEqual({ passed: 9, warned: 0, failed: 5, total: 14 });
    expect(r.summary).toBe(`9/14 passed; failed: ${REFUSALS.join(', ')}`);
    const forged = r.items.find((i) => i.id === 'refuses_other_secret')!;
    expect(forged.message).toMatch(/^Signed with another secret: accepted it, answered 200/);
    expect(forged.fix).toMatch(/HMAC-SHA256/);
  });

  it('fails the accepting items and "no redirect" for an endpoint that redirects', async () => {
    const ep = await redirectEverything();
    endpoints.push(ep);
    const r = await check(ep.url);
    expect(r.passed).toBe(false);
    const s = statuses(r);
    expect(s.no_redirect).toBe('fail');
    expect(s.accepts_signed).toBe('fail');
    expect(s.survives_burst).toBe('fail');
    expect(r.items.find((i) => i.id === 'no_redirect')!.message).toMatch(/answered 307 to \/webhooks\/countersign\//);
    // Redirects are never followed: every request went to the endpoint once.
    expect(ep.received).toHaveLength(34);
  });

  it('says the endpoint is unreachable when nothing answers', async () => {
    const r = await check('http://127.0.0.1:9/hook', { timeout_ms: 1000 });
    expect(r.reachable).toBe(false);
    expect(r.passed).toBe(false);
    expect(r.items.find((i) => i.id === 'accepts_signed')!.message).toMatch(/did not answer/);
  });

  it('records every request in the inspector as a delivery tagged "check", filterable by origin and by the check id', async () => {
    const ep = await verifyingEndpoint(secret);
    endpoints.push(ep);
    const r = await check(ep.url);
    const feed = await tb.consoleApi('GET', `/inspector/feed?origin=check&subscription_id=${r.id}&limit=100`);
    expect(feed.status, feed.text).toBe(200);
    const rows = feed.body.data as { id: string; origin?: string; outcome: string; event_type: string }[];
    const ids = new Set(r.items.flatMap((i) => i.deliveries));
    expect(rows).toHaveLength(33);
    expect(new Set(rows.map((x) => x.id))).toEqual(ids);
    expect(rows.every((x) => x.origin === 'check')).toBe(true);
    expect(rows.filter((x) => x.outcome === 'failed')).toHaveLength(5);
    expect(rows.some((x) => x.event_type === 'document.archived')).toBe(true);
    // A document's own deliveries are not "check" ones.
    const plain = await tb.consoleApi('GET', `/inspector/feed?origin=check&subscription_id=wh_none`);
    expect(plain.body.data).toEqual([]);
  });

  it('refuses a bad request with 422 naming each field, and sends nothing', async () => {
    const ep = await acceptEverything();
    endpoints.push(ep);
    const res = await tb.api('POST', '/v2/test_helpers/checks', { url: 'ftp://x', secret: 'nope', timeout_ms: 5, extra: 1 });
    expect(res.status).toBe(422);
    const fields = (res.body.error.details.fields as { field: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(['extra', 'secret', 'timeout_ms', 'url']);
    const missing = await tb.api('POST', '/v2/test_helpers/checks', { url: ep.url });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.fields).toEqual([{ field: 'secret', message: expect.stringContaining('required') }]);
    expect(ep.received).toHaveLength(0);
  });
});
