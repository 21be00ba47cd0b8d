// The rows a burst took give their room back. A delivery's cold fields (cold-rows.ts) and
// attempt locations (loc-pool.ts) are rows of columns that grow to the most ever in use
// at once, and the columns' pages up to there stay resident: rows given up later (a
// closed segment's deliveries once its sidecar is written, retention's) go to a free
// list, not back to the system. A burst (tens of thousands of deliveries pending while
// segments close, or a fast seeding with segments waiting for their sidecars) takes
// three times or more the rows a steady load keeps in memory, and the service kept that
// room for as long as it ran (docs/storage.md, "The delivery history in memory"). So
// when at most half of the rows used are in use, those in use move down and the room
// above them goes back; run after each eviction (sidecar.ts), once a segment's worth of
// rows has just been given up.
import type { DeliveryTable } from './delivery-table.js';
import type { LocPool } from './loc-pool.js';

/** Below this many rows used, a compaction is not worth its pass over the slots. */
export const COMPACT_FROM = 4096;

/** Compacts the cold rows and the attempt locations of `d` when at most half of the rows used are in use. */
export function compactRows(d: DeliveryTable, pool: LocPool): void {
  // The ids in memory are kept by cold row (delivery-ids.ts): they move with their rows.
  if (d.cold.end >= COMPACT_FROM && d.cold.size * 2 <= d.cold.end) d.ids.renumber(d.cold.compact(d.c.cold, d.end));
  if (pool.end >= COMPACT_FROM && pool.size * 2 <= pool.end) pool.compact(d.c.aHead, d.end, (s) => d.isLive(s));
}
