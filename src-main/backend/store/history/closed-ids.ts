// The ids of closed segments' deliveries, without their bytes (docs/storage.md, "The
// delivery history in memory"): once a delivery's cold fields are in its segment's
// sidecar (cold-rows.ts), so are its id's bytes (the sidecar's idBytes), and memory keeps
// only a 52-bit key of those bytes and the delivery's slot, 12 bytes, in an open-addressing
// table (Robin Hood linear probing): about 13-15 bytes a delivery. A lookup
// checks the bytes of each slot with the key (hashes collide) against the sidecar; with
// 52 bits, a lookup of an id not there reads no sidecar, in practice. Entries of removed
// slots (retention) are dropped by a sweep. The table's room follows the number of slots
// the delivery table has used (DeliveryTable.end, which only grows: one slot per delivery
// indexed at once at most), not how many of them are closed right now: that number
// depends on whether retention or a sidecar's write came first, and a room sized by it
// would differ round to round at the history's cap. The room grows only, to hold that many
// entries 80 % full once they would pass 93 %.
import { grown } from './columns.js';

/** Bits of a key under the FNV-1a hash's 32 (2^52 is below 2^53: exact in a float64). */
const LOW = 2 ** 20;

/** The key of an id given as a string; -1 if a character is above U+00FF (such ids stay in memory). */
export function idKey(s: string): number {
  let h = 0x811c9dc5;
  let g = 0x9e3779b9;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) return -1;
    h = Math.imul(h ^ c, 0x01000193);
    g = Math.imul(g ^ c, 0x5bd1e995);
  }
  return keyOf(h, g);
}

/** The key of an id given as Latin-1 bytes. */
export function idKeyBytes(b: Uint8Array, from: number, n: number): number {
  let h = 0x811c9dc5;
  let g = 0x9e3779b9;
  for (let i = from; i < from + n; i++) {
    const c = b[i];
    h = Math.imul(h ^ c, 0x01000193);
    g = Math.imul(g ^ c, 0x5bd1e995);
  }
  return keyOf(h, g);
}

/** FNV-1a's 32 bits above 20 of the second hash (the same loop with another multiplier, its bits then mixed). */
function keyOf(h: number, g: number): number {
  g = Math.imul(g ^ (g >>> 15), 0x85ebca6b);
  g = Math.imul(g ^ (g >>> 13), 0xc2b2ae35);
  return (h >>> 0) * LOW + ((g ^ (g >>> 16)) & (LOW - 1));
}

/** The id table's hash of the same bytes (id-table.ts hashBytes: FNV-1a >>> 1), from a key. */
export function tableHashOf(key: number): number {
  return Math.floor(key / (2 * LOW));
}

const EMPTY = -1;
const FULL = 0.93;
const AFTER = 0.8;
const MIN_ROOM = 1024;

export class ClosedIds {
  /** Per cell: a key (EMPTY: none) and its slot. */
  private keys = room(0);
  private slots = new Int32Array(0);
  private n = 0;
  /** Cells, and cells per unit of key (a key's home is key * scale, rounded down). */
  private cap = 0;
  private scale = 0;

  /** Entries held. */
  get size(): number {
    return this.n;
  }

  /** Bytes of typed storage held, as allocated. */
  get bytesHeld(): number {
    return this.keys.byteLength + this.slots.byteLength;
  }

  /** The slot of the entry with `key` for which `is(slot)` holds (its bytes are the id's), or undefined. */
  find(key: number, is: (slot: number) => boolean): number | undefined {
    const { keys, cap, scale } = this;
    if (cap === 0) return undefined;
    for (let i = homeOf(key, scale, cap), dist = 0; ; dist++) {
      const k = keys[i];
      if (k === EMPTY) return undefined;
      // Robin Hood: past a cell nearer its own home than this one is to the key's, the key is not there.
      const kh = homeOf(k, scale, cap);
      if ((i >= kh ? i - kh : i + cap - kh) < dist) return undefined;
      if (k === key && is(this.slots[i])) return this.slots[i];
      if (++i === cap) i = 0;
    }
  }

