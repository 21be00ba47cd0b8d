// The history index tells the change an attempt made to its delivery from the stored row
// in place (history/row-compare.ts, DeliveryTable.changeBits) instead of reading the row
// back as a summary and comparing that. It must give changeBits' answer against the row
// read back, for every stored summary and new summary (generated: any field changed to
// any value, times of any shape, ids of other lengths), and decline (undefined) exactly
// for the rows whose summary is not of the usual shape.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { changeBits } from '../../../src-main/backend/store/history/attempt-bytes.js';
import { DeliveryTable } from '../../../src-main/backend/store/history/delivery-table.js';
import { IdInterner } from '../../../src-main/backend/store/history/id-interner.js';
import { Interner } from '../../../src-main/backend/store/history/interner.js';
import { LocPool } from '../../../src-main/backend/store/history/loc-pool.js';
import type { AttemptRecord, DeliverySummary } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, summaryAfter } from './history-fixtures.js';

const table = (strs = new Interner()) => new DeliveryTable(strs, new IdInterner(), new LocPool());
const KEYS = Object.keys(delivery());

/** The summary an attempt makes of `old` (as the engine's logAttempt does), then `changes` applied. */
function after(old: DeliverySummary, a: AttemptRecord, changes: [number, unknown][], extra?: object): DeliverySummary {
  const d: Record<string, unknown> = { ...summaryAfter(old, a) };
  for (const [i, v] of changes) d[KEYS[i]] = v;
  return Object.assign(d, extra) as unknown as DeliverySummary;
}

