// The test clock over real HTTP (/v2/test_helpers/clock): freeze, advance, resume, the
// one error shape for bad input, the default eight-attempt schedule (33 hours of
// retries) played in seconds of wall time with each attempt made, signed and recorded
// at its own virtual time, and virtual time kept across a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE } from '../../src-main/backend/config.js';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Sink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';

let t: TestBackend | undefined;
let sink: Sink | undefined;
afterEach(async () => {
  await t?.destroy();
  await sink?.close();
  t = sink = undefined;
});

const iso = (ms: number) => new Date(ms).toISOString();
const clockNow = async () => Date.parse((await t!.api('GET', '/v2/test_helpers/clock')).body.now);

describe('POST /v2/test_helpers/clock/…', () => {
  it('freezes, advances and resumes the service time, and documents carry it', async () => {
    t = await startTestBackend();
    const start = await t.api('GET', '/v2/test_helpers/clock');
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ object: 'test_clock', frozen: false, offset_seconds: 0 });
    expect(Math.abs(Date.parse(start.body.now) - Date.now())).toBeLessThan(2000);

    const frozen = await t.api('POST', '/v2/test_helpers/clock/freeze');
    expect(frozen.status).toBe(200);
    expect(frozen.body.frozen).toBe(true);
    const t0 = Date.parse(frozen.body.now);
    await new Promise((r) => setTimeout(r, 50));
    expect(await clockNow()).toBe(t0);

    const moved = await t.api('POST', '/v2/test_helpers/clock/advance', { seconds: 86_400 });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ object: 'test_clock', frozen: true, now: iso(t0 + 86_400_000) });
    expect(moved.body.offset_seconds).toBeGreaterThanOrEqual(86_399);
    const doc = await t.api('POST', '/v2/test_helpers/documents', { title: 'Lease', recipients: [{ name: 'a', email: 'a@b.co' }] });
    expect(doc.body.created_at).toBe(iso(t0 + 86_400_000));

    const resumed = await t.api('POST', '/v2/test_helpers/clock/resume');
    expect(resumed.body.frozen).toBe(false);
    const ahead = await waitUntil('virtual time to run on from the frozen instant', async () => {
      const n = await clockNow();
      return n > t0 + 86_400_000 && n;
    });
    expect(ahead - Date.now()).toBeGreaterThan(86_390_000);
    expect((await t.api('GET', '/v2/test_helpers/clock')).body.offset_seconds).toBeGreaterThanOrEqual(86_390);
  });

  it('refuses bad input in the one error shape, and a member key', async () => {
    t = await startTestBackend();
    const bad = [
      [{}, 'seconds'],
      [{ seconds: 'soon' }, 'seconds'],
      [{ seconds: -5 }, 'seconds'],
      [{ seconds: 0 }, 'seconds'],
      [{ seconds: 40_000_000 }, 'seconds'],
      [{ seconds: 5, by: 'me' }, 'by'],
    ] as const;
    for (const [body, field] of bad) {
      const r = await t.api('POST', '/v2/test_helpers/clock/advance', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe('validation_error');
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await t.api('POST', '/v2/test_helpers/clock/freeze', { now: 1 })).status).toBe(422);
    expect((await t.api('GET', '/v2/test_helpers/clock')).body).toMatchObject({ frozen: false, offset_seconds: 0 });
    const member = (await t.api('POST', '/v2/test_helpers/api_keys', { role: 'member' })).body;
    const r = await t.api('POST', '/v2/test_helpers/clock/advance', { seconds: 60 }, member.key);
    expect(r.status).toBe(403);
    expect(await clockNow()).toBeLessThan(Date.now() + 30_000);
  });

  it('plays the default schedule (eight attempts over 27.6 hours) in seconds, each attempt at its virtual time', async () => {
    t = await startTestBackend({ retrySchedule: [...DEFAULT_RETRY_SCHEDULE] });
    sink = await startSink();
    sink.respond = (_req, res) => ((res.statusCode = 503), res.end('down'));
    const t0 = Date.parse((await t.api('POST', '/v2/test_helpers/clock/freeze')).body.now);
    const sub = (await t.api('POST', '/v2/webhooks', { url: sink.url, type: 'document.created' })).body;
    await t.api('POST', '/v2/test_helpers/documents', { title: 'Lease', recipients: [{ name: 'a', email: 'a@b.co' }] });
    await sink.waitFor(1);
    // Frozen: real time passes, no retry falls due.
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.received).toHaveLength(1);

    const total = DEFAULT_RETRY_SCHEDULE.reduce((a, b) => a + b, 0);
    const wallStart = Date.now();
    const moved = await t.api('POST', '/v2/test_helpers/clock/advance', { seconds: total + 60 });
    const wallMs = Date.now() - wallStart;
    expect(moved.status).toBe(200);
    expect(wallMs).toBeLessThan(10_000);
    console.log(`[test-clock] ${total} s of retry schedule played in ${wallMs} ms of wall time`);

    // Attempt n is due at t0 + the schedule's first n-1 delays.
    const due = [0, ...DEFAULT_RETRY_SCHEDULE].map((_, i) => t0 + DEFAULT_RETRY_SCHEDULE.slice(0, i).reduce((a, b) => a + b, 0) * 1000);
    expect(sink.received).toHaveLength(8);
    expect(sink.received.map((r) => Number(r.headers['webhook-timestamp']))).toEqual(due.map((ms) => Math.floor(ms / 1000)));
    const list = (await t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data;
    const one = (await t.api('GET', `/v2/webhooks/${sub.public_id}/deliveries/${list[0].id}`)).body;
    expect(one).toMatchObject({ status: 'failed', attempts: 8, last_attempt_at: iso(due[7]), next_attempt_at: null });
    expect(one.attempt_log.map((a: { started_at: string }) => a.started_at)).toEqual(due.map(iso));
    expect(one.attempt_log.map((a: { next_attempt_at: string | null }) => a.next_attempt_at)).toEqual([...due.slice(1).map(iso), null]);
  });

  it('keeps virtual time across a restart', async () => {
    t = await startTestBackend();
    await t.api('POST', '/v2/test_helpers/clock/freeze');
    const frozenAt = Date.parse((await t.api('POST', '/v2/test_helpers/clock/advance', { seconds: 3_600 })).body.now);
    const dir = t.dataDir;
    await t.stop();
    t = await startTestBackend({}, dir);
    expect((await t.api('GET', '/v2/test_helpers/clock')).body).toMatchObject({ frozen: true, now: iso(frozenAt) });

    await t.api('POST', '/v2/test_helpers/clock/resume');
    await t.stop();
    t = await startTestBackend({}, dir);
    const after = (await t.api('GET', '/v2/test_helpers/clock')).body;
    expect(after.frozen).toBe(false);
    expect(Date.parse(after.now)).toBeGreaterThanOrEqual(frozenAt);
    expect(after.offset_seconds).toBeGreaterThan(3_500);
  });
});
