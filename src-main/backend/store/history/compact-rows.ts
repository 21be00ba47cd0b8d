// The rows a burst took give their room back. A delivery's cold fields (cold-rows.ts) and
// attempt locations (loc-pool.ts) are rows of columns that grow to the most ever in use
// at once, and the columns' pages up to there stay resident: rows given up later (a
// closed segment's deliveries once its sidecar is written, retention's) go to a free
// list, not back to the system. A burst (tens of thousands of deliveries pending while
// segments close, or a fast seeding with segments waiting for their sidecars) takes
// three times or more the rows a steady load keeps in memory, and the service kept that
// room for as long as it ran (docs/storage.md, "The delivery history in memory"). So,
// run after each eviction (sidecar.ts): when the rows used are more than 1.5 times what
// was in use just before it (a steady load's need: the closed segment's rows and the open
// one's), those in use move down and the room above them goes back. A steady load
// compacts (nearly) never: each cycle reuses what the last freed; a pass over
// every slot (tens of ms at 200,000 slots on a loaded machine) is paid once after a burst.
import type { DeliveryTable } from './delivery-table.js';
import type { LocPool } from './loc-pool.js';

/** Below this many rows used, a compaction is not worth its pass over the slots. */
export const COMPACT_FROM = 4096;

/** How many times a cycle's need the rows used must be for a compaction (a cycle's need varies by a few thousand rows). */
const GROWN = 1.5;

/** Rows in use (cold rows, attempt locations) just before an eviction: what a cycle needs. */
export interface RowsInUse {
  cold: number;
  locs: number;
}

/** The rows `d` has in use now, to give compactRows after the eviction. */
export const rowsInUse = (d: DeliveryTable, pool: LocPool): RowsInUse => ({ cold: d.cold.size, locs: pool.size });

/** Compacts the cold rows and the attempt locations of `d` when more than GROWN times `need` of them were used. */
export function compactRows(d: DeliveryTable, pool: LocPool, need: RowsInUse): void {
  // The ids in memory are kept by cold row (delivery-ids.ts): they move with their rows.
  if (d.cold.end >= COMPACT_FROM && d.cold.end > GROWN * need.cold) d.ids.renumber(d.cold.compact(d.c.cold, d.end));
  if (pool.end >= COMPACT_FROM && pool.end > GROWN * need.locs) pool.compact(d.c.aHead, d.end, (s) => d.isLive(s));
}
