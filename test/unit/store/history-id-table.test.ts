// The history index's id table (store/history/id-table.ts) against a Map doing the same
// inserts and deletes, with enough of them to grow, rehash and compact it, and ids of
// every kind: Latin-1 ones (kept as bytes) and ones with wider characters (kept aside).
import { describe, expect, it } from 'vitest';
import { IdTable } from '../../../src-main/backend/store/history/id-table.js';

describe('history id table', () => {
  it('answers like a Map through inserts, deletes, growth and compaction', () => {
    const table = new IdTable();
    const model = new Map<string, number>();
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const idFor = (i: number) =>
      i % 97 === 0 ? `msg_wide_${i}_✓` : i % 89 === 0 ? `msg_é${i}` : `msg_${i.toString(36).padStart(60, 'x')}`;
    const free: number[] = [];
    let next = 0;
    for (let round = 0; round < 120_000; round++) {
      const i = rand(60_000);
      const id = idFor(i);
      const slot = model.get(id);
      if (slot === undefined) {
        const s = free.pop() ?? next++;
        table.set(id, s);
        model.set(id, s);
      } else if (rand(3) > 0) {
        table.delete(slot);
        model.delete(id);
        free.push(slot);
      }
      if (round % 10_000 === 0) for (const [k, s] of model) expect(table.get(k)).toBe(s);
    }
    expect(table.size).toBe(model.size);
    for (const [k, s] of model) {
      expect(table.get(k)).toBe(s);
      expect(table.idOf(s)).toBe(k);
      expect(table.has(s)).toBe(true);
    }
    for (let i = 0; i < 60_000; i += 7) if (!model.has(idFor(i))) expect(table.get(idFor(i))).toBeUndefined();
    const bytes = Buffer.from('zzmsg_abcmsg_' + 'x'.repeat(3), 'latin1');
    table.setBytes(bytes, 2, 7, next);
    expect(table.get('msg_abc')).toBe(next);
    expect(table.getBytes(bytes, 2, 7)).toBe(next);
    expect(table.getBytes(bytes, 2, 6)).toBeUndefined();
  });

  it("writes an id over the bytes of its slot's last one when as long: replacing ids does not grow it", () => {
    // The history at its cap: retention frees a segment's slots, new deliveries take them.
    const table = new IdTable();
    const n = 10_000;
    const id = (round: number, s: number) => `msg_${round.toString(36).padStart(4, '0')}${s.toString(36).padStart(18, '0')}`;
    for (let s = 0; s < n; s++) table.set(id(0, s), s);
    const held = table.bytesHeld;
    for (let round = 1; round <= 40; round++) {
      for (let s = 0; s < n; s++) table.delete(s);
      for (let s = n - 1; s >= 0; s--) table.set(id(round, s), s);
      expect(table.bytesHeld).toBe(held);
    }
    for (let s = 0; s < n; s += 97) {
      expect(table.idOf(s)).toBe(id(40, s));
      expect(table.get(id(40, s))).toBe(s);
      expect(table.get(id(39, s))).toBeUndefined();
    }
    // A slot given an id of another length, and a freed slot never reused, still answer right.
    table.delete(5);
    table.set('msg_short', 5);
    table.delete(6);
    expect([table.get('msg_short'), table.idOf(5), table.has(6), table.idOf(6), table.get(id(40, 6))]).toEqual([
      5,
      'msg_short',
      false,
      undefined,
      undefined,
    ]);
  });
});
