// Copying the index's columns a run at a time (delivery-table.ts importRows, the sidecar's
// bulk path at start-up).
import type { Column } from './columns.js';

/** mapColumn's piece: 64 KiB, under the size from which the C allocator maps blocks of their own. */
const SCRATCH = new Int32Array(16 * 1024);

/** Rows `ks` of `from` into `slots` of `to`, each number mapped through `map` (-1 stays), counting the uses of each in `uses`. */
export function mapColumn(
  from: Int32Array,
  to: Int32Array,
  ks: number[],
  slots: number[],
  map: Int32Array,
  uses: Int32Array,
  runs: boolean,
): void {
  if (!runs) {
    for (let j = 0; j < ks.length; j++) {
      const l = from[ks[j]];
      if (l >= 0) uses[l]++;
      to[slots[j]] = l < 0 ? -1 : map[l];
    }
    return;
  }
  // A run is mapped into a small plain array (reused: no big block is allocated and
  // freed, docs/storage.md), a piece at a time, each piece copied in one go.
  for (let j0 = 0; j0 < ks.length; j0 += SCRATCH.length) {
    const m = Math.min(SCRATCH.length, ks.length - j0);
    for (let j = 0; j < m; j++) {
      const l = from[ks[j0 + j]];
      if (l >= 0) uses[l]++;
      SCRATCH[j] = l < 0 ? -1 : map[l];
    }
    to.set(SCRATCH.subarray(0, m), slots[j0]);
  }
}

export function copyRun(from: Column, to: Column, k0: number, s0: number, n: number): void {
  (to as Float64Array).set((from as Float64Array).subarray(k0, k0 + n), s0);
}
