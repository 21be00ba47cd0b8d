// The history index's event-id interner (store/history/id-interner.ts, ids as bytes)
// against the string interner (interner.ts) doing the same adds, retains, swaps and
// releases: the same numbers, reference counts and values throughout, through growth,
// reuse of freed numbers and the id table's compaction, with ids of every kind.
import { describe, expect, it } from 'vitest';
import { IdInterner } from '../../../src-main/backend/store/history/id-interner.js';
import { Interner } from '../../../src-main/backend/store/history/interner.js';

describe('history event-id interner', () => {
  it('gives the numbers, counts and values the string interner gives', () => {
    const ids = new IdInterner();
    const model = new Interner();
    const held: number[] = [];
    let seed = 5;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    // Long ids so that the ids given up pass the id table's compaction threshold (1 MiB).
    const idFor = (i: number) =>
      i % 101 === 0 ? `evt_wide_${i}_✓` : i % 53 === 0 ? `evt_é${i}` : `evt_${i.toString(36).padStart(90, 'x')}`;
    for (let round = 0; round < 80_000; round++) {
      const op = rand(10);
      if (op < 5 || held.length === 0) {
        const id = idFor(rand(40_000));
        const n = ids.add(id);
        expect(n).toBe(model.add(id));
        held.push(n);
      } else if (op < 8) {
        const n = held.splice(rand(held.length), 1)[0];
        ids.release(n);
        model.release(n);
      } else if (op < 9) {
        const n = held[rand(held.length)];
        ids.retain(n, 2);
        model.retain(n, 2);
        held.push(n, n);
      } else {
        const k = rand(held.length);
        const id = idFor(rand(40_000));
        const n = ids.swap(held[k], id);
        expect(n).toBe(model.swap(held[k], id));
        held[k] = n;
      }
      if (round % 20_000 === 0) {
        expect(ids.size).toBe(model.size);
        const distinct = [...new Set(held)];
        const got = distinct.map((n) => [ids.get(n), ids.refCount(n), ids.find(model.get(n))]);
        expect(got).toEqual(distinct.map((n) => [model.get(n), model.refCount(n), n]));
      }
    }
    // Everything released: nothing is found any more.
    for (const n of held.splice(0)) {
      ids.release(n);
      model.release(n);
    }
    expect(ids.size).toBe(0);
    expect(model.size).toBe(0);
    for (let i = 0; i < 40_000; i += 13) expect(ids.find(idFor(i))).toBeUndefined();
  });

  it('keeps the number when a swap names the same id, without counting it twice', () => {
    const ids = new IdInterner();
    const a = ids.add('evt_aaaaaaaaaaaaaaaaaaaaaa');
    expect(ids.swap(a, 'evt_aaaaaaaaaaaaaaaaaaaaaa')).toBe(a);
    expect(ids.refCount(a)).toBe(1);
    const b = ids.swap(a, 'evt_aaaaaaaaaaaaaaaaaaaaab');
    expect(b).not.toBe(a);
    expect(ids.refCount(a)).toBe(0);
    expect(ids.find('evt_aaaaaaaaaaaaaaaaaaaaaa')).toBeUndefined();
    expect(ids.swap(-1, 'evt_✓')).toBe(a); // a freed number is reused, also for an id kept aside
    expect(ids.get(a)).toBe('evt_✓');
    expect(ids.swap(a, 'evt_✓')).toBe(a);
  });
});

describe('history interners: hold() while a closing segment`s copy waits (sidecar-frozen.ts)', () => {
  for (const [name, make] of [
    ['string interner', () => new Interner()],
    ['event-id interner', () => new IdInterner()],
  ] as const)
    it(`${name}: a number whose last reference goes while held keeps its value and is not given to another until unhold()`, () => {
      const t = make();
      const a = t.add('evt_a');
      t.hold();
      t.hold(); // two copies waiting
      t.release(a);
      expect(t.get(a)).toBe('evt_a');
      const b = t.add('evt_b');
      expect(b).not.toBe(a);
      expect(t.add('evt_a')).toBe(a); // still the same number while held, counted again
      t.release(a);
      t.unhold();
      expect(t.get(a)).toBe('evt_a'); // one copy still waits
      t.unhold();
      expect(t.refCount(a)).toBe(0);
      expect(t.find('evt_a')).toBeUndefined();
      expect(t.add('evt_c')).toBe(a); // freed now, and reused
      expect(t.get(b)).toBe('evt_b');
    });
});
