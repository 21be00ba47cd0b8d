// The service's young generation and its idle collection (backend/memory-settings.ts,
// backend/idle-collector.ts), in the built headless entry started as users start it
// (`node out/main/headless.js`, no flag that sets anything, no environment variable).
// The same allocation load runs inside the service (through Node's inspector, opened by
// SIGUSR1) and in a bare Node process: objects that live long enough to survive young
// collections, as queued deliveries do, which is what makes V8 grow its young
// generation. Then the service is left alone, and its young generation must come back
// down with no collection asked for from outside. The cap follows the load: the steady cap
// without a backlog of deliveries, the burst cap while one waits (a subscriber that does
// not answer yet), and the steady cap again once the burst is worked off.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { startHeadless } from '../helpers/headless.js';
import { openInspector } from '../helpers/inspector.js';
import { waitUntil } from '../helpers/wait.js';
import type { ServerResponse } from 'node:http';
import { YOUNG_GENERATION_BURST_CAP_MIB, YOUNG_GENERATION_CAP_MIB } from '../../src-main/backend/memory-settings.js';
import { BACKLOG_TICK_MS, BURST_BACKLOG, IDLE_TICK_MS, QUIET_TICKS } from '../../src-main/backend/idle-collector.js';
import { startSink } from '../helpers/sink.js';

const MIB = 1024 * 1024;
const YOUNG = `(() => process.getBuiltinModule('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)`;
/**
 * 2 s of allocation with survivors, in event-loop turns of about 0.3 MB each (the size of a
 * busy request's or delivery's turn, well under the young generation); resolves with the
 * largest young generation seen. The cap is set from each collection's entry, which Node
 * hands over a turn later, so it is the size of a turn that the cap's promise is about.
 */
const LOAD = `(async () => {
  const young = ${YOUNG};
  let max = young();
  const live = [];
  const end = Date.now() + 2000;
  while (Date.now() < end) {
    for (let i = 0; i < 2000; i++) live.push({ a: i, b: 'x' + i, c: [i, i] });
    if (live.length > 200000) live.splice(0, 100000);
    await new Promise((r) => setImmediate(r));
    max = Math.max(max, young());
  }
  return max;
})()`;

