// Scenarios and demo packs over real HTTP (/v2/test_helpers/scenarios…, demo_packs…):
// the shipped packs run on the test clock against the built-in receiver with the
// default retry schedule, a failing expectation is reported as such, a run against a
// real loopback endpoint that verifies signatures, bad input in the one error shape,
// and a pack exported with stand-ins loaded into a fresh data directory.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE } from '../../src-main/backend/config.js';
import { generateSecret } from '../../src-main/backend/delivery/signing.js';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { verifyingEndpoint, type Endpoint } from '../helpers/check-endpoints.js';

let t: TestBackend | undefined;
let other: TestBackend | undefined;
let endpoint: Endpoint | undefined;
afterEach(async () => {
  await Promise.all([t?.destroy(), other?.destroy(), endpoint?.close()]);
  t = other = endpoint = undefined;
});

const run = (body: unknown) => t!.api('POST', '/v2/test_helpers/scenarios/runs', body);

describe('scenario runs', () => {
  it('plays the flaky-endpoint pack on the test clock: attempts at their schedule, recovery, every expectation held', async () => {
    t = await startTestBackend({ retrySchedule: DEFAULT_RETRY_SCHEDULE });
    const before = Date.now();
    const res = await run({ name: 'flaky-endpoint' });
    expect(res.status).toBe(201);
    expect(res.body.steps.filter((s: any) => s.outcome !== 'passed')).toEqual([]);
    expect(res.body).toMatchObject({ object: 'scenario_run', name: 'flaky-endpoint', passed: true, summary: '4 of 4 expectations held' });
    expect(Date.now() - before).toBeLessThan(30_000); // an hour of retries, played in seconds

    // The sent event's attempts, at their virtual times: 0, +5 s, +305 s (500s), then +2,105 s (200).
    const sentId = res.body.steps[1].delivery_ids.find((id: string) => id);
    const sub = res.body.endpoint.subscription_id;
    const detail = await t.backend.history.getAttempts(sentId);
    const times = detail.map((a) => Date.parse(a.started_at));
    expect(times.map((x) => (x - times[0]) / 1000)).toEqual([0, 5, 305, 2105]);
    expect(detail.map((a) => a.response?.status)).toEqual([500, 500, 500, 200]);
    // The subscription was the run's own and is gone; the inbox and its captures stay.
    expect((await t.api('GET', `/v2/webhooks/${sub}`)).status).toBe(404);
    const captures = await t.consoleApi('GET', `/inboxes/${res.body.endpoint.inbox_id}/captures`);
    expect(captures.body.data.length).toBeGreaterThanOrEqual(6);
    // The clock was running before the run, and runs again after it.
    expect((await t.api('GET', '/v2/test_helpers/clock')).body.frozen).toBe(false);
  });

  it('every scenario and demo pack that ships holds, on the default schedule', async () => {
    t = await startTestBackend({ retrySchedule: DEFAULT_RETRY_SCHEDULE });
    const shipped = (await t.api('GET', '/v2/test_helpers/scenarios')).body.data;
    expect(shipped.length).toBeGreaterThanOrEqual(3);
    for (const { name } of shipped) {
      const res = await run({ name });
      expect({ name, summary: res.body.summary, failed: res.body.steps.filter((s: any) => s.outcome !== 'passed') }).toEqual({
        name,
        summary: expect.stringMatching(/^(\d+) of \1 expectations held$/),
        failed: [],
      });
    }
  });

  it('reports a failing expectation with why, and the steps after a step that cannot be done as not run', async () => {
    t = await startTestBackend();
    const res = await run({
      scenario: {
        name: 'wrong-hopes',
        steps: [
          { do: 'create_document', ref: 'nda' },
          { do: 'send', document: 'nda' },
          { do: 'expect', count: 5, deliveries: [{ type: 'document.completed', document: 'nda' }] },
          { do: 'view', document: 'ghost' },
          { do: 'expect', count: 2 },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.passed).toBe(false);
    expect(res.body.steps.map((s: any) => s.outcome)).toEqual(['passed', 'passed', 'failed', 'failed', 'not_run']);
    expect(res.body.steps[2].problems).toEqual([
      'expected 5 deliveries in all, the endpoint was sent 2',
      'document.completed of nda: never sent',
    ]);
    expect(res.body.steps[3].problems[0]).toMatch(/no document is named "ghost"/);
    expect(res.body.summary).toMatch(/^stopped at step 4 \(view\)/);
  });

  it("sends to the user's endpoint signed with their secret, which verifies with the standardwebhooks library", async () => {
    t = await startTestBackend();
    const secret = generateSecret();
    endpoint = await verifyingEndpoint(secret);
    const scenario = {
      name: 'mine',
      events: 'document.sent',
      steps: [
        { do: 'create_document', ref: 'a' },
        { do: 'send', document: 'a' },
        { do: 'expect', count: 1, deliveries: [{ type: 'document.sent', document: 'a', status: 'succeeded', last_status_code: 204 }] },
      ],
    };
    const res = await run({ scenario, target: { url: endpoint.url, secret } });
    expect(res.body).toMatchObject({ passed: true, endpoint: { url: endpoint.url, inbox_id: null } });
    expect(endpoint.received).toEqual([{ id: res.body.steps[1].delivery_ids[0], status: 204 }]);
  });

  it('sets faults on its subscription: a wrong secret is refused by an endpoint that verifies, then all is well again', async () => {
    t = await startTestBackend();
    const secret = generateSecret();
    endpoint = await verifyingEndpoint(secret);
    const scenario = {
      name: 'faulty',
      events: 'document.sent',
      steps: [
        { do: 'set_faults', faults: { wrong_secret: {} } },
        { do: 'create_document', ref: 'a' },
        { do: 'send', document: 'a' },
        { do: 'expect', deliveries: [{ type: 'document.sent', document: 'a', attempts: 1, last_status_code: 401 }] },
        { do: 'set_faults', faults: {} },
        { do: 'create_document', ref: 'b' },
        { do: 'send', document: 'b' },
        { do: 'expect', deliveries: [{ type: 'document.sent', document: 'b', status: 'succeeded', last_status_code: 204 }] },
      ],
    };
    const res = await run({ scenario, target: { url: endpoint.url, secret } });
    expect(res.body.steps.map((s: any) => s.summary)).toContain('faults on: wrong_secret');
    expect(res.body).toMatchObject({ passed: true, summary: '2 of 2 expectations held' });
    expect(endpoint.received.map((r) => r.status)).toEqual([401, 204]);
  });

  it('refuses bad input in the one error shape, and changes nothing', async () => {
    t = await startTestBackend();
    const both = await run({ name: 'lease-signing', scenario: { name: 'x', steps: [{ do: 'expect', count: 0 }] } });
    expect(both.status).toBe(422);
    expect(both.body.error.code).toBe('validation_error');
    const badStep = await run({ scenario: { name: 'x', steps: [{ do: 'teleport' }] } });
    expect(badStep.status).toBe(422);
    expect((await run({ name: 'no-such-scenario' })).status).toBe(404);
    expect((await t.api('GET', '/v2/test_helpers/scenarios/..%2Fetc')).status).toBe(404);
    expect((await t.api('GET', '/v2/webhooks')).body.data).toEqual([]);
    const list = await t.api('GET', '/v2/test_helpers/scenarios');
    expect(list.body.data.map((s: any) => s.name)).toEqual(expect.arrayContaining(['lease-signing', 'flaky-endpoint']));
  });
});

describe('demo packs', () => {
  it('loads a shipped pack, exports it with stand-ins and no secret, and another service loads the export', async () => {
    t = await startTestBackend();
    const loaded = await t.api('POST', '/v2/test_helpers/demo_packs/lease-signing/load');
    expect(loaded.status).toBe(201);
    expect(loaded.body.run.passed).toBe(true);
    expect(loaded.body.document_ids).toHaveLength(2);
    // A demo keeps its subscription, to be shown.
    expect((await t.api('GET', '/v2/webhooks')).body.data).toHaveLength(1);

    const pack = await t.api('GET', '/v2/test_helpers/demo_packs/export?name=moved');
    expect(pack.status).toBe(200);
    const text = JSON.stringify(pack.body);
    expect(text).not.toMatch(/whsec_|Sam Okafor|sam\.okafor@example\.com/);
    expect(text).toMatch(/Recipient 2\.1/);
    const kept = await t.api('GET', '/v2/test_helpers/demo_packs/export?keep_people=true');
    expect(JSON.stringify(kept.body)).toMatch(/Sam Okafor/);
    expect((await t.api('GET', '/v2/test_helpers/demo_packs/export?keep_people=maybe')).status).toBe(422);

    other = await startTestBackend();
    const into = await other.api('POST', '/v2/test_helpers/demo_packs/load', pack.body);
    expect(into.status).toBe(201);
    const docs = (await other.consoleApi('GET', '/documents?limit=10')).body.data;
    expect(docs.map((d: any) => [d.title, d.status]).sort()).toEqual([
      ['Lease renewal: 4 Quay Street', 'COMPLETED'],
      ['Residential lease: 12 Harbour Row, flat 3', 'COMPLETED'],
    ]);
  });
});
