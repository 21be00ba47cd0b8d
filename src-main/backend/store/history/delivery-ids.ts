// Delivery ids by slot and slots by id (DeliveryTable.ids), in two places: a delivery
// whose cold fields are in memory (cold-rows.ts: the open segment's, pending ones, any
// changed since its segment closed) has its id's bytes in an IdTable (id-table.ts) keyed
// by its cold row; one whose cold fields are in its closed segment's sidecar has its id
// there too, row k of the sidecar's ids, and memory keeps only its key and slot
// (closed-ids.ts, about 14 bytes instead of about 80). The two move together: an id leaves
// memory when its cold fields do (DeliveryTable.evict, import-rows.ts), and comes back
// when they do (a change: DeliveryTable.write, coldRow).
import { ClosedIds, idKey, idKeyBytes, tableHashOf } from './closed-ids.js';
import type { ColdSource } from './cold-rows.js';
import { emptyColumn, grown, latin1Of, nextCapacity } from './columns.js';
import { IdTable, type IdBytes } from './id-table.js';

/** What the ids need of the DeliveryTable: each slot's cold row (or sidecar row) and base segment, and the sidecars. */
export interface IdsHost {
  readonly c: { readonly cold: Int32Array; readonly baseSeg: Int32Array };
  /** One past the highest slot ever used: the closed ids' table is given room for that many. */
  readonly end: number;
  coldSource(segId: number): ColdSource;
}

/** A slot's cold entry when its fields (and id) are row EVICTED_AT - ref of its sidecar (cold-rows.ts evictedRef). */
const EVICTED_AT = -2;

export class DeliveryIds {
  /** Ids of deliveries whose cold row is in memory, keyed by that row. */
  private hot = new IdTable();
  /** The slot of each cold row holding an id. */
  private rowSlot: Int32Array = emptyColumn(Int32Array);
  private readonly closed = new ClosedIds();
  /** Closed deliveries (entries of `closed` not yet dropped may be more). */
  private closedCount = 0;
  /** Whether a slot's closed entry is still its own (its fields still in its sidecar). */
  private readonly stillClosed = (s: number): boolean => this.host.c.cold[s] <= EVICTED_AT;

  constructor(private readonly host: IdsHost) {}

  get size(): number {
    return this.hot.size + this.closedCount;
  }

  /** Ids whose bytes are in memory (the others are in their sidecars). */
  get inMemory(): number {
    return this.hot.size;
  }

  /** Bytes of typed storage held, as allocated. */
  get bytesHeld(): number {
    return this.hot.bytesHeld + this.rowSlot.byteLength + this.closed.bytesHeld;
  }

  get(id: string): number | undefined {
    const key = this.keyOf(id);
    const r = this.hot.get(id, key < 0 ? -1 : tableHashOf(key));
    if (r !== undefined) return this.rowSlot[r];
    if (key < 0) return undefined;
    this.wantId = id;
    return this.closed.find(key, this.isWantedId);
  }

  /** The slot of an id given as Latin-1 bytes; `key` its idKeyBytes if already worked out. */
  getBytes(src: Uint8Array, from: number, n: number, key = idKeyBytes(src, from, n)): number | undefined {
    const r = this.hot.getBytes(src, from, n, tableHashOf(key));
    if (r !== undefined) return this.rowSlot[r];
    this.want = src;
    this.wantFrom = from;
    this.wantLen = n;
    return this.closed.find(key, this.isWantedBytes);
  }

  // What a closed lookup compares a slot's sidecar id with (no closure made per lookup).
  private wantId = '';
  private want: Uint8Array = new Uint8Array(0);
  private wantFrom = 0;
  private wantLen = 0;
  private readonly isWantedId = (s: number): boolean => this.closedIs(s, this.wantId);
  private readonly isWantedBytes = (s: number): boolean => {
    if (!this.stillClosed(s)) return false;
    const [ids, k] = this.sidecarRow(s);
    return ids.len[k] === this.wantLen && sameBytes(ids.bytes, ids.at[k], this.want, this.wantFrom, this.wantLen);
  };

  idOf(slot: number): string | undefined {
    const ref = this.host.c.cold[slot];
    if (ref >= 0) return this.rowSlot[ref] === slot ? this.hot.idOf(ref) : undefined;
    if (ref > EVICTED_AT) return undefined;
    const [ids, k] = this.sidecarRow(slot);
    return latin1Of(ids.bytes, ids.at[k], ids.at[k] + ids.len[k]);
  }

  /** Whether `slot` holds `id`, compared in place. */
  holds(slot: number, id: string): boolean {
    const ref = this.host.c.cold[slot];
    if (ref >= 0) return this.rowSlot[ref] === slot && this.hot.holds(ref, id);
    return ref <= EVICTED_AT && this.closedIs(slot, id);
  }

  has(slot: number): boolean {
    const ref = this.host.c.cold[slot];
    return ref >= 0 ? ref < this.rowSlot.length && this.rowSlot[ref] === slot && this.hot.has(ref) : ref <= EVICTED_AT;
  }

  /** The ids of `slots` as their Latin-1 bytes in a row, each one's length (-1: wide, in `wide`): no string per id. */
  rowsOf(slots: readonly number[]): { bytes: Buffer; len: Int32Array; wide: [number, string][] } {
    const { cold } = this.host.c;
    if (slots.every((s) => cold[s] >= 0)) return this.hot.rowsOf(slots.map((s) => cold[s]));
    const len = new Int32Array(slots.length);
    const wide: [number, string][] = [];
    const ids = slots.map((s) => this.idOf(s) as string);
    ids.forEach((id, k) => {
      len[k] = idKey(id) < 0 ? -1 : id.length;
      if (len[k] < 0) wide.push([k, id]);
    });
    return { bytes: Buffer.from(ids.filter((_, k) => len[k] >= 0).join(''), 'latin1'), len, wide };
  }

