// The outbox's set of owed deliveries, grouped by event (pending-set.ts): against a plain
// map of rows by id as the model, over generated sequences of fan-outs, single adds and
// removals in any order, by the row itself or by a key with the same ids.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PendingSet, type PendingRow } from '../../../src-main/backend/delivery/pending-set.js';

function row(eventId: string, n: number): PendingRow {
  return {
    id: `msg_${eventId}_${n}`,
    event_id: eventId,
    subscription_id: `wh_${n}`,
    company_id: 'co_1',
    event_type: 'document.updated',
    document_id: 'doc_1',
    created_at: '2030-01-01T00:00:00.000Z',
  };
}

describe('PendingSet', () => {
  it('holds a fan-out as one event and tells when its last row ends', () => {
    const set = new PendingSet();
    const rows = [row('evt_a', 0), row('evt_a', 1), row('evt_a', 2)];
    set.addEvent('evt_a', rows.slice());
    set.add(row('evt_b', 0));
    expect(set.size).toBe(4);
    expect(set.hasEvent('evt_a')).toBe(true);
    // Out of order, then by a key that is another object with the same ids.
    expect(set.remove(rows[1])).toBe('kept');
    expect(set.remove(rows[1])).toBe('absent');
    expect(set.has(rows[1])).toBe(false);
    expect(set.remove({ id: rows[0].id, event_id: 'evt_a' })).toBe('kept');
    expect(set.get({ id: rows[2].id, event_id: 'evt_a' })).toBe(rows[2]);
    expect(set.find(rows[2].id)).toBe(rows[2]);
    expect([...set.values()].map((r) => r.id)).toEqual([rows[2].id, 'msg_evt_b_0']);
    expect(set.remove(rows[2])).toBe('last');
    expect(set.hasEvent('evt_a')).toBe(false);
    expect(set.size).toBe(1);
    // A key naming another event is not the row, even with its id.
    expect(set.has({ id: 'msg_evt_b_0', event_id: 'evt_a' })).toBe(false);
    expect(set.remove({ id: 'msg_evt_b_0', event_id: 'evt_b' })).toBe('last');
    expect(set.size).toBe(0);
  });

  it('agrees with a map of rows by id over any sequence of adds and removals', () => {
    type Op =
      { kind: 'fanout'; event: number; n: number } | { kind: 'add'; event: number } | { kind: 'remove'; pick: number; copy: boolean };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('fanout' as const), event: fc.nat(5), n: fc.integer({ min: 1, max: 8 }) }),
      fc.record({ kind: fc.constant('add' as const), event: fc.nat(5) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(1000), copy: fc.boolean() }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat(1000), copy: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const set = new PendingSet();
        const model = new Map<string, PendingRow>();
        const made: PendingRow[] = [];
        let next = 0;
        for (const o of ops) {
          if (o.kind === 'fanout' || o.kind === 'add') {
            const eventId = `evt_${o.event}`;
            const rows = Array.from({ length: o.kind === 'add' ? 1 : o.n }, () => row(eventId, next++));
            if (o.kind === 'add') set.add(rows[0]);
            else set.addEvent(eventId, rows.slice());
            for (const r of rows) model.set(r.id, r);
            made.push(...rows);
          } else if (made.length > 0) {
            const r = made[o.pick % made.length];
            const key = o.copy ? { id: r.id, event_id: r.event_id } : r;
            const owed = model.has(r.id);
            model.delete(r.id);
            const others = [...model.values()].some((m) => m.event_id === r.event_id);
            expect(set.remove(key)).toBe(!owed ? 'absent' : others ? 'kept' : 'last');
          }
          expect(set.size).toBe(model.size);
        }
        expect(new Set([...set.values()].map((r) => r.id))).toEqual(new Set(model.keys()));
        for (const r of made) {
          expect(set.has(r)).toBe(model.has(r.id));
          expect(set.find(r.id)).toBe(model.get(r.id));
          expect(set.hasEvent(r.event_id)).toBe([...model.values()].some((m) => m.event_id === r.event_id));
        }
      }),
      { numRuns: 300 },
    );
  });
});
