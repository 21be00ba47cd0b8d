// The delivery contract across a crash (docs/storage.md, "What a crash keeps"): the
// built headless service is killed with SIGKILL in the middle of a burst of PUTs fanned
// out to several subscriptions, then started again on the same data directory. Every
// PUT that was answered has all its deliveries made (before or after the restart),
// nothing that was sent is unknown after the restart, and no delivery arrives more than
// twice (at most one repeat, of an attempt the crash cut off).
import { describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHeadless, type Headless } from '../helpers/headless.js';
import { startSink, type Received } from '../helpers/sink.js';
import { waitUntil } from '../helpers/wait.js';

const SUBS = 8;

/** The title a received delivery carries, and the subscription it was sent for (its path). */
function whatCame(r: Received): { title: string; path: string; id: string } {
  const body = JSON.parse(r.body) as { data: { document: { title: string } } };
  return { title: body.data.document.title, path: r.path, id: String(r.headers['webhook-id']) };
}

/** Every delivery of a subscription, page by page. */
type Listed = { id: string; status: string; event_id: string; last_error: string | null };
async function allDeliveries(h: Headless, sub: string): Promise<Listed[]> {
  const all: Listed[] = [];
  for (let after = ''; ;) {
    const page = await h.api('GET', `/v2/webhooks/${sub}/deliveries?limit=100${after && `&starting_after=${after}`}`);
    all.push(...(page.body.data as Listed[]));
    if (!page.body.has_more) return all;
    after = all[all.length - 1].id;
  }
}

describe('a crash in the middle of a burst', () => {
  it('loses no delivery of an answered PUT, knows every delivery it sent, and repeats none more than once', async () => {
    const sink = await startSink();
    // Half the subscriptions get no answer until the service has died, so deliveries are
    // surely in flight (those requests arrived: they count as sent) and waiting when it does.
    let crashed = false;
    const held = new Set(['/s4', '/s5', '/s6', '/s7']);
    sink.respond = (r, res) => void (crashed || !held.has(r.path) ? setTimeout(() => res.end('ok'), 5) : undefined);
    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-crash-'));
    let second: Headless | undefined;
    try {
      const first = await startHeadless({ dataDir });
      const subs: string[] = [];
      for (let i = 0; i < SUBS; i++) {
        const res = await first.api('POST', '/v2/webhooks', { url: `${sink.url}/s${i}`, type: 'document.updated' });
        expect(res.status).toBe(201);
        subs.push(res.body.public_id as string);
      }
      const doc = await first.api('POST', '/v2/test_helpers/documents', { title: 'start', recipients: [{ name: 'a', email: 'a@b.co' }] });
      expect(doc.status).toBe(201);
      const answered: string[] = [];
      let n = 0;
      let dead = false;
      // Four clients, each PUTting one title after another until the service dies.
      const client = async () => {
        while (!dead) {
          const title = `t-${n++}`;
          const res = await first.api('PUT', `/documents/${doc.body.public_id}`, { title }).catch(() => null);
          if (res?.status === 200) answered.push(title);
        }
      };
      const clients = [client(), client(), client(), client()];
      await waitUntil('40 answered PUTs and the first deliveries', async () => answered.length >= 40 && sink.received.length >= 20, 20_000);
      first.child.kill('SIGKILL');
      dead = true;
      crashed = true;
      await Promise.all(clients);
      await first.stop();
      const sentBefore = sink.received.map(whatCame);
      const acked = [...answered];
      // The kill did land mid-burst: the held subscriptions had at most their 16 slots each in flight.
      expect(sentBefore.filter((c) => held.has(c.path)).length).toBeLessThanOrEqual(4 * 16);
      expect(sentBefore.length).toBeLessThan(acked.length * SUBS);

      second = await startHeadless({ dataDir });
      const owed = new Set(acked.flatMap((t) => subs.map((_, i) => `${t} /s${i}`)));
      const seen = () => new Set(sink.received.map(whatCame).map((c) => `${c.title} ${c.path}`));
      await waitUntil('every delivery of every answered PUT', async () => [...owed].every((k) => seen().has(k)), 30_000);
      // Every delivery of an answered PUT has ended (succeeded) before repeats are counted.
      const ackedSet = new Set(acked);
      const ackedEvents = new Set(
        sink.received
          .map((r) => JSON.parse(r.body))
          .filter((b) => ackedSet.has(b.data.document.title))
          .map((b) => b.id),
      );
      let stuck: unknown[] = [];
      await waitUntil(
        'every delivery of an answered PUT to succeed, and none to be left pending',
        async () => {
          stuck = [];
          for (const sub of subs)
            stuck.push(
              ...(await allDeliveries(second!, sub)).filter(
                (d) => (ackedEvents.has(d.event_id) && d.status !== 'succeeded') || d.status === 'pending',
              ),
            );
          return stuck.length === 0;
        },
        30_000,
      ).catch((e: Error) => Promise.reject(new Error(`${e.message}: ${JSON.stringify(stuck.slice(0, 3))}`)));

      // Nothing is left pending: a delivery of a PUT that got no answer was either owed (its change was
      // saved) and made, or ended at the restart as never sent (its change was not saved).
      for (const sub of subs) {
        const left = (await allDeliveries(second, sub)).filter((d) => d.status === 'pending' || d.status === 'cancelled');
        for (const d of left)
          expect(d, JSON.stringify(d)).toMatchObject({ status: 'cancelled', last_error: expect.stringMatching(/^Never sent/) });
        expect(left.filter((d) => ackedEvents.has(d.event_id))).toEqual([]);
      }
      const times = new Map<string, number>();
      for (const c of sink.received.map(whatCame)) times.set(c.id, (times.get(c.id) ?? 0) + 1);
      expect([...times.entries()].filter(([, k]) => k > 2)).toEqual([]);
      // Each delivery sent before the crash (answered or not) is known to the restarted service, and succeeded.
      const byPath = new Map(subs.map((s, i) => [`/s${i}`, s]));
      for (const c of sentBefore) {
        const got = await second.api('GET', `/v2/webhooks/${byPath.get(c.path)}/deliveries/${c.id}`);
        expect(got.status, `${c.id} (${c.title} ${c.path})`).toBe(200);
        expect(got.body.status).toBe('succeeded');
      }
    } finally {
      await second?.stop();
      await sink.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