  /** Gives `slot` (whose cold row is in memory) its id. */
  set(id: string, slot: number): void {
    const key = this.keyOf(id);
    this.hot.set(id, this.rowOf(slot), key < 0 ? -1 : tableHashOf(key));
  }

  // The last id's key: a new delivery's id is looked up (get), then set, hashed once.
  private lastId = '';
  private lastKey = idKey('');

  private keyOf(id: string): number {
    if (id !== this.lastId) {
      this.lastKey = idKey(id);
      this.lastId = id;
    }
    return this.lastKey;
  }

  /** set() from an id's Latin-1 bytes (a sidecar's); `key` their idKeyBytes if already worked out. */
  setBytes(src: Uint8Array, from: number, n: number, slot: number, key = idKeyBytes(src, from, n)): void {
    this.hot.setBytes(src, from, n, this.rowOf(slot), tableHashOf(key));
  }

  /**
   * The cold rows moved (ColdRows.compact: old row r is now to[r], -1 if not in use): the
   * ids in memory move with them, into a table of their number (the old one's room goes).
   */
  renumber(to: Int32Array): void {
    const [old, oldSlots] = [this.hot, this.rowSlot];
    this.hot = new IdTable();
    let rows = 0;
    for (let r = 0; r < to.length; r++) rows = Math.max(rows, to[r] + 1);
    this.rowSlot = grown(emptyColumn(Int32Array), rows);
    for (let r = 0; r < to.length && r < oldSlots.length; r++) {
      if (to[r] < 0 || !old.has(r)) continue;
      this.hot.set(old.idOf(r) as string, to[r]);
      this.rowSlot[to[r]] = oldSlots[r];
    }
  }

  /** Frees `slot`'s id (retention): then sweep(), once the slots to remove are all removed. */
  delete(slot: number): void {
    const ref = this.host.c.cold[slot];
    if (ref >= 0 && this.rowSlot[ref] === slot) this.hot.delete(ref);
    else if (ref <= EVICTED_AT) this.closedCount--; // its entry is dropped by sweep(): its cold entry no longer says closed
  }

  /** Drops from memory the closed entries of slots removed since (delete). */
  sweep(): void {
    this.closed.sweep(this.stillClosed);
  }

  /**
   * The id of `slot` (cold row `r`) leaves memory if it is row `k` of `src` (the sidecar
   * just written); returns its key then (the caller adds it with addClosed once the
   * slot's cold entry refers to row k), else -1 (a wide id, or another id).
   */
  leave(slot: number, r: number, src: ColdSource, k: number): number {
    const { ids } = src;
    const n = ids.len[k];
    if (n < 0 || this.rowSlot[r] !== slot || !this.hot.sameBytes(r, ids.bytes, ids.at[k], n)) return -1;
    this.hot.delete(r);
    return idKeyBytes(ids.bytes, ids.at[k], n);
  }

  /**
   * Makes room for `m` closed ids about to be added (addClosed), and for as many as the
   * table has used slots (closed-ids.ts: its room follows that number, not the ids closed now).
   */
  reserveClosed(m: number): void {
    this.closed.fit(Math.max(this.host.end, this.closedCount + m));
  }

  /** A slot whose cold entry now refers to its sidecar row, with its id's key (leave, import-rows.ts). */
  addClosed(key: number, slot: number): void {
    this.closed.add(key, slot);
    this.closedCount++;
  }

  /**
   * Takes a closed delivery's id back into memory, as the id of cold row `r` (its new
   * one): `id` when the caller has it (a new summary), else read from its sidecar row.
   * Call before the slot's cold entry changes.
   */
  back(slot: number, r: number, id?: string): void {
    const the = id ?? (this.idOf(slot) as string);
    this.closed.remove(idKey(the), slot);
    this.closedCount--;
    this.rowSlot = ensure(this.rowSlot, r);
    this.rowSlot[r] = slot;
    this.hot.set(the, r);
  }

  private rowOf(slot: number): number {
    const r = this.host.c.cold[slot];
    this.rowSlot = ensure(this.rowSlot, r);
    this.rowSlot[r] = slot;
    return r;
  }

  /** The sidecar ids of a closed slot and its row there. */
  private sidecarRow(slot: number): [IdBytes, number] {
    return [this.host.coldSource(this.host.c.baseSeg[slot]).ids, EVICTED_AT - this.host.c.cold[slot]];
  }

  private closedIs(slot: number, id: string): boolean {
    if (!this.stillClosed(slot)) return false;
    const [ids, k] = this.sidecarRow(slot);
    if (ids.len[k] !== id.length) return false;
    const o = ids.at[k];
    for (let j = 0; j < id.length; j++) if (ids.bytes[o + j] !== id.charCodeAt(j)) return false;
    return true;
  }
}

function sameBytes(a: Uint8Array, ao: number, b: Uint8Array, bo: number, n: number): boolean {
  for (let j = 0; j < n; j++) if (a[ao + j] !== b[bo + j]) return false;
  return true;
}

function ensure(col: Int32Array, r: number): Int32Array {
  return r < col.length ? col : grown(col, Math.max(r + 1, nextCapacity(col.length)));
}
