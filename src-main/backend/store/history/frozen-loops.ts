// The row loops of a segment's close (sidecar-frozen.ts), a chunk of CHUNK_ROWS rows a
// call. Each ran once per close over the segment's 25,000 rows in a body of its own, so
// V8 optimized it on stack (OSR) at every close and let that code go between closes
// (kept-shapes.ts says why); a function called once per chunk is optimized as a function,
// and that code stays from one close to the next (docs/benchmark.md, figure 3).
import type { DeliveryTable } from './delivery-table.js';
import { CHUNK_ROWS } from './kept-shapes.js';
import type { LocColumns, LocPool } from './loc-pool.js';
import type { Segment } from './segments.js';

/** The largest of `from` and col's values. */
export function maxOf(col: Float64Array, from: number): number {
  let m = from;
  for (let at = 0; at < col.length; at += CHUNK_ROWS) m = maxIn(col, at, Math.min(col.length, at + CHUNK_ROWS), m);
  return m;
}

function maxIn(col: Float64Array, from: number, to: number, m: number): number {
  for (let k = from; k < to; k++) if (col[k] > m) m = col[k];
  return m;
}

/** Slots in `seq` order: 0 if some are not, else 1 if they are strictly rising slots, 2 if not. */
export function orderOf(slots: number[], seq: Float64Array): 0 | 1 | 2 {
  let up: 1 | 2 = 1;
  for (let at = 1; at < slots.length; at += CHUNK_ROWS) {
    const r = orderIn(slots, seq, at, Math.min(slots.length, at + CHUNK_ROWS));
    if (r === 0) return 0;
    if (r === 2) up = 2;
  }
  return up;
}

function orderIn(slots: number[], seq: Float64Array, from: number, to: number): 0 | 1 | 2 {
  let up: 1 | 2 = 1;
  for (let k = from; k < to; k++) {
    if (seq[slots[k - 1]] > seq[slots[k]]) return 0;
    if (slots[k] <= slots[k - 1]) up = 2;
  }
  return up;
}

/** Into `cold`: each live row's cold row (made where it has none); whether they are consecutive. */
export function coldRowsOf(d: DeliveryTable, live: number[], cold: Int32Array): boolean {
  let run = true;
  for (let at = 0; at < live.length; at += CHUNK_ROWS) if (!coldIn(d, live, cold, at, Math.min(live.length, at + CHUNK_ROWS))) run = false;
  return run;
}

function coldIn(d: DeliveryTable, live: number[], cold: Int32Array, from: number, to: number): boolean {
  let run = true;
  for (let k = from; k < to; k++) {
    const ref = d.c.cold[live[k]];
    cold[k] = ref >= 0 ? ref : d.coldRow(live[k]);
    if (cold[k] !== cold[0] + k) run = false;
  }
  return run;
}

/** Into `counts`: each live row's attempts in segment `segId` or earlier; their total. */
export function attemptCounts(
  d: DeliveryTable,
  pool: LocPool,
  segs: ReadonlyMap<number, Segment>,
  live: number[],
  counts: Int32Array,
  segId: number,
): number {
  let n = 0;
  for (let at = 0; at < live.length; at += CHUNK_ROWS)
    n += countIn(d, pool, segs, live, counts, segId, at, Math.min(live.length, at + CHUNK_ROWS));
  return n;
}

function countIn(
  d: DeliveryTable,
  pool: LocPool,
  segs: ReadonlyMap<number, Segment>,
  live: number[],
  counts: Int32Array,
  segId: number,
  from: number,
  to: number,
): number {
  let n = 0;
  for (let k = from; k < to; k++) n += counts[k] = pool.count(d.attemptHead(live[k]), segs, segId);
  return n;
}

/** Into `locs`: those attempts' locations, row after row. */
export function attemptLocs(
  d: DeliveryTable,
  pool: LocPool,
  segs: ReadonlyMap<number, Segment>,
  live: number[],
  locs: LocColumns,
  segId: number,
): void {
  let n = 0;
  for (let at = 0; at < live.length; at += CHUNK_ROWS)
    n = fillIn(d, pool, segs, live, locs, segId, at, Math.min(live.length, at + CHUNK_ROWS), n);
}

function fillIn(
  d: DeliveryTable,
  pool: LocPool,
  segs: ReadonlyMap<number, Segment>,
  live: number[],
  locs: LocColumns,
  segId: number,
  from: number,
  to: number,
  n: number,
): number {
  for (let k = from; k < to; k++) n = pool.fill(d.attemptHead(live[k]), segs, locs, n, segId);
  return n;
}