describe('the change an attempt made, told from the stored row', () => {
  it('is changeBits` answer against the row read back (property)', () => {
    // Mostly canonical ISO times (a row of the usual shape), some that are not (kept whole: declined).
    const time = fc.oneof(
      { arbitrary: fc.constantFrom('2025-01-01T00:00:01.000Z', '2025-01-01T00:00:00.000Z', '0999-12-31T23:59:59.999Z'), weight: 4 },
      { arbitrary: fc.date({ min: new Date(0), max: new Date(2 ** 42), noInvalidDate: true }).map((t) => t.toISOString()), weight: 4 },
      { arbitrary: fc.constantFrom('2025-01-01T00:00:01Z', '2025-02-30T00:00:00.000Z', '+010000-01-01T00:00:00.000Z'), weight: 1 },
    );
    const value = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -5, max: 600 }),
      fc.constantFrom(-0, 0.5, Number.NaN, Infinity, 1_700_000_000_000),
      fc.string({ maxLength: 30 }),
      fc.constantFrom('msg_1', 'evt_1', 'evt_2', 'wh_1', 'co_a', 'doc_1', 'pending', 'succeeded', 'failed', 'document.updated'),
      time,
      fc.boolean(),
    );
    const stored = fc.record({
      status: fc.constantFrom('pending', 'failed', 'succeeded'),
      attempts: fc.integer({ min: 0, max: 5 }),
      last_attempt_at: fc.option(time),
      last_status_code: fc.option(fc.integer({ min: 100, max: 599 })),
      last_error: fc.option(fc.string({ maxLength: 10 })),
      last_duration_ms: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })),
      next_attempt_at: fc.option(fc.integer({ min: 0, max: 2 ** 45 })),
      document_id: fc.option(fc.constantFrom('doc_1', 'doc_2')),
      created_at: time,
    });
    let answered = 0;
    let declined = 0;
    fc.assert(
      fc.property(
        stored,
        fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 6 },
          { arbitrary: fc.constantFrom({ imported: true }, { origin: 'check' }, { last_tunnel_offline: true }), weight: 1 },
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 6 }),
        fc.option(fc.integer({ min: 100, max: 599 })),
        fc.array(fc.tuple(fc.nat(KEYS.length - 1), value), { maxLength: 4 }),
        fc.option(fc.constantFrom({ last_tunnel_offline: true }, { note: 1 }), { nil: undefined }),
        (fields, storedExtra, ok, n, status, changes, extra) => {
          const t = table();
          const old = { ...delivery(), ...fields, ...storedExtra } as DeliverySummary;
          const s = t.insert(1, old, 1);
          const a = attempt({
            attempt: n,
            succeeded: ok,
            error: ok ? null : 'boom',
            response: status === null ? null : { status, headers: {}, body: '', truncated: false },
            next_attempt_at: ok ? null : 1_700_000_000_000,
          });
          const d = after(old, a, changes, extra);
          // Found by its id (as the history log finds it) half the time: the same answer either way.
          const inPlace = t.rows.changeBits(s, a, d, n % 2 === 0 ? old.id : undefined);
          const usual = t.oddOf(s) === undefined && storedExtra === undefined;
          if (!usual) {
            expect(inPlace).toBeUndefined();
            declined++;
            return;
          }
          answered++;
          expect(inPlace).toBe(changeBits(a, t.read(s), d));
        },
      ),
      { seed: 17, numRuns: 2000 },
    );
    expect(answered).toBeGreaterThan(800);
    expect(declined).toBeGreaterThan(100);
  });

  it('writes only the changed fields to the same row a whole write makes, or declines (property)', () => {
    // RowCompare.writeChanged after changeBits: the row, the interned strings and their
    // reference counts must end exactly as DeliveryTable.write of the new summary leaves them.
    const value = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -5, max: 600 }),
      fc.constantFrom(-0, 0.5, Number.NaN, 2 ** 31, 1_700_000_000_000, 'pending', 'failed', 'skipped', 'nope'),
      fc.string({ maxLength: 8 }),
      fc.date({ min: new Date(0), max: new Date(2 ** 42), noInvalidDate: true }).map((t) => t.toISOString()),
      fc.constantFrom('2025-01-01T00:00:01Z', 'evt_2', 'wh_2', 'co_b', 'doc_2', 'http://127.0.0.1:2/x'),
    );
    const stored = fc.record({
      status: fc.constantFrom('pending', 'failed'),
      attempts: fc.integer({ min: 0, max: 5 }),
      last_error: fc.option(fc.constantFrom('boom', 'timeout')),
      document_id: fc.option(fc.constantFrom('doc_1', 'doc_2')),
    });
    let wrote = 0;
    let declined = 0;
    fc.assert(
      fc.property(
        stored,
        fc.boolean(),
        fc.option(fc.constantFrom('boom', 'timeout', 'refused')),
        fc.array(fc.tuple(fc.nat(KEYS.length - 1), value), { maxLength: 2 }),
        (fields, ok, error, changes) => {
          const strs = new Interner();
          const t = table(strs);
          const old = { ...delivery(), ...fields } as DeliverySummary;
          const s = t.insert(1, old, 1);
          const a = attempt({
            attempt: old.attempts + 1,
            succeeded: ok,
            error: ok ? null : error,
            next_attempt_at: ok ? null : 1_700_000_000_000,
          });
          const d = after(old, a, changes);
          const bits = t.rows.changeBits(s, a, d) ?? -1;
          if (bits < 0) return;
          const wholeStrs = new Interner();
          const whole = table(wholeStrs);
          const w = whole.insert(1, old, 1);
          whole.write(w, d);
          if (!t.rows.writeChanged(s, d, bits)) {
            declined++;
            expect(JSON.stringify(t.read(s))).toBe(JSON.stringify(old)); // nothing written
            return;
          }
          wrote++;
          expect(JSON.stringify(t.read(s))).toBe(JSON.stringify(whole.read(w)));
          expect(t.isUsual(s)).toBe(whole.isUsual(w));
          expect(strs.dump()).toEqual(wholeStrs.dump());
          expect(strs.dump().map((_, i) => strs.refCount(i))).toEqual(wholeStrs.dump().map((_, i) => wholeStrs.refCount(i)));
        },
      ),
      { seed: 23, numRuns: 1500 },
    );
    expect(wrote).toBeGreaterThan(500);
    expect(declined).toBeGreaterThan(50);
  });

  it('sees a change of id or event id, compared as bytes, and the engine`s usual change as bits', () => {
    const t = table();
    const old = delivery({ id: 'msg_SZORVaR0k5SqymOhSLRInN', event_id: 'evt_SZORVaR0k5SqymOhSLRInN' });
    const s = t.insert(1, old, 1);
    const a = attempt({ delivery_id: old.id });
    const d = after(old, a, []);
    expect(t.rows.changeBits(s, a, d)).toBe(changeBits(a, old, d));
    expect(t.rows.changeBits(s, a, d)).toBeGreaterThan(0);
    for (const [k, v] of [
      ['id', 'msg_SZORVaR0k5SqymOhSLRInM'],
      ['id', 'msg_SZORVaR0k5SqymOhSLRIn'],
      ['event_id', 'evt_SZORVaR0k5SqymOhSLRInN\u0100'],
      ['event_id', 'evt_SZORVaR0k5SqymOhSLRInO'],
    ]) {
      const changed = { ...d, [k]: v };
      expect(t.rows.changeBits(s, a, changed)).toBe(changeBits(a, old, changed));
      expect(t.rows.changeBits(s, a, changed)).not.toBe(t.rows.changeBits(s, a, d));
    }
  });
});
