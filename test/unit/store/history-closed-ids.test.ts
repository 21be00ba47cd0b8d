// The closed segments' id table (store/history/closed-ids.ts): keys and slots only, the
// bytes being in the sidecars. Checked against a plain model through adds, removals,
// sweeps, growth and shrinking, with many keys shared by several slots (a 52-bit key of
// different ids can be the same: every slot with the key is offered to the caller's check).
import { describe, expect, it } from 'vitest';
import { ClosedIds, idKey, idKeyBytes, tableHashOf } from '../../../src-main/backend/store/history/closed-ids.js';
import { hashString } from '../../../src-main/backend/store/history/id-table.js';

describe('closed segments id table', () => {
  it('finds each slot by its key through adds, removals, sweeps, growth and shrinking, keys shared or not', () => {
    const table = new ClosedIds();
    /** slot -> key, the model. */
    const model = new Map<number, number>();
    let seed = 11;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    // Keys spread over the whole range, a quarter of them drawn from a few shared values.
    const shared = Array.from({ length: 40 }, (_, i) => Math.floor((i + 0.5) * (2 ** 52 / 40)));
    const keyFor = () => (rand(4) === 0 ? shared[rand(shared.length)] : rand(2 ** 26) * 2 ** 26 + rand(2 ** 26));
    const check = () => {
      for (const [s, key] of model) expect(table.find(key, (x) => x === s)).toBe(s);
      expect(table.size).toBe(model.size);
    };
    let next = 0;
    const removed = new Set<number>();
    for (let round = 0; round < 40; round++) {
      const adds = rand(3000);
      table.reserve(round % 2 === 0 ? adds : 0);
      for (let j = 0; j < adds; j++) {
        const key = keyFor();
        table.add(key, next);
        model.set(next++, key);
      }
      // Some removed one by one, others left to a sweep (as retention's are).
      for (const [s, key] of model) {
        const r = rand(10);
        if (r === 0) {
          table.remove(key, s);
          model.delete(s);
        } else if (r < 3 + (round % 5 === 4 ? 6 : 0)) removed.add(s);
      }
      if (round % 3 === 2) {
        table.sweep((s) => !removed.has(s));
        for (const s of removed) model.delete(s);
        removed.clear();
        check();
        for (const s of [...model.keys()].slice(0, 50)) expect(table.find(model.get(s) as number, () => false)).toBeUndefined();
      }
      if (round === 30) {
        // Nearly all gone: the room follows the count down.
        table.sweep((s) => s % 50 === 0 && !removed.has(s));
        for (const s of [...model.keys()]) if (s % 50 !== 0 || removed.has(s)) model.delete(s);
        removed.clear();
        expect(table.bytesHeld).toBeLessThanOrEqual(Math.max(1024, Math.ceil(model.size / 0.6)) * 12);
        check();
      }
    }
    // A key never added, and one shared by others but not for this slot.
    expect(table.find(2 ** 52 - 1, () => true)).toBeUndefined();
    expect(table.find(shared[3], (s) => s === -5)).toBeUndefined();
  });

  it('holds the same room for the same count whatever came before (a history at its cap)', () => {
    const sizes: number[] = [];
    const table = new ClosedIds();
    let next = 0;
    for (let round = 0; round < 6; round++) {
      table.reserve(5_000);
      for (let j = 0; j < 5_000; j++) table.add(idKey(`msg_${next}`), next++);
      // Retention keeps the last 15,000.
      table.sweep((s) => s >= next - 15_000);
      sizes.push(table.bytesHeld);
    }
    // From the second time at the cap on, the same room: enough for the 20,000 entries
    // held before each sweep (at most 93 % full), no more than 80 % full after a rebuild.
    expect(new Set(sizes.slice(3)).size).toBe(1);
    expect(sizes[5]).toBeLessThanOrEqual((20_000 / 0.8) * 12);
  });

  it('keys an id the same from its string and its bytes, and gives the id table its hash', () => {
    for (const id of ['msg_2q3X9', '', 'evt_é', 'x'.repeat(300)]) {
      const b = Buffer.from(`..${id}`, 'latin1');
      const key = idKeyBytes(b, 2, id.length);
      expect(idKey(id)).toBe(key);
      expect(key).toBeGreaterThanOrEqual(0);
      expect(key).toBeLessThan(2 ** 52);
      expect(tableHashOf(key)).toBe(hashString(id));
    }
    expect(idKey('msg_✓')).toBe(-1);
  });
});
