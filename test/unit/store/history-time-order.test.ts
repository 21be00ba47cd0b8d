// The history index's order by creation time (store/history/time-order.ts), which the
// inspector pages over: against a real history log in a temp folder, its walk is
// exactly the company's deliveries sorted by (time, id), newest first, from any cursor,
// whatever happened before (imports of older deliveries, changed times and companies,
// retention, a reopen); a long history (above the ~125,000 arguments a spread call
// takes) is ordered at once; and its first page after a start-up reads only the
// deliveries it shows: no summary or id string is made for the others.
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { DeliverySummary, HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { DeliveryTable } from '../../../src-main/backend/store/history/delivery-table.js';
import { attempt, delivery, event, historyLogs } from './history-fixtures.js';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

afterEach(() => vi.restoreAllMocks());

/** The oracle: every delivery of the company (from the lists in creation order), sorted by time then id, newest first. */
function expected(log: HistoryLog, company: string): { id: string; ms: number }[] {
  const all = log.listDeliveries({ company_id: company }, { limit: 1_000_000 }).data;
  const ms = (d: DeliverySummary) => Date.parse(d.created_at) || 0;
  return all.map((d) => ({ id: d.id, ms: ms(d) })).sort((a, b) => b.ms - a.ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

const walked = (log: HistoryLog, company: string, from?: { ms: number; id: string }) =>
  [...log.deliveriesByTime(company, from)].map(({ d, ms }) => ({ id: d.id, ms }));

function checkAgainstOracle(log: HistoryLog, company: string, cursorAt: number): void {
  const want = expected(log, company);
  expect(walked(log, company)).toEqual(want);
  if (want.length === 0) return;
  const k = cursorAt % want.length;
  expect(walked(log, company, want[k])).toEqual(want.slice(k));
  // A cursor between two keys (a delivery gone since): the first one at or before it.
  const between = { ms: want[k].ms, id: `${want[k].id}~` };
  expect(walked(log, company, between)).toEqual(want.slice(k));
}

type Op =
  | { t: 'add'; company: number; tick: number; odd: boolean; done: boolean }
  | { t: 'retime'; which: number; tick: number }
  | { t: 'move'; which: number }
  | { t: 'finish'; which: number }
  | { t: 'read'; company: number; cursor: number }
  | { t: 'settle' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ t: fc.constant('add' as const), company: fc.nat(1), tick: fc.nat(12), odd: fc.boolean(), done: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('retime' as const), which: fc.nat(), tick: fc.nat(12) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('move' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('finish' as const), which: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('read' as const), company: fc.nat(1), cursor: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ t: 'settle' as const }) },
);

const setup = historyLogs({ cap: 12, segmentDeliveries: 4 });

describe('history index: deliveries by time', () => {
  it('walks exactly the deliveries sorted by (time, id), newest first, from any cursor, through adds, changes, retention and a reopen', async () => {
    let readsAfterRetention = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 40, maxLength: 100 }), async (ops) => {
        const { make } = await setup();
        let log = await make();
        const companies = ['co_a', 'co_b'];
        const made: DeliverySummary[] = [];
        const latest = new Map<string, DeliverySummary>();
        const pick = (which: number) => (made.length ? latest.get(made[which % made.length].id)! : undefined);
        const put = (d: DeliverySummary) => {
          latest.set(d.id, d);
          log.recordDelivery(d);
        };
        for (const o of ops) {
          if (o.t === 'add') {
            const n = made.length;
            // Few distinct times, so many ties; an odd one (not the canonical form) is kept whole;
            // finished ones can be dropped by retention, pending ones are carried.
            const at = o.odd ? iso(T0 + o.tick * 1000).replace('.000Z', 'Z') : iso(T0 + o.tick * 1000);
            const d = delivery({
              id: `msg_${(n * 7919) % 1000}_${n}`,
              event_id: `evt_${n}`,
              company_id: companies[o.company],
              created_at: at,
              ...(o.done ? { status: 'succeeded' as const, attempts: 1 } : {}),
            });
            log.recordEvent(event({ id: `evt_${n}`, company_id: d.company_id }), `{"n":${n}}`);
            made.push(d);
            put(d);
          } else if (o.t === 'retime') {
            const d = pick(o.which);
            if (d) put({ ...d, created_at: iso(T0 + o.tick * 1000 + 1) });
          } else if (o.t === 'move') {
            const d = pick(o.which);
            if (d) put({ ...d, company_id: d.company_id === 'co_a' ? 'co_b' : 'co_a' });
          } else if (o.t === 'finish') {
            const d = pick(o.which);
            if (d && d.status === 'pending') {
              log.recordAttempt(attempt({ delivery_id: d.id }));
              put({ ...d, status: 'succeeded', attempts: 1 });
            }
          } else if (o.t === 'read') {
            checkAgainstOracle(log, companies[o.company], o.cursor);
            if (made.some((d) => !log.getDelivery(d.id))) readsAfterRetention++;
          } else {
            await log.flush(); // lets retention (in the background) run
            for (let k = 0; k < 10; k++) await new Promise((r) => setTimeout(r, 1));
          }
        }
        for (const c of companies) checkAgainstOracle(log, c, ops.length);
        await log.close();
        log = await make();
        for (const c of companies) checkAgainstOracle(log, c, ops.length * 3);
      }),
      { seed: 26, numRuns: 60 },
    );
    // Retention did remove deliveries the orders held, before later walks.
    expect(readsAfterRetention).toBeGreaterThan(0);
  }, 120_000);

  const N = 160_000; // above the ~125,000 arguments a spread call takes on V8

  it(`orders ${N.toLocaleString('en-US')} deliveries at once, then ${N.toLocaleString('en-US')} older ones recorded later (an import)`, async () => {
    const { make } = await setup({ cap: 2 * N + 10, segmentDeliveries: undefined });
    const log = await make();
    const record = (from: number, count: number, msAt: (i: number) => number) => {
      for (let i = from; i < from + count; i++)
        log.recordDelivery(delivery({ id: `msg_${i}`, created_at: iso(msAt(i)), status: 'succeeded', attempts: 1 }));
    };
    record(0, N, (i) => T0 + N * 1000 + i * 1000);
    const first = walked(log, 'co_a');
    expect(first.length).toBe(N);
    expect(first[0].id).toBe(`msg_${N - 1}`);
    expect(first.every((e, k) => k === 0 || first[k - 1].ms > e.ms)).toBe(true);
    record(N, N, (i) => T0 + (i - N) * 1000);
    const both = walked(log, 'co_a');
    expect(both.length).toBe(2 * N);
    expect(both.every((e, k) => k === 0 || both[k - 1].ms > e.ms)).toBe(true);
    expect(both[0].id).toBe(`msg_${N - 1}`);
    expect(both[both.length - 1].id).toBe(`msg_${N}`);
  }, 120_000);

  it('gives the first page after a start-up with a long history without reading the other deliveries', async () => {
    const count = 50_000;
    const fanout = 10; // one event to ten subscriptions: ten deliveries with the same time
    const { make } = await setup({ cap: 2 * count, segmentDeliveries: 8_000 });
    let log = await make();
    for (let i = 0; i < count; i++) {
      const ms = T0 + Math.floor(i / fanout) * 1000;
      log.recordDelivery(delivery({ id: `msg_${String(i).padStart(6, '0')}`, subscription_id: `wh_${i % fanout}`, created_at: iso(ms) }));
    }
    await log.close();
    const reads = vi.spyOn(DeliveryTable.prototype, 'read');
    const ids = vi.spyOn(DeliveryTable.prototype, 'idOf');
    log = await make(); // closed segments load from their index sidecars, as at start-up (which orders them by time)
    const page: string[] = [];
    for (const { d } of log.deliveriesByTime('co_a')) if (page.push(d.id) === 101) break;
    // The newest by time, ties by id descending: exactly what a page shows.
    expect(page).toEqual(Array.from({ length: 101 }, (_, k) => `msg_${String(count - 1 - k).padStart(6, '0')}`));
    // Neither the start-up nor the page read any other delivery; ids only for the page's groups of equal times (ten each).
    expect(reads.mock.calls.length).toBe(101);
    expect(ids.mock.calls.length).toBeLessThanOrEqual(101 + fanout);
    // A deep cursor: the same, from the middle of the history.
    reads.mockClear();
    ids.mockClear();
    const mid = { ms: T0 + 2_000 * 1000, id: 'msg_020005' };
    const deep: string[] = [];
    for (const { d } of log.deliveriesByTime('co_a', mid)) if (deep.push(d.id) === 100) break;
    expect(deep).toEqual(Array.from({ length: 100 }, (_, k) => `msg_${String(20_005 - k).padStart(6, '0')}`));
    expect(reads.mock.calls.length).toBe(100);
    expect(ids.mock.calls.length).toBeLessThanOrEqual(100 + 2 * fanout);
  }, 120_000);

  it('pages through a large group of equal times (an import with one time for all) sorting it once, not once a page', async () => {
    const { make } = await setup({ cap: 10_000, segmentDeliveries: 2_000 });
    const log = await make();
    const count = 3_000;
    for (let i = 0; i < count; i++) log.recordDelivery(delivery({ id: `msg_${(i * 7919) % count}_${i}`, created_at: iso(T0) }));
    log.recordDelivery(delivery({ id: 'msg_newer', created_at: iso(T0 + 1) }));
    const ids = vi.spyOn(DeliveryTable.prototype, 'idOf');
    const seen: string[] = [];
    let from: { ms: number; id: string } | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page: { ms: number; id: string }[] = [];
      for (const { d, ms } of log.deliveriesByTime('co_a', from)) if (page.push({ ms, id: d.id }) === 101) break;
      seen.push(...page.slice(0, 100).map((e) => e.id));
      if (page.length < 101) break;
      from = page[100]; // the next page starts at the first row this one did not show, as the feed's cursor does
    }
    const all = log.listDeliveries({ company_id: 'co_a' }, { limit: 10_000 }).data.map((d) => d.id);
    expect(seen).toEqual([
      'msg_newer',
      ...all
        .filter((id) => id !== 'msg_newer')
        .sort()
        .reverse(),
    ]);
    // One sort of the group (its ids read once), then each page's cursor found in it by binary search.
    expect(ids.mock.calls.length).toBeLessThanOrEqual(count + 100);
  }, 60_000);
});
