// The part of a delivery summary that listing, paging, filtering and lookup by id never
// need (last attempt time, status code, duration, next attempt, event type, URL, last
// error, key order, attempt count: 52 bytes in columns), kept in memory only for the
// deliveries that need it there: those of the open segment, pending ones (they change),
// and any changed since their segment closed. The others' are read back from their
// closed segment's sidecar (seg-NNNNNN.idx, which holds exactly those values: cold-source.ts)
// when a page, a detail or an attempt asks for them (docs/storage.md, "The delivery
// history in memory"). The cold rows have their own numbering (a free list), so their
// columns hold as many rows as are in memory, not one per delivery.
import { grown, nextCapacity, packRows, shrunk, systemBuffer, type Column } from './columns.js';
import { coldColumns, COLD_NUMBER_COLUMNS, COLD_STRING_COLUMNS, type ColdColumns } from './delivery-row.js';
import type { IdBytes } from './id-table.js';
import type { Interner } from './interner.js';

/**
 * A slot's `cold` entry (DeliveryTable.c.cold): >= 0 a row of ColdRows; NO_ROW none (a
 * free slot); EVICTED - k: row k of its base segment's sidecar. Its `aHead` the same way:
 * >= 0 a chain of the LocPool, -1 none, EVICTED - k: row k's attempts in that sidecar.
 */
export const NO_ROW = -1;
const EVICTED = -2;
export const evictedRef = (k: number): number => EVICTED - k;
export const sidecarRowOf = (ref: number): number => EVICTED - ref;

/** A closed segment's cold fields as its sidecar holds them: its rows and their string table, and each row's attempt locations. */
export interface ColdSource {
  rows: ColdColumns;
  strings: (string | null)[];
  /** Row k's attempts are entries aFirst[k] to aFirst[k + 1] of aOff/aLen/aItem (item -1: none), all in that segment. */
  aFirst: Int32Array;
  aOff: Float64Array;
  aLen: Int32Array;
  aItem: Int32Array;
  /** The rows' ids (a delivery whose cold fields are here has its id here too: delivery-ids.ts). */
  ids: IdBytes;
}

export class ColdRows {
  /** The columns, one entry per cold row. */
  k = coldColumns(0);
  private readonly free: number[] = [];
  private used = 0;

  constructor(private readonly strs: Interner) {}

  /** Rows holding a summary's cold fields. */
  get size(): number {
    return this.used - this.free.length;
  }

  /** One past the highest row used since the last compaction: the columns' pages up to it are resident. */
  get end(): number {
    return this.used;
  }

  /**
   * Moves the rows in use to the lowest numbers (keeping their order) and gives back the
   * columns' room above them (compact-rows.ts says when). `refs[0..n)`: every holder of a
   * row (each slot's cold entry; entries < 0 are not rows), rewritten in place. Returns
   * each old row's new number (-1: not in use), for what else is kept by row (delivery-ids.ts).
   */
  compact(refs: Int32Array, n: number): Int32Array {
    // Old row -> new row, in memory V8 maps itself: a malloc'd block this size, once
    // freed, would raise glibc's mmap threshold for good (columns.ts systemBuffer).
    const to = new Int32Array(systemBuffer(this.used * 4)).fill(-1);
    for (let s = 0; s < n; s++) if (refs[s] >= 0) to[refs[s]] = 0;
    const m = packRows(to, this.used, Object.values(this.k) as Column[]);
    for (let s = 0; s < n; s++) if (refs[s] >= 0) refs[s] = to[refs[s]];
    this.used = m;
    this.free.length = 0;
    const room = nextCapacity(m);
    const k = this.k as Record<string, Column>;
    for (const name of Object.keys(k)) k[name] = shrunk(k[name], room);
    return to;
  }

  /** A row whose strings are null (-1); its numbers are the caller's to write. */
  alloc(): number {
    const r = this.free.pop() ?? this.next();
    const { k } = this;
    k.type[r] = k.url[r] = k.err[r] = k.shape[r] = -1;
    return r;
  }

  /** A row holding row `j` of `src` (its strings interned here). */
  copyFrom(src: ColdSource, j: number): number {
    const r = this.alloc();
    const { k } = this;
    for (const name of COLD_NUMBER_COLUMNS) k[name][r] = src.rows[name][j];
    for (const name of COLD_STRING_COLUMNS) {
      const l = src.rows[name][j];
      k[name][r] = l < 0 ? -1 : this.strs.add(src.strings[l] as string);
    }
    return r;
  }

  /** Frees row `r` and its strings. */
  release(r: number): void {
    const { k } = this;
    for (const name of COLD_STRING_COLUMNS) if (k[name][r] >= 0) this.strs.release(k[name][r]);
    this.free.push(r);
  }

  /** Whether row `r` holds exactly what row `j` of `src` does (so `src` can give it back instead). */
  same(r: number, src: ColdSource, j: number): boolean {
    const { k } = this;
    const o = src.rows;
    // Column by column, written out: a loop over the names was most of a rotation's cost here.
    if (k.attempts[r] !== o.attempts[j] || !Object.is(k.lastAt[r], o.lastAt[j]) || !Object.is(k.code[r], o.code[j])) return false;
    if (!Object.is(k.dur[r], o.dur[j]) || !Object.is(k.next[r], o.next[j])) return false;
    return (
      this.sameString(k.type[r], src, o.type[j]) &&
      this.sameString(k.url[r], src, o.url[j]) &&
      this.sameString(k.err[r], src, o.err[j]) &&
      this.sameString(k.shape[r], src, o.shape[j])
    );
  }

  private sameString(mine: number, src: ColdSource, theirs: number): boolean {
    return mine < 0 || theirs < 0 ? mine === theirs : this.strs.get(mine) === src.strings[theirs];
  }

  private next(): number {
    if (this.used === this.k.lastAt.length) {
      const cap = nextCapacity(this.used);
      const k = this.k as Record<string, Column>;
      for (const name of Object.keys(k)) k[name] = grown(k[name], cap);
    }
    return this.used++;
  }
}
