// Each response mode observed over real HTTP on loopback, plus the size limit and the
// receiver serving nothing but inbox paths.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { send, startReceiver, type ReceiverHarness } from './harness.js';
import type { ResponseMode } from '@shared/receiver-types.js';

let h: ReceiverHarness;
beforeEach(async () => {
  h = await startReceiver();
});
afterEach(() => h.stop());

const inboxWith = async (response: ResponseMode) => (await h.receiver.inboxes.create({ response })).id;

describe('response modes', () => {
  it('default answers 200 with the capture id', async () => {
    const id = (await h.receiver.inboxes.create({})).id;
    const r = await send(h, `/in/${id}`, '{}');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toMatchObject({ received: true, capture_id: r.capture!.id });
    expect(r.capture!.response.status).toBe(200);
  });

  it('a fixed status (503) is answered and recorded', async () => {
    const id = await inboxWith({ mode: 'status', status: 503 });
    const r = await send(h, `/in/${id}`, '{}');
    expect(r.status).toBe(503);
    expect(r.capture!.response.status).toBe(503);
  });

  it('delay_ms holds the answer back that long, but captures at once', async () => {
    const id = await inboxWith({ mode: 'status', status: 202, delay_ms: 400 });
    let capturedBeforeAnswer = false;
    const off = h.bus.subscribe((c) => {
      if (c.kind === 'capture') capturedBeforeAnswer = true;
    });
    const began = Date.now();
    const r = await send(h, `/in/${id}`, '{}');
    off();
    expect(r.status).toBe(202);
    expect(Date.now() - began).toBeGreaterThanOrEqual(390);
    expect(capturedBeforeAnswer).toBe(true);
  });

  it('fail_first_n fails the first N attempts of each webhook-id, then succeeds', async () => {
    const id = await inboxWith({ mode: 'fail_first_n', fail_first_n: 2, fail_status: 503 });
    const statuses = async (wid: string) => {
      const out: number[] = [];
      for (let i = 0; i < 3; i++) out.push((await send(h, `/in/${id}`, '{}', { 'webhook-id': wid })).status);
      return out;
    };
    expect(await statuses('msg_a')).toEqual([503, 503, 200]);
    expect(await statuses('msg_b')).toEqual([503, 503, 200]);
    // A new mode starts counting afresh.
    await h.receiver.inboxes.update(id, { response: { mode: 'fail_first_n', fail_first_n: 1, fail_status: 500 } });
    expect((await send(h, `/in/${id}`, '{}', { 'webhook-id': 'msg_a' })).status).toBe(500);
    expect((await send(h, `/in/${id}`, '{}', { 'webhook-id': 'msg_a' })).status).toBe(200);
  });

  it('counts attempts by webhook-id only under fail_first_n, the one mode that reads them', async () => {
    const id = (await h.receiver.inboxes.create({})).id;
    const modeCounted = () =>
      (h.receiver.inboxes as unknown as { modeCounts: Map<string, { m: Map<string, number> }> }).modeCounts.get(id)?.m.size ?? 0;
    for (const wid of ['msg_a', 'msg_b', 'msg_a']) expect((await send(h, `/in/${id}`, '{}', { 'webhook-id': wid })).status).toBe(200);
    expect(modeCounted()).toBe(0);
    // Switched to fail_first_n, it counts from then on (as it always did: a new mode starts afresh).
    await h.receiver.inboxes.update(id, { response: { mode: 'fail_first_n', fail_first_n: 1, fail_status: 503 } });
    expect((await send(h, `/in/${id}`, '{}', { 'webhook-id': 'msg_a' })).status).toBe(503);
    expect((await send(h, `/in/${id}`, '{}', { 'webhook-id': 'msg_a' })).status).toBe(200);
    expect(modeCounted()).toBe(1);
  });

  it('gone answers 410', async () => {
    const id = await inboxWith({ mode: 'gone' });
    expect((await send(h, `/in/${id}`, '{}')).status).toBe(410);
  });

  it('rate_limited answers 429 with Retry-After', async () => {
    const id = await inboxWith({ mode: 'rate_limited', retry_after: 7 });
    const r = await send(h, `/in/${id}`, '{}');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
  });

  it('hang never answers: the sender gives up, and the capture says after how long', async () => {
    const id = await inboxWith({ mode: 'hang' });
    const began = Date.now();
    const err = await request(`${h.base}/in/${id}`, { method: 'POST', body: '{}', headersTimeout: 300 }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.name).toMatch(/HeadersTimeoutError/);
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);
    await new Promise((r) => setTimeout(r, 50));
    const [c] = h.receiver.captures.list(id);
    expect(c.response.hang).toBe(true);
    expect(c.response.status).toBeNull();
    expect(c.response.sender_gave_up_after_ms).toBeGreaterThanOrEqual(250);
  });

  it('hang ends its socket when the receiver closes', async () => {
    const id = await inboxWith({ mode: 'hang' });
    const pending = request(`${h.base}/in/${id}`, { method: 'POST', body: '{}', headersTimeout: 10_000 }).then(
      () => 'answered',
      (e: Error) => e.name,
    );
    await new Promise((r) => setTimeout(r, 100));
    const began = Date.now();
    h.receiver.close();
    expect(await pending).toMatch(/SocketError/);
    expect(Date.now() - began).toBeLessThan(1000);
  });

  it('hang is cut after maxHangMs even if the sender never gives up', async () => {
    await h.stop();
    h = await startReceiver({ limits: { maxHangMs: 200 } });
    const id = await inboxWith({ mode: 'hang' });
    const r = await request(`${h.base}/in/${id}`, { method: 'POST', body: '{}', headersTimeout: 10_000 }).then(
      () => 'answered',
      (e: Error) => e.name,
    );
    expect(r).toMatch(/SocketError/);
  });
});

describe('limits and paths', () => {
  it('a body over 1 MiB is answered 413 and captured as such (not verified)', async () => {
    const id = (await h.receiver.inboxes.create({})).id;
    const big = Buffer.alloc(1024 * 1024 + 1, 0x61);
    const r = await send(h, `/in/${id}`, big, { 'webhook-id': 'msg_big' });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.text).error.code).toBe('payload_too_large');
    const [c] = h.receiver.captures.list(id);
    expect(c).toMatchObject({ body_truncated: true, size: big.length, verdict: null });
    expect(c.response.status).toBe(413);
    expect(c.body.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('exactly 1 MiB is accepted', async () => {
    const id = (await h.receiver.inboxes.create({})).id;
    expect((await send(h, `/in/${id}`, Buffer.alloc(1024 * 1024, 0x61))).status).toBe(200);
  });

  it('serves only inbox paths: anything else is a JSON 404, never captured', async () => {
    const id = (await h.receiver.inboxes.create({})).id;
    for (const path of ['/', '/v2/webhooks', '/console/api/inboxes', '/in/inb_doesNotExist', '/in/', `/x/in/${id}`]) {
      const r = await send(h, path, '{}');
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.text).error.code).toBe('not_found');
    }
    expect(h.receiver.captures.count(id)).toBe(0);
  });

  it('paths below an inbox and any method are captured, with the query', async () => {
    const id = (await h.receiver.inboxes.create({})).id;
    const r = await send(h, `/in/${id}/stripe/hooks?x=1`, 'a=b', { 'content-type': 'application/x-www-form-urlencoded' }, 'PUT');
    expect(r.status).toBe(200);
    expect(r.capture).toMatchObject({ method: 'PUT', path: `/in/${id}/stripe/hooks?x=1`, event_type: null });
    expect(r.capture!.verdict!.reason).toBe('no_signature_headers');
  });
});
