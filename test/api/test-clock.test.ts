// A whole backend on a manual clock (createBackend(config, { clock })), over real HTTP:
// the service's time stands still until moved, timestamps and signatures carry it, and
// retries fall due in virtual time, so hours of schedule play in a moment.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src-main/backend/clock.js';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Sink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';

const T0 = Date.UTC(2030, 0, 1, 9);
const iso = (ms: number) => new Date(ms).toISOString();
let t: TestBackend | undefined;
let sink: Sink | undefined;
afterEach(async () => {
  await t?.destroy();
  await sink?.close();
  t = sink = undefined;
});

describe('the service on a manual clock', () => {
  it('stamps what it makes with the clock, and plays a retry schedule of hours only as the clock moves', async () => {
    const clock = new ManualClock(T0);
    t = await startTestBackend({ retrySchedule: [3_600, 86_400] }, undefined, { clock });
    sink = await startSink();
    sink.respond = (_req, res) => ((res.statusCode = 503), res.end());
    const sub = (await t.api('POST', '/v2/webhooks', { url: sink.url, type: 'document.created' })).body;
    expect(sub.created_at).toBe(iso(T0));
    const doc = (await t.api('POST', '/v2/test_helpers/documents', { title: 'Lease', recipients: [{ name: 'a', email: 'a@b.co' }] })).body;
    expect(doc).toMatchObject({ created_at: iso(T0), updated_at: iso(T0) });

    const [first] = await sink.waitFor(1);
    expect(first.headers['webhook-timestamp']).toBe(String(T0 / 1000));
    expect(JSON.parse(first.body).timestamp).toBe(iso(T0));
    const log = () => t!.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`).then((r) => r.body.data[0]);
    await waitUntil('the first attempt logged', async () => (await log())?.attempts === 1);
    expect(await log()).toMatchObject({ status: 'pending', last_attempt_at: iso(T0), next_attempt_at: iso(T0 + 3_600_000) });

    // Real time passes, the service's does not: nothing falls due.
    await new Promise((r) => setTimeout(r, 300));
    clock.advance(3_600_000 - 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.received).toHaveLength(1);

    clock.advance(1);
    const [, second] = await sink.waitFor(2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.headers['webhook-timestamp']).toBe(String(T0 / 1000 + 3_600));
    await waitUntil('the second attempt logged', async () => (await log())?.attempts === 2);

    clock.advance(86_400_000);
    await sink.waitFor(3);
    const ended = await waitUntil('the delivery to fail for good', async () => {
      const d = await log();
      return d?.status === 'failed' && d;
    });
    expect(ended).toMatchObject({ attempts: 3, last_attempt_at: iso(T0 + 3_600_000 + 86_400_000), next_attempt_at: null });
  });
});
