// The history index's lists of record numbers by key (store/history/slot-lists.ts)
// against plain sorted arrays doing the same pushes, inserts and removals, through
// every form a list takes (one number, an array, a run in a typed buffer) and back,
// and what a run gives back when retention empties it.
import { describe, expect, it } from 'vitest';
import { lowerBound, RUN_FROM, SlotLists } from '../../../src-main/backend/store/history/slot-lists.js';

/** Records numbered by slot, their sequence numbers set by the test (several slots may share one). */
function setup() {
  const seq: number[] = [];
  const lists = new SlotLists((n) => seq[n]);
  const model = new Map<number, number[]>();
  // Records sharing a sequence number may come in either order; the rest is exact.
  const bySeq = (list: number[]) => list.slice().sort((a, b) => seq[a] - seq[b] || a - b);
  const check = () => {
    for (const [key, list] of model) {
      const got = lists.get(key);
      if (list.length === 0) {
        expect(got).toBeUndefined();
        continue;
      }
      const arr = Array.from(got ?? []);
      expect(arr.every((n, i) => i === 0 || seq[arr[i - 1]] <= seq[n])).toBe(true);
      expect(bySeq(arr)).toEqual(bySeq(list));
    }
  };
  return { seq, lists, model, check };
}

describe('history slot lists', () => {
  it('keeps each key in sequence order through pushes, inserts and removals, in every form', () => {
    const { seq, lists, model, check } = setup();
    let seed = 11;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    let next = 0;
    let top = 0;
    // Key 0 grows long (a run), key 1 stays mid-sized, keys 2-9 short; removals now and then.
    for (let round = 0; round < 12_000; round++) {
      const key = round % 3 === 0 ? 0 : rand(5) === 0 ? 1 : 2 + rand(8);
      const list = model.get(key) ?? [];
      model.set(key, list);
      if (list.length > 0 && rand(4) === 0) {
        const n = list.splice(rand(list.length), 1)[0];
        lists.remove(key, n);
      } else if (rand(5) === 0 && top > 0) {
        // An older record arriving late (an import), sometimes with a sequence number already used.
        const s = next++;
        seq[s] = rand(top + 1);
        lists.insert(key, s);
        list.push(s);
      } else {
        const s = next++;
        seq[s] = ++top;
        lists.push(key, s);
        list.push(s);
      }
      if (round % 1000 === 0) check();
    }
    check();
    expect(model.get(0)!.length).toBeGreaterThan(RUN_FROM);
    expect(lists.runBytes).toBeGreaterThan(0);
  });

  it('gives a run back when retention removes most of it, and all of it when it removes everything', () => {
    const { seq, lists, model, check } = setup();
    const all: number[] = [];
    for (let s = 0; s < 50_000; s++) {
      seq[s] = s;
      lists.push(7, s);
      all.push(s);
    }
    model.set(7, all);
    const full = lists.runBytes;
    expect(full).toBeGreaterThanOrEqual(50_000 * 4);
    expect(full).toBeLessThan(50_000 * 4 * 1.6);
    check();
    // Retention: the oldest 45,000 go; the run moves into a buffer of its size.
    const gone = new Set(all.slice(0, 45_000));
    lists.removeMany(new Set([7]), gone);
    model.set(7, all.slice(45_000));
    check();
    expect(lists.runBytes).toBeLessThan(full / 4);
    expect(lists.runBytes).toBeGreaterThanOrEqual(5_000 * 4);
    // Below half of RUN_FROM it is an array again: no buffer left.
    lists.removeMany(new Set([7]), new Set(all.slice(45_000, 49_900)));
    model.set(7, all.slice(49_900));
    check();
    expect(lists.runBytes).toBe(0);
    // One by one down to nothing: a single number, then no list at all.
    for (const s of all.slice(49_900, 49_999)) lists.remove(7, s);
    expect(Array.from(lists.get(7) ?? [])).toEqual([49_999]);
    lists.remove(7, 49_999);
    expect(lists.get(7)).toBeUndefined();
    expect([...lists.entries()]).toEqual([]);
  });

  it("holds an event's fan-out (consecutive slots, either way) as a range until it is not one", () => {
    const { seq, lists, model, check } = setup();
    let top = 0;
    const add = (key: number, s: number) => {
      seq[s] = ++top;
      lists.push(key, s);
      model.set(key, [...(model.get(key) ?? []), s]);
    };
    // Key 1: slots 100..199 upwards; key 2: slots 999..900 downwards (reused slots come back last freed first).
    for (let s = 100; s < 200; s++) add(1, s);
    for (let s = 999; s >= 900; s--) add(2, s);
    check();
    expect([lists.form(1), lists.form(2)]).toEqual(['range', 'range']);
    expect(lists.runBytes).toBe(0);
    // A slot that does not continue it: an array from then on, in the same order.
    add(1, 5000);
    add(2, 898);
    check();
    expect([lists.form(1), lists.form(2)]).toEqual(['array', 'array']);
    // A range long enough becomes a run.
    for (let s = 10_000; s < 10_000 + RUN_FROM + 5; s++) add(3, s);
    check();
    expect(lists.form(3)).toBe('run');
    // Insert and removal in a range (an import; retention): it becomes an array.
    for (let s = 20_000; s < 20_010; s++) add(4, s);
    seq[77_777] = seq[20_004] + 0.5;
    lists.insert(4, 77_777);
    model.get(4)!.push(77_777);
    lists.remove(4, 20_002);
    model.set(
      4,
      model.get(4)!.filter((s) => s !== 20_002),
    );
    for (let s = 30_000; s < 30_010; s++) add(5, s);
    lists.removeMany(new Set([5]), new Set([30_000, 30_009]));
    model.set(
      5,
      model.get(5)!.filter((s) => s !== 30_000 && s !== 30_009),
    );
    check();
    expect([lists.form(4), lists.form(5)]).toEqual(['array', 'array']);
    expect(Array.from(lists.get(4)!)).toEqual([20_000, 20_001, 20_003, 20_004, 77_777, 20_005, 20_006, 20_007, 20_008, 20_009]);
  });

  it('grows a run in place and pages it by binary search like an array', () => {
    const { seq, lists } = setup();
    for (let s = 0; s < 3 * RUN_FROM; s++) {
      seq[s] = 2 * s;
      lists.push(1, s);
    }
    const view = lists.get(1)!;
    expect(view).toBeInstanceOf(Int32Array);
    expect(view.length).toBe(3 * RUN_FROM);
    expect(lowerBound(view, 2 * 1500, (n) => seq[n])).toBe(1500);
    expect(lowerBound(view, 2 * 1500 + 1, (n) => seq[n])).toBe(1501);
    // An insert in the middle shifts the rest by one.
    seq[99_999] = 2 * 1500 + 1;
    lists.insert(1, 99_999);
    const after = Array.from(lists.get(1)!);
    expect(after[1501]).toBe(99_999);
    expect(after[1502]).toBe(1501);
    expect(after.length).toBe(3 * RUN_FROM + 1);
    expect([...lists.entries()].map(([k, l]) => [k, l.length])).toEqual([[1, 3 * RUN_FROM + 1]]);
  });
});
