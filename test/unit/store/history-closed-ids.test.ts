// The closed segments' id table (store/history/closed-ids.ts): keys and slots only, the
// bytes being in the sidecars. Checked against a plain model through adds, removals,
// sweeps and growth, with many keys shared by several slots (a 52-bit key of
// different ids can be the same: every slot with the key is offered to the caller's check).
import { describe, expect, it } from 'vitest';
import { ClosedIds, idKey, idKeyBytes, tableHashOf } from '../../../src-main/backend/store/history/closed-ids.js';
import { hashString } from '../../../src-main/backend/store/history/id-table.js';

describe('closed segments id table', () => {
  it('finds each slot by its key through adds, removals, sweeps and growth, keys shared or not', () => {
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
      if (round % 2 === 0) table.fit(table.size + adds); // else each add makes room as it needs
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
        // Nearly all gone: the others are found as before, in the same room.
        const room = table.bytesHeld;
        table.sweep((s) => s % 50 === 0 && !removed.has(s));
        for (const s of [...model.keys()]) if (s % 50 !== 0 || removed.has(s)) model.delete(s);
        removed.clear();
        expect(table.bytesHeld).toBe(room);
        check();
      }
    }
    // A key never added, and one shared by others but not for this slot.
    expect(table.find(2 ** 52 - 1, () => true)).toBeUndefined();
    expect(table.find(shared[3], (s) => s === -5)).toBeUndefined();
  });

  it('holds the room the slots used ask for, whatever the order of adds and sweeps (a history at its cap)', () => {
    // Slots as the delivery table hands them out: retention's freed ones are taken again,
    // so the slots used stop growing at the cap plus a segment; room is made for that many
    // (DeliveryIds.reserveClosed), however many are closed at that moment.
    const sizes: number[] = [];
    const table = new ClosedIds();
    const free: number[] = [];
    const age = new Map<number, number>();
    let end = 0;
    let n = 0;
    for (let round = 0; round < 12; round++) {
      const batch = Array.from({ length: 5_000 }, () => free.pop() ?? end++);
      const add = () => {
        table.fit(end);
        for (const s of batch) {
          table.add(idKey(`msg_${n}`), s);
          age.set(s, n++);
        }
      };
      // Retention keeps the last 15,000 delivered: before the batch is closed, or after.
      const drop = () => {
        const gone = new Set([...age].filter(([, a]) => a < n - 15_000).map(([s]) => s));
        table.sweep((s) => !gone.has(s));
        for (const s of gone) age.delete(s);
        free.push(...gone);
      };
      if (round % 3 === 1) {
        drop();
        add();
      } else {
        add();
        drop();
      }
      sizes.push(table.bytesHeld);
    }
    // 15,000 kept and a batch taken before retention freed any: 25,000 slots at most.
    expect(end).toBe(25_000);
    expect(new Set(sizes.slice(6)).size).toBe(1);
    expect(sizes[11]).toBeLessThanOrEqual((25_000 / 0.8) * 12);
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
