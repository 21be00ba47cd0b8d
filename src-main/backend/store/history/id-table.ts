// Delivery ids by slot and slots by id, without a JavaScript string or Map entry per id
// (about 100 bytes each, and a million Map insertions at start-up): the ids' bytes in
// one buffer, an open-addressing hash table of slots (linear probing, backward-shift
// deletion) in an Int32Array. Ids with a character above U+00FF (never made by
// Countersign, possible in an imported file) are kept in a Map instead.
// A deleted id's bytes stay, and the slot's next id of that length (retention's freed slots
// go to new deliveries; ids of one kind are all as long) is written over them.
import { emptyColumn, grown, grownBytes, latin1Of, nextCapacity } from './columns.js';

const EMPTY_HASH = 0;
/** A slot's len for no id, with the bytes of its last one (n of them) free to reuse: FREED - n. */
const FREED = -3;

/** FNV-1a over the string's char codes, or -1 if one is above 0xFF. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) return -1;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 1; // never negative
}

export function hashBytes(b: Uint8Array, from: number, len: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < from + len; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h >>> 1;
}

/** Ids given as Latin-1 bytes, row k at `at[k]`, `len[k]` long (-1: none); `key[k]` (closed-ids.ts idKeyBytes) once worked out. */
export interface IdBytes {
  bytes: Uint8Array;
  at: Float64Array;
  len: Int32Array;
  key?: Float64Array;
}

export class IdTable {
  // Every column over a resizable buffer from the start, the ids' bytes a plain Uint8Array
  // (columns.ts emptyColumn, grownBytes): one hidden class at each site that reads them.
  private bytes: Uint8Array = grownBytes(new Uint8Array(0), 0, 1 << 16);
  private used = 0;
  private garbage = 0;
  /**
   * Per slot: where its id's bytes are (a Buffer is under 4 GiB: 32 bits), how many (-1: no
   * id; -2: a wide id, in the Maps; FREED - n: no id, the n bytes at off are free for the
   * next id of that length), its hash.
   */
  private off = emptyColumn(Uint32Array);
  private len = emptyColumn(Int32Array);
  private hash = emptyColumn(Int32Array);
  /** slot + 1 per entry, 0 = empty. */
  private table = grown(emptyColumn(Int32Array), 1 << 10);
  private count = 0;
  private readonly wide = new Map<string, number>();
  private readonly wideIds = new Map<number, string>();

  get size(): number {
    return this.count + this.wide.size;
  }

  /** Bytes of typed storage held (ids' bytes, per-slot columns, hash table), as allocated. */
  get bytesHeld(): number {
    return this.bytes.byteLength + this.off.byteLength + this.len.byteLength + this.hash.byteLength + this.table.byteLength;
  }