/** The LOAD in a bare Node process: the largest young generation it reached. */
async function bareNodeYoungMax(): Promise<number> {
  const child = spawn(process.execPath, ['-e', `${LOAD}.then((m) => console.log(m))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  await new Promise((r) => child.once('exit', r));
  return Number(out.trim());
}

describe('the young generation and the idle collection', () => {
  it('keeps the young generation at its cap under load, and gives it back once the service is quiet', async () => {
    // The load makes a bare Node grow its young generation past the cap: without the cap, so would the service.
    expect(await bareNodeYoungMax()).toBeGreaterThan(YOUNG_GENERATION_CAP_MIB * MIB);

    // --inspect-port only chooses where SIGUSR1 opens the inspector (a free loopback port); it sets nothing.
    const h = await startHeadless({ env: { NODE_OPTIONS: '--inspect-port=127.0.0.1:0' } });
    const inspector = await openInspector(h.child, h.stderr);
    const shrunk = (what: string) =>
      waitUntil(
        what,
        async () => {
          const now = await inspector.evaluate<number>(`${YOUNG}()`);
          return now <= 2 * MIB && now;
        },
        (QUIET_TICKS + 10) * IDLE_TICK_MS,
        250,
      );
    try {
      // Loading left the young generation grown (8 MiB and more); once quiet after start-up, it is given back.
      expect(await shrunk('the young generation to shrink after start-up')).toBeLessThanOrEqual(2 * MIB);
      const max = await inspector.evaluate<number>(LOAD);
      expect(max).toBeLessThanOrEqual(YOUNG_GENERATION_CAP_MIB * MIB);
      expect(await inspector.evaluate<number>(`${YOUNG}()`)).toBeGreaterThan(2 * MIB);
      // Quiet from here on: within a few ticks past QUIET_TICKS, the service collects on its own.
      expect(await shrunk('the young generation to shrink without a collection asked for')).toBeLessThanOrEqual(2 * MIB);
    } finally {
      inspector.close();
      await h.stop();
    }
  });

  it('lets the young generation grow to the burst cap while a burst of deliveries waits, and back to the steady cap after it', async () => {
    expect(await bareNodeYoungMax()).toBeGreaterThan(YOUNG_GENERATION_BURST_CAP_MIB * MIB);
    // The subscriber holds every request until released: the deliveries stay waiting (in flight or queued).
    const sink = await startSink();
    const held: ServerResponse[] = [];
    sink.respond = (_r, res) => void held.push(res);
    const h = await startHeadless({ env: { NODE_OPTIONS: '--inspect-port=127.0.0.1:0', COUNTERSIGN_DELIVERY_TIMEOUT_MS: '120000' } });
    const inspector = await openInspector(h.child, h.stderr);
    const young = () => inspector.evaluate<number>(`${YOUNG}()`);
    const shrunk = (what: string) => waitUntil(what, async () => (await young()) <= 2 * MIB, (QUIET_TICKS + 10) * IDLE_TICK_MS, 250);
    try {
      const subs = 20;
      const hooks: string[] = [];
      for (let i = 0; i < subs; i++) {
        const hook = await h.api('POST', '/v2/webhooks', { url: `${sink.url}/s${i}`, type: 'document.updated' });
        expect(hook.status).toBe(201);
        hooks.push(hook.body.public_id);
      }
      const doc = await h.api('POST', '/v2/test_helpers/documents', { title: 't', recipients: [{ name: 'a', email: 'a@b.co' }] });
      expect(doc.status).toBe(201);
      await shrunk('the young generation to shrink after start-up');
      // Each answered PUT has made its deliveries: BURST_BACKLOG and more wait now, none can end.
      const puts = Math.ceil((BURST_BACKLOG * 1.2) / subs);
      for (let n = 0; n < puts; n++) expect((await h.api('PUT', `/documents/${doc.body.public_id}`, { title: `t-${n}` })).status).toBe(200);
      await waitUntil('the first deliveries to arrive', async () => held.length > 0);
      const inBurst = await inspector.evaluate<number>(LOAD);
      expect(inBurst).toBeGreaterThan(YOUNG_GENERATION_CAP_MIB * MIB);
      expect(inBurst).toBeLessThanOrEqual(YOUNG_GENERATION_BURST_CAP_MIB * MIB);

      // Released: the burst is worked off, its collection gives the young generation back, and it regrows only to the steady cap.
      sink.respond = (_r, res) => res.end('ok');
      for (const res of held.splice(0)) res.end('ok');
      await waitUntil('every delivery to arrive', async () => sink.received.length >= puts * subs, 60_000, 4 * BACKLOG_TICK_MS);
      // Arrived is not ended: the burst is over for the service once every delivery is logged as
      // succeeded. Its backlog check (every BACKLOG_TICK_MS) then runs the burst's collection; the
      // load below must not start before it, or that collection would shrink the young generation
      // in the middle of the load, which then regrows it faster than the cap's check follows.
      const ended = async () => {
        for (let i = 0; i < subs; i++) {
          const page = await h.api('GET', `/v2/webhooks/${hooks[i]}/deliveries?limit=100`);
          if (page.body.data.some((d: { status: string }) => d.status !== 'succeeded')) return false;
        }
        return true;
      };
      await waitUntil('every delivery to be logged as succeeded', ended, 30_000, BACKLOG_TICK_MS);
      await new Promise((r) => setTimeout(r, 3 * BACKLOG_TICK_MS));
      await shrunk('the young generation to shrink after the burst');
      expect(await inspector.evaluate<number>(LOAD)).toBeLessThanOrEqual(YOUNG_GENERATION_CAP_MIB * MIB);
    } finally {
      inspector.close();
      await h.stop();
      await sink.close();
    }
  });
});
