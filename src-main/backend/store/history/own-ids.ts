// The ids of a closing segment's own deliveries, for the scan that picks out the segment's
// lines about other segments' deliveries (sidecar-build.ts foreignRecords). Looked up in
// the sidecar's own id bytes (Latin-1, one row after the other) through a hash table of
// row numbers made when the scan starts: no string per id kept from the rotation to the
// scan (25,000 of them, ~1.7 MB of heap, for as long as the segment took to write out).
// Plain typed arrays of a fixed size (not the index's IdTable, whose resizable buffers
// made each lookup several times slower than Set#has).
import { hashBytes, hashString } from './id-table.js';
import { keepShape } from './kept-shapes.js';

export class OwnIds {
  /** Each row's first byte in `bytes`. */
  private readonly at: Int32Array;
  /** Row + 1 at each id's hash (linear probing); 0: empty. */
  private readonly table: Int32Array;
  private readonly mask: number;
  /** Ids with a character above U+00FF (not in `bytes`). */
  private readonly wide: Set<string>;

  /** `len[k]`: row k's id length in `bytes` (-1: in `wide`). */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly len: Int32Array,
    wide: [number, string][],
  ) {
    const n = len.length;
    let size = 16;
    while (size < n * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    this.at = new Int32Array(n);
    for (let k = 0, at = 0; k < n; k++) {
      this.at[k] = at;
      if (len[k] < 0) continue;
      let i = hashBytes(bytes, at, len[k]) & this.mask;
      while (this.table[i] !== 0) i = (i + 1) & this.mask;
      this.table[i] = k + 1;
      at += len[k];
    }
    this.wide = new Set(wide.map((w) => w[1]));
  }

  has(id: string): boolean {
    const h = hashString(id);
    if (h < 0) return this.wide.has(id);
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const row = this.table[i] - 1;
      if (row < 0) return false;
      if (this.len[row] === id.length && this.holds(row, id)) return true;
    }
  }

  private holds(row: number, id: string): boolean {
    const { bytes } = this;
    const at = this.at[row];
    for (let i = 0; i < id.length; i++) if (bytes[at + i] !== id.charCodeAt(i)) return false;
    return true;
  }
}

keepShape(new OwnIds(new Uint8Array(0), new Int32Array(0), []));
