// Deliberate faults per subscription (/v2/test_helpers/webhooks/{id}/faults) over real
// HTTP: each fault observed at a real loopback endpoint (test/helpers/sink.ts), checked
// with the Standard Webhooks verification, and named in the attempt log.
import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src-main/backend/delivery/signing.js';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Received, type Sink } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';

let t: TestBackend | undefined;
let sink: Sink | undefined;
afterEach(async () => {
  await t?.destroy();
  await sink?.close();
  t = sink = undefined;
});

async function setup(faults: unknown, type = 'document.created') {
  t = await startTestBackend();
  sink = await startSink();
  const sub = (await t.api('POST', '/v2/webhooks', { url: sink.url, type })).body as { public_id: string; secret_key: string };
  const put = await t.api('PUT', `/v2/test_helpers/webhooks/${sub.public_id}/faults`, faults);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return sub;
}

const makeDoc = (title = 'Lease') =>
  t!.api('POST', '/v2/test_helpers/documents', { title, recipients: [{ name: 'Ann', email: 'ann@example.com' }] }).then((r) => r.body);

const verify = (r: Received, secret: string, now = Math.floor(Date.now() / 1000)) =>
  verifySignature({
    secret,
    msgId: r.headers['webhook-id'] as string,
    timestamp: r.headers['webhook-timestamp'] as string,
    signature: r.headers['webhook-signature'] as string,
    body: r.body,
    now,
  });

/** The attempt log of the subscription's only delivery, once it has `n` attempts. */
async function attemptsOf(subId: string, n = 1) {
  return waitUntil(`${n} attempt(s) logged`, async () => {
    const list = (await t!.api('GET', `/v2/webhooks/${subId}/deliveries`)).body.data;
    if (!list[0] || list[0].attempts < n) return null;
    return (await t!.api('GET', `/v2/webhooks/${subId}/deliveries/${list[0].id}`)).body.attempt_log as {
      faults?: string[];
      response: { status: number; headers: Record<string, string> } | null;
      request: { url: string };
    }[];
  });
}