  /** The slot of `id`; `h` its hashString if already worked out. */
  get(id: string, h = hashString(id)): number | undefined {
    if (h < 0) return this.wide.get(id);
    // Compared with the string's char codes in place: writing it out as bytes first (a
    // native call) cost more than the probe.
    const { table, len, off, bytes } = this;
    const n = id.length;
    const mask = table.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e = table[i];
      if (e === 0) return undefined;
      const s = e - 1;
      if (this.hash[s] !== h || len[s] !== n) continue;
      const o = off[s];
      let k = 0;
      while (k < n && bytes[o + k] === id.charCodeAt(k)) k++;
      if (k === n) return s;
    }
  }

  /** Makes room for `n` slots and `idBytes` bytes of ids in all. */
  reserveFor(n: number, idBytes: number): void {
    if (n > 0) this.ensureSlot(n - 1);
    if (this.count * 2 + n * 2 > this.table.length) this.rehash(2 ** Math.ceil(Math.log2((this.count + n) * 2 + 1)));
    this.reserve(idBytes);
  }

  /** Gives `slot` the id (not already held); `h` its hashString if already worked out. */
  set(id: string, slot: number, h = hashString(id)): void {
    this.ensureSlot(slot);
    if (h < 0) {
      this.wide.set(id, slot);
      this.wideIds.set(slot, id);
      this.len[slot] = -2;
      return;
    }
    const o = this.room(slot, id.length);
    const { bytes } = this;
    for (let k = 0; k < id.length; k++) bytes[o + k] = id.charCodeAt(k); // every char is <= 0xFF (hashString checked): one byte each
    this.place(slot, o, id.length, h);
  }

  /** set() from an id's Latin-1 bytes (a sidecar's); `h` is their hash if already worked out. */
  setBytes(src: Uint8Array, from: number, n: number, slot: number, h = hashBytes(src, from, n)): void {
    this.ensureSlot(slot);
    const o = this.room(slot, n);
    const { bytes } = this;
    for (let k = 0; k < n; k++) bytes[o + k] = src[from + k];
    this.place(slot, o, n, h);
  }

  /** Whether `slot` holds the `n` Latin-1 bytes of `src` from `from` (false for a wide id). */
  sameBytes(slot: number, src: Uint8Array, from: number, n: number): boolean {
    if (slot >= this.len.length || this.len[slot] !== n) return false;
    const { bytes } = this;
    const o = this.off[slot];
    for (let k = 0; k < n; k++) if (bytes[o + k] !== src[from + k]) return false;
    return true;
  }

  /** The slot of an id given as Latin-1 bytes, or undefined; `h` is their hash if already worked out. */
  getBytes(src: Uint8Array, from: number, n: number, h = hashBytes(src, from, n)): number | undefined {
    const { table, len, off, bytes } = this;
    const mask = table.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e = table[i];
      if (e === 0) return undefined;
      const s = e - 1;
      if (this.hash[s] !== h || len[s] !== n) continue;
      const o = off[s];
      let k = 0;
      while (k < n && bytes[o + k] === src[from + k]) k++;
      if (k === n) return s;
    }
  }

  idOf(slot: number): string | undefined {
    const n = slot < this.len.length ? this.len[slot] : -1;
    if (n >= 0) return latin1Of(this.bytes, this.off[slot], this.off[slot] + n);
    return n === -2 ? this.wideIds.get(slot) : undefined;
  }

  /** The ids of `slots` as their Latin-1 bytes in a row, each one's length (-1: wide, in `wide`): no string per id. */
  rowsOf(slots: readonly number[]): { bytes: Buffer; len: Int32Array; wide: [number, string][] } {
    const len = new Int32Array(slots.length);
    const wide: [number, string][] = [];
    let total = 0;
    for (let k = 0; k < slots.length; k++) {
      const n = this.len[slots[k]];
      len[k] = n >= 0 ? n : -1;
      if (n >= 0) total += n;
      else wide.push([k, this.idOf(slots[k]) as string]);
    }
    const bytes = Buffer.allocUnsafe(total);
    for (let k = 0, at = 0; k < slots.length; k++) {
      if (len[k] < 0) continue;
      const o = this.off[slots[k]];
      for (let j = 0; j < len[k]; j++) bytes[at + j] = this.bytes[o + j];
      at += len[k];
    }
    return { bytes, len, wide };
  }

  /** Whether `slot` holds `id`, compared in place (no string made). */
  holds(slot: number, id: string): boolean {
    const n = slot < this.len.length ? this.len[slot] : -1;
    if (n === -2) return this.wideIds.get(slot) === id;
    if (n !== id.length) return false;
    const { bytes } = this;
    const o = this.off[slot];
    for (let k = 0; k < n; k++) if (bytes[o + k] !== id.charCodeAt(k)) return false;
    return true;
  }

  has(slot: number): boolean {
    return slot < this.len.length && (this.len[slot] >= 0 || this.len[slot] === -2);
  }

  delete(slot: number): void {
    const n = this.len[slot];
    if (n === -2) {
      this.wide.delete(this.wideIds.get(slot) as string);
      this.wideIds.delete(slot);
      this.len[slot] = -1;
    } else if (n >= 0) {
      this.unplace(slot);
      this.garbage += n;
      this.count--;
      this.len[slot] = FREED - n; // its bytes stay at off[slot] for the slot's next id
    }
    if (this.garbage > 1 << 20 && this.garbage > this.used / 2) this.compact();
  }

  /** Where `slot`'s next id of `n` bytes goes: over its last id's bytes if as long, else at the end. */
  private room(slot: number, n: number): number {
    if (this.len[slot] === FREED - n) {
      this.garbage -= n;
      return this.off[slot];
    }
    this.reserve(n);
    this.used += n;
    return this.used - n;
  }

  private place(slot: number, o: number, n: number, h: number): void {
    this.off[slot] = o;
    this.len[slot] = n;
    this.hash[slot] = h;
    if (++this.count * 2 > this.table.length) this.rehash(this.table.length * 2);
    else this.insert(slot);
  }

  private insert(slot: number): void {
    const mask = this.table.length - 1;
    let i = this.hash[slot] & mask;
    while (this.table[i] !== EMPTY_HASH) i = (i + 1) & mask;
    this.table[i] = slot + 1;
  }

  private unplace(slot: number): void {
    const { table } = this;
    const mask = table.length - 1;
    let i = this.hash[slot] & mask;
    while (table[i] !== slot + 1) i = (i + 1) & mask;
    // Backward-shift deletion: move later entries of the run into the hole when their home allows.
    for (let j = (i + 1) & mask; table[j] !== 0; j = (j + 1) & mask) {
      const home = this.hash[table[j] - 1] & mask;
      const between = i <= j ? home > i && home <= j : home > i || home <= j;
      if (between) continue;
      table[i] = table[j];
      i = j;
    }
    table[i] = 0;
  }

  private rehash(size: number): void {
    this.table = grown(this.table, size).fill(0);
    for (let s = 0; s < this.len.length; s++) if (this.len[s] >= 0) this.insert(s);
  }

  private reserve(n: number): void {
    if (this.used + n <= this.bytes.length) return;
    if (this.used + n > 0xffff_ffff) throw new RangeError('history: delivery ids past 4 GiB');
    this.bytes = grownBytes(this.bytes, this.used, Math.max(this.used + n, nextCapacity(this.bytes.length)));
  }

  /** Drops the bytes of deleted ids (retention leaves them behind). */
  private compact(): void {
    const next = grownBytes(new Uint8Array(0), 0, Math.max(1 << 16, Math.ceil((this.used - this.garbage) * 1.5)));
    let at = 0;
    for (let s = 0; s < this.len.length; s++) {
      const n = this.len[s];
      if (n <= FREED) this.len[s] = -1; // its free bytes are not copied
      if (n < 0) continue;
      next.set(this.bytes.subarray(this.off[s], this.off[s] + n), at);
      this.off[s] = at;
      at += n;
    }
    this.bytes = next;
    this.used = at;
    this.garbage = 0;
  }

  private ensureSlot(slot: number): void {
    if (slot < this.len.length) return;
    const cap = Math.max(slot + 1, nextCapacity(this.len.length));
    const from = this.len.length;
    this.off = grown(this.off, cap);
    this.len = grown(this.len, cap);
    this.hash = grown(this.hash, cap);
    this.len.fill(-1, from);
  }
}
