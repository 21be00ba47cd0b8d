// Classes the history makes once per segment close keep their hidden classes (maps)
// from one close to the next (store/history/kept-shapes.ts): V8 keeps a map only while
// an object has it, so without a kept instance each close's NotedRecords and OwnIds got
// new maps once the previous close's were collected, and the code using them was
// deoptimized and compiled again at every close (docs/benchmark.md, figure 3). Checked
// with V8's %HaveSameMap: an instance made as a close makes it, after the previous one
// was collected and full GCs ran, has the kept instance's map.
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { keptOf } from '../../../src-main/backend/store/history/kept-shapes.js';
import { NotedRecords } from '../../../src-main/backend/store/history/known-foreign.js';
import { OwnIds } from '../../../src-main/backend/store/history/own-ids.js';

setFlagsFromString('--allow-natives-syntax');
setFlagsFromString('--expose-gc');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const gc = runInNewContext('gc') as () => void;

/** Ids as a closing segment's rows give them (DeliveryIds.rowsOf): Latin-1 bytes one after the other, lengths, wide ones apart. */
function rows(n: number) {
  const ids = Array.from({ length: n }, (_, k) => `msg_${String(k).padStart(22, '0')}`);
  const bytes = Buffer.allocUnsafe(ids.length * 26);
  bytes.write(ids.join(''), 'latin1');
  return { bytes, len: Int32Array.from(ids, (id) => id.length), wide: [] as [number, string][] };
}

/** Makes one with `make`, drops it, runs full GCs until it is collected, then makes another: the one a later close makes. */
async function afterCollection<T extends object>(make: () => T): Promise<T> {
  const ref = ((): WeakRef<T> => new WeakRef(make()))(); // nothing else holds it
  for (let i = 0; i < 20 && ref.deref(); i++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
  expect(ref.deref()).toBeUndefined();
  for (let i = 0; i < 4; i++) gc(); // past V8's retention of maps without objects (2 full GCs)
  return make();
}

type Case = [string, abstract new (...args: never[]) => object, () => object];
const cases: Case[] = [
  ['NotedRecords (KnownForeign.take, at each close)', NotedRecords, () => new NotedRecords(100, rows(100))],
  ["OwnIds (the close's scan for other segments' lines)", OwnIds, () => new OwnIds(rows(100).bytes, rows(100).len, [])],
];

describe('kept shapes', () => {
  it.each(cases)("%s: one made after the last was collected has the kept instance's map", async (_, Ctor, make) => {
    const kept = keptOf(Ctor);
    expect(kept).toBeDefined();
    const later = await afterCollection(make);
    expect(haveSameMap(later, kept as object)).toBe(true);
  });
});