describe('/v2/test_helpers/webhooks/{id}/faults', () => {
  it('sets, reads and clears a set; refuses bad input in the one shape; never shows in /v2/webhooks', async () => {
    const sub = await setup({ duplicate: { share: 0.5 }, stale_timestamp: {} });
    const got = await t!.api('GET', `/v2/test_helpers/webhooks/${sub.public_id}/faults`);
    expect(got.body).toEqual({
      object: 'webhook_faults',
      subscription_id: sub.public_id,
      faults: { duplicate: { share: 0.5 }, stale_timestamp: { seconds: 600 } },
    });
    expect(JSON.stringify((await t!.api('GET', `/v2/webhooks/${sub.public_id}`)).body)).not.toContain('fault');
    for (const [body, field] of [
      [{ duplicate: { share: 2 } }, 'duplicate.share'],
      [{ delay: {} }, 'delay.ms'],
      [{ delay: { ms: 600_000 } }, 'delay.ms'],
      [{ redirect: { status: 200 } }, 'redirect.status'],
      [{ explode: {} }, 'explode'],
      [{ wrong_secret: true }, 'wrong_secret'],
    ] as const) {
      const r = await t!.api('PUT', `/v2/test_helpers/webhooks/${sub.public_id}/faults`, body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await t!.api('GET', `/v2/test_helpers/webhooks/${sub.public_id}/faults`)).body.faults.duplicate).toEqual({ share: 0.5 });
    expect((await t!.api('PUT', '/v2/test_helpers/webhooks/wh_nope/faults', {})).status).toBe(404);
    expect((await t!.api('DELETE', `/v2/test_helpers/webhooks/${sub.public_id}/faults`)).status).toBe(204);
    expect((await t!.api('GET', `/v2/test_helpers/webhooks/${sub.public_id}/faults`)).body.faults).toEqual({});
  });

  it('duplicate: the same request twice, same webhook-id and signature', async () => {
    const sub = await setup({ duplicate: {} });
    await makeDoc();
    const [a, b] = await sink!.waitFor(2);
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.headers['webhook-signature']).toBe(a.headers['webhook-signature']);
    expect(b.body).toBe(a.body);
    expect(verify(a, sub.secret_key).ok).toBe(true);
    expect((await attemptsOf(sub.public_id))[0].faults).toEqual(['duplicate']);
  });

  it('delay: the attempt waits before it is sent', async () => {
    const sub = await setup({ delay: { ms: 600 } });
    const start = Date.now();
    await makeDoc();
    await sink!.waitFor(1);
    expect(Date.now() - start).toBeGreaterThanOrEqual(600);
    expect((await attemptsOf(sub.public_id))[0].faults).toEqual(['delay']);
  });

  it('stale_timestamp: signed correctly, but 10 minutes old', async () => {
    const sub = await setup({ stale_timestamp: {} });
    await makeDoc();
    const [r] = await sink!.waitFor(1);
    const ts = Number(r.headers['webhook-timestamp']);
    expect(Math.floor(Date.now() / 1000) - ts).toBeGreaterThanOrEqual(600);
    expect(verify(r, sub.secret_key)).toEqual({ ok: false, reason: 'timestamp_too_old' });
    expect(verify(r, sub.secret_key, ts).ok).toBe(true); // the signature itself is right
    expect((await attemptsOf(sub.public_id))[0].faults).toEqual(['stale_timestamp']);
  });

  it('wrong_secret: signed with another secret', async () => {
    const sub = await setup({ wrong_secret: {} });
    await makeDoc();
    const [r] = await sink!.waitFor(1);
    expect(verify(r, sub.secret_key)).toEqual({ ok: false, reason: 'no_matching_signature' });
    expect((await attemptsOf(sub.public_id))[0].faults).toEqual(['wrong_secret']);
  });

  it('rotation: two signatures, an unknown one first, then the right one', async () => {
    const sub = await setup({ rotation: {} });
    await makeDoc();
    const [r] = await sink!.waitFor(1);
    const sigs = String(r.headers['webhook-signature']).split(' ');
    expect(sigs).toHaveLength(2);
    expect(verify({ ...r, headers: { ...r.headers, 'webhook-signature': sigs[0] } }, sub.secret_key).ok).toBe(false);
    expect(verify(r, sub.secret_key).ok).toBe(true);
    expect((await attemptsOf(sub.public_id))[0].faults).toEqual(['rotation']);
  });

  it('reorder: deliveries held in a window arrive newest first', async () => {
    const sub = await setup({ reorder: { window_ms: 800 } });
    const made: string[] = [];
    for (const title of ['first', 'second', 'third']) made.push((await makeDoc(title)).public_id);
    const got = await sink!.waitFor(3);
    expect(got.map((r) => JSON.parse(r.body).data.document.public_id)).toEqual([...made].reverse());
    const list = (await t!.api('GET', `/v2/webhooks/${sub.public_id}/deliveries`)).body.data;
    for (const d of list) {
      const one = (await t!.api('GET', `/v2/webhooks/${sub.public_id}/deliveries/${d.id}`)).body;
      expect(one.attempt_log[0].faults).toEqual(['reorder']);
    }
  });

  it('redirect: the first attempt goes to a redirecting URL, is not followed, and the retry arrives', async () => {
    const sub = await setup({ redirect: { status: 302 } });
    await makeDoc();
    const log = await attemptsOf(sub.public_id, 2);
    expect(log[0].faults).toEqual(['redirect']);
    expect(log[0].response?.status).toBe(302);
    expect(log[0].response?.headers.location).toBe(new URL(sink!.url).href);
    expect(log[0].request.url).toContain('/_countersign/redirect/');
    expect(log[1].faults).toBeUndefined();
    expect(log[1].response?.status).toBe(200);
    expect(sink!.received).toHaveLength(1); // only the retry reached the endpoint
    // Each redirect URL is used once: it is no open redirect.
    const again = await fetch(log[0].request.url, { redirect: 'manual' });
    expect(again.status).toBe(404);
  });
});
