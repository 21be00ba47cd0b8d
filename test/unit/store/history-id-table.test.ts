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
});
