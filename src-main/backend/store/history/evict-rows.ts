// A closed segment's deliveries giving up what its sidecar, just written, holds for them
// (docs/storage.md, "The delivery history in memory"): their cold fields (cold-rows.ts),
// their ids' bytes (delivery-ids.ts) and their attempts' locations (loc-pool.ts).
import { evictedRef, type ColdSource } from './cold-rows.js';
import type { DeliveryTable } from './delivery-table.js';
import type { LocPool } from './loc-pool.js';
import { CHUNK_ROWS } from './kept-shapes.js';

export interface Eviction {
  segId: number;
  /** The sidecar's cold fields, ids and attempts. */
  src: ColdSource;
  /** Row k's slot when the sidecar was taken. */
  slots: ArrayLike<number>;
}

/**
 * Gives up the cold rows, ids and attempt chains of the deliveries based in segment
 * `segId` whose fields are exactly row k of `src` (`slots[k]`: row k's slot when it was
 * taken; one whose base is still `segId` is still that delivery, since nothing can be
 * based in a closed segment any more): they are read back from there from now on. A
 * pending delivery (it will change), one kept whole (in `odd`), one with a wide id or one
 * changed since keeps its own. Returns how many gave theirs up.
 */
export function evictRows(t: DeliveryTable, pool: LocPool, odd: { has(slot: number): boolean }, e: Eviction): number {
  const { segId, src, slots } = e;
  t.ids.reserveClosed(slots.length);
  let n = 0;
  for (let from = 0; from < slots.length; from += CHUNK_ROWS)
    n += evictChunk(t, pool, odd, segId, src, slots, from, Math.min(slots.length, from + CHUNK_ROWS));
  return n;
}

/**
 * evictRows for rows [from, to) of the sidecar: a chunk a call (kept-shapes.ts CHUNK_ROWS),
 * so its code stays compiled from one close to the next, as long as nothing it meets is
 * made per close with a hidden class that dies with it: no closure (the odd rows are the
 * table's own map), and the sidecar's ColdSource keeps its shape (cold-source.ts).
 */
function evictChunk(
  t: DeliveryTable,
  pool: LocPool,
  odd: { has(slot: number): boolean },
  segId: number,
  src: ColdSource,
  slots: ArrayLike<number>,
  from: number,
  to: number,
): number {
  const { c, cold, ids } = t;
  let n = 0;
  for (let k = from; k < to; k++) {
    const s = slots[k];
    if (!ids.has(s) || c.baseSeg[s] !== segId || c.cold[s] < 0 || c.status[s] === 0 || odd.has(s)) continue;
    if (!cold.same(c.cold[s], src, k)) continue;
    const key = ids.leave(s, c.cold[s], src, k);
    if (key < 0) continue;
    cold.release(c.cold[s]);
    c.cold[s] = evictedRef(k);
    ids.addClosed(key, s);
    n++;
    // Its attempts too, when they are all the sidecar's (none was made in a later segment).
    if (c.aHead[s] >= 0 && pool.sameAs(c.aHead[s], segId, src, k)) {
      pool.freeChain(c.aHead[s]);
      c.aHead[s] = evictedRef(k);
    }
  }
  return n;
}
