// Deliveries of closed history segments over real HTTP: once a segment's index file is
// written, its deliveries' ids and most fields are read from that file, not memory
// (docs/storage.md, "The delivery history in memory"). Every way to reach a delivery by
// its id must still find it: the delivery's own page, a cursor, the inspector's detail
// with its attempts, a redelivery, and all of it again after a restart. A small history
// cap makes a segment every 50 deliveries (cap / 8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';
import { startSink, type Sink } from '../helpers/sink.js';

let t: TestBackend;
let sink: Sink;
beforeAll(async () => {
  sink = await startSink();
  t = await startTestBackend({ historyCap: 400 });
});
afterAll(async () => {
  await t.destroy();
  await sink.close();
});

async function waitUntil<T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Every delivery of the subscription, newest first, page by page through starting_after. */
async function allPages(api: TestBackend['api'], sub: string): Promise<{ id: string; status: string }[]> {
  const out: { id: string; status: string }[] = [];
  let after = '';
  for (;;) {
    const page = await api('GET', `/v2/webhooks/${sub}/deliveries?limit=7${after ? `&starting_after=${after}` : ''}`);
    expect(page.status).toBe(200);
    out.push(...page.body.data);
    if (!page.body.has_more) return out;
    after = page.body.data.at(-1).id;
  }
}

describe('deliveries of closed segments', () => {
  it('are found by id, cursor, detail and redelivery, before and after a restart', async () => {
    const sub = (await t.api('POST', '/v2/webhooks', { url: sink.url + '/hook', type: 'document.created' })).body.public_id as string;
    const n = 160;
    for (let i = 0; i < n; i++) {
      const res = await t.api('POST', '/v2/test_helpers/documents', { title: `Doc ${i}`, recipients: [{ name: 'A', email: 'a@b.co' }] });
      expect(res.status).toBe(201);
    }
    const listed = await waitUntil(
      'every delivery to succeed',
      () => allPages(t.api, sub),
      (all) => all.length === n && all.every((d) => d.status === 'succeeded'),
    );
    // Segments were closed and their index files written (their deliveries' ids then live there).
    const history = join(t.dataDir, 'history');
    await waitUntil(
      'two closed segments',
      () => readdir(history),
      (files) => files.filter((f) => f.endsWith('.idx')).length >= 2,
    );
    const ids = listed.map((d) => d.id);
    const oldest = ids.at(-1) as string;
    const check = async (b: TestBackend) => {
      for (const id of ids) {
        const one = await b.api('GET', `/v2/webhooks/${sub}/deliveries/${id}`);
        expect(one.status).toBe(200);
        expect(one.body.id).toBe(id);
      }
      expect((await allPages(b.api, sub)).map((d) => d.id)).toEqual(ids);
      expect((await b.api('GET', `/v2/webhooks/${sub}/deliveries/msg_notthere`)).status).toBe(404);
      const detail = await b.consoleApi('GET', `/inspector/deliveries/${oldest}`);
      expect(detail.status).toBe(200);
      expect(detail.body.row.id).toBe(oldest);
    };
    await check(t);

    // The oldest delivery sent again: the same webhook-id, and it is found as before.
    const before = sink.received.length;
    expect((await t.api('POST', `/v2/webhooks/${sub}/deliveries/${oldest}/redeliver`)).status).toBe(202);
    const again = await sink.waitFor(before + 1);
    expect(again.at(-1)?.headers['webhook-id']).toBe(oldest);
    await waitUntil(
      'the redelivery to be logged',
      () => t.api('GET', `/v2/webhooks/${sub}/deliveries/${oldest}`),
      (r) => r.body.attempts === 2,
    );
    await check(t);

    await t.stop();
    const restarted = await startTestBackend({ historyCap: 400 }, t.dataDir);
    try {
      await check(restarted);
      expect((await restarted.api('GET', `/v2/webhooks/${sub}/deliveries/${oldest}`)).body.attempts).toBe(2);
    } finally {
      await restarted.stop();
    }
  });
});