  /** Adds an entry (its slot's id has key `key`; room made for it first: fit). */
  add(key: number, slot: number): void {
    if (this.n + 1 > this.cap * FULL) this.fit(this.n + 1);
    this.place(key, slot);
    this.n++;
  }

  /** Makes room for `n` entries in all, if there is not (grows only). */
  fit(n: number): void {
    if (n > this.cap * FULL) this.rebuild(n);
  }

  /** Removes the entry of `slot` with `key`, if there is one. */
  remove(key: number, slot: number): void {
    const { keys } = this;
    const cap = keys.length;
    if (cap === 0) return;
    for (let i = this.home(key), dist = 0; ; dist++) {
      const k = keys[i];
      if (k === EMPTY || this.distance(i, k) < dist) return;
      if (k === key && this.slots[i] === slot) return this.removeAt(i);
      if (++i === cap) i = 0;
    }
  }

  /** Drops every entry whose slot `keep` rejects (retention removed it). */
  sweep(keep: (slot: number) => boolean): void {
    const { keys } = this;
    for (let i = 0; i < keys.length;) {
      if (keys[i] !== EMPTY && !keep(this.slots[i])) this.removeAt(i);
      else i++;
    }
  }

  /** Empties cell `i`, moving the next entries of its run back (backward-shift deletion). */
  private removeAt(i: number): void {
    const { keys, slots } = this;
    const cap = keys.length;
    for (let j = i + 1 === cap ? 0 : i + 1; keys[j] !== EMPTY && this.distance(j, keys[j]) > 0; j = j + 1 === cap ? 0 : j + 1) {
      keys[i] = keys[j];
      slots[i] = slots[j];
      i = j;
    }
    keys[i] = EMPTY;
    this.n--;
  }

  private place(key: number, slot: number): void {
    const { keys, slots, cap, scale } = this;
    for (let i = homeOf(key, scale, cap), dist = 0; ; dist++) {
      const k = keys[i];
      if (k === EMPTY) {
        keys[i] = key;
        slots[i] = slot;
        return;
      }
      const kh = homeOf(k, scale, cap);
      const d = i >= kh ? i - kh : i + cap - kh;
      if (d < dist) {
        // Robin Hood: the entry nearer its home moves on.
        const s = slots[i];
        keys[i] = key;
        slots[i] = slot;
        key = k;
        slot = s;
        dist = d;
      }
      if (++i === cap) i = 0;
    }
  }

  /** New cells for `n` entries at 80 % (at least MIN_ROOM), every entry placed again. */
  private rebuild(n: number): void {
    const [oldKeys, oldSlots] = [this.keys, this.slots];
    const cap = Math.max(MIN_ROOM, Math.ceil(n / AFTER));
    this.keys = room(cap);
    this.slots = grown(new Int32Array(0), cap, cap);
    this.cap = cap;
    this.scale = cap / 2 ** 52;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] !== EMPTY) this.place(oldKeys[i], oldSlots[i]);
  }

  /** A key's first cell: its place in the key range (keys spread evenly). */
  private home(key: number): number {
    return homeOf(key, this.scale, this.cap);
  }

  /** How far cell `i` is past the home of its key `k`. */
  private distance(i: number, k: number): number {
    const h = this.home(k);
    return i >= h ? i - h : i + this.cap - h;
  }
}

/** A key's home cell: its place in the key range, `scale` cells per unit (rounding kept inside the table). */
function homeOf(key: number, scale: number, cap: number): number {
  const h = Math.floor(key * scale);
  return h < cap ? h : cap - 1;
}

/** `cap` empty cells of keys, in a resizable buffer of that size (columns.ts: pages taken as written, no malloc'd block). */
function room(cap: number): Float64Array {
  return grown(new Float64Array(0), cap, cap).fill(EMPTY);
}
