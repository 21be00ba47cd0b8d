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
import { keptWhere } from '../../../src-main/backend/store/history/kept-shapes.js';
import { NotedRecords } from '../../../src-main/backend/store/history/known-foreign.js';
import { OwnIds } from '../../../src-main/backend/store/history/own-ids.js';
import { COLD_SOURCE_COLUMNS, coldSourceOfColumns } from '../../../src-main/backend/store/history/cold-source.js';
import type { ColdSource } from '../../../src-main/backend/store/history/cold-rows.js';
import type { Column } from '../../../src-main/backend/store/history/column-codec.js';
import type { SidecarHeader } from '../../../src-main/backend/store/history/sidecar-format.js';

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

/** A ColdSource as a close's eviction makes one from its sidecar's columns (n rows, one attempt each). */
function coldSource(n: number): ColdSource {
  const ids = rows(n);
  const cols = new Map<string, Column>(
    COLD_SOURCE_COLUMNS.map((name): [string, Column] => {
      if (name === 'idBytes') return [name, ids.bytes];
      if (name === 'idLen') return [name, ids.len];
      if (name === 'aCount') return [name, new Int32Array(n).fill(1)];
      return [name, /^(r\.(lastAt|code|dur|next)|aOff)$/.test(name) ? new Float64Array(n) : new Int32Array(n)];
    }),
  );
  return coldSourceOfColumns({ rows: n, strings: ['a'] } as unknown as SidecarHeader, cols) as ColdSource;
}

describe('kept shapes', () => {
  it("ColdSource (a closed segment's cold fields, at each eviction): it, its rows and its ids keep the kept one's maps", async () => {
    const keptSource = keptWhere((o) => 'aFirst' in o) as ColdSource;
    expect(typeof keptSource.rows).toBe('object');
    const later = await afterCollection(() => coldSource(100));
    expect(later.aFirst[100]).toBe(100);
    expect([haveSameMap(later, keptSource), haveSameMap(later.rows, keptSource.rows), haveSameMap(later.ids, keptSource.ids)]).toEqual([
      true,
      true,
      true,
    ]);
  });

  it.each(cases)("%s: one made after the last was collected has the kept instance's map", async (_, Ctor, make) => {
    const kept = keptWhere((o) => o instanceof Ctor);
    expect(kept).toBeDefined();
    const later = await afterCollection(make);
    expect(haveSameMap(later, kept as object)).toBe(true);
  });
});
