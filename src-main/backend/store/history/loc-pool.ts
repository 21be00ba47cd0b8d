// File locations of attempt records, as chains in flat columns: a delivery holds the
// first node of its chain (its last is found by walking it: a delivery's attempts are
// few), each node a segment id, an offset, a length, an item (for an attempt embedded
// in a carried line, else -1) and the next node (-1 ends).
import { grown, nextCapacity, packRows, shrunk, systemBuffer } from './columns.js';
import type { ColdSource } from './cold-rows.js';
import type { Loc, Segment } from './segments.js';

/** Locations as columns: offset, length, item (-1: none). */
export interface LocColumns {
  off: Float64Array;
  len: Int32Array;
  item: Int32Array;
}

const MAX_OFF = 0xffff_ffff;

export class LocPool {
  private seg = new Int32Array(0);
  /** Offsets in a segment: 32 bits (a segment is closed past 32 MiB, and no line is 4 GiB). */
  private off = new Uint32Array(0);
  private len = new Int32Array(0);
  private item = new Int32Array(0);
  private next = new Int32Array(0);
  private used = 0;
  private freeHead = -1;
  /** Nodes in chains (not free). */
  size = 0;

  /** A new node holding a location, linked after `tail` (-1: a new chain); item -1: none. */
  append(tail: number, segId: number, off: number, len: number, item: number): number {
    if (off > MAX_OFF) throw new RangeError(`history: an attempt at offset ${off} of a segment, past what the index holds`);
    const n = this.alloc();
    this.seg[n] = segId;
    this.off[n] = off;
    this.len[n] = len;
    this.item[n] = item;
    this.next[n] = -1;
    if (tail >= 0) this.next[tail] = n;
    return n;
  }

  /** The last node of the chain from `head` (-1 for none): chains are a delivery's attempts, a few nodes. */
  last(head: number): number {
    let n = head;
    if (n < 0) return -1;
    while (this.next[n] >= 0) n = this.next[n];
    return n;
  }

  /** Frees a whole chain. */
  freeChain(head: number): void {
    let n = head;
    while (n >= 0) {
      this.size--;
      const after = this.next[n];
      this.next[n] = this.freeHead;
      this.freeHead = n;
      n = after;
    }
  }

  /** Whether node `n` is the whole line at `off` of segment `segId` (not an item of a carried line). */
  isAt(n: number, segId: number, off: number): boolean {
    return n >= 0 && this.seg[n] === segId && this.off[n] === off && this.item[n] < 0;
  }

  /** The chain's locations, oldest first (those in segments no longer known are left out: their file is gone). */
  locs(head: number, segs: ReadonlyMap<number, Segment>): Loc[] {
    const out: Loc[] = [];
    for (let n = head; n >= 0; n = this.next[n]) {
      const seg = segs.get(this.seg[n]);
      if (!seg) continue;
      const loc: Loc = { seg, off: this.off[n], len: this.len[n] };
      if (this.item[n] >= 0) loc.item = this.item[n];
      out.push(loc);
    }
    return out;
  }

  /** How many locations locs() would give. */
  count(head: number, segs: ReadonlyMap<number, Segment>, upTo = Infinity): number {
    let count = 0;
    for (let n = head; n >= 0; n = this.next[n]) if (this.seg[n] <= upTo && segs.has(this.seg[n])) count++;
    return count;
  }

  /** locs() written into columns from index `at` (item -1: none); returns the index after the last. */
  fill(head: number, segs: ReadonlyMap<number, Segment>, out: LocColumns, at: number, upTo = Infinity): number {
    for (let n = head; n >= 0; n = this.next[n]) {
      if (this.seg[n] > upTo || !segs.has(this.seg[n])) continue;
      out.off[at] = this.off[n];
      out.len[at] = this.len[n];
      out.item[at] = this.item[n];
      at++;
    }
    return at;
  }

  /** Whether the chain from `head` is exactly the attempts of row `k` of a sidecar of segment `segId` (cold-rows.ts). */
  sameAs(head: number, segId: number, src: ColdSource, k: number): boolean {
    let a = src.aFirst[k];
    for (let n = head; n >= 0; n = this.next[n], a++) {
      if (a >= src.aFirst[k + 1] || this.seg[n] !== segId) return false;
      if (this.off[n] !== src.aOff[a] || this.len[n] !== src.aLen[a] || this.item[n] !== src.aItem[a]) return false;
    }
    return a === src.aFirst[k + 1];
  }

  /** A chain of the attempts of row `k` of a sidecar of segment `segId`; its first node (-1: none). */
  chainFrom(src: ColdSource, k: number, segId: number): number {
    let head = -1;
    let tail = -1;
    for (let a = src.aFirst[k]; a < src.aFirst[k + 1]; a++) {
      tail = this.append(tail, segId, src.aOff[a], src.aLen[a], src.aItem[a]);
      if (head < 0) head = tail;
    }
    return head;
  }

  /** One past the highest node used since the last compaction: the columns' pages up to it are resident. */
  get end(): number {
    return this.used;
  }

  /**
   * Moves the nodes of the chains starting at `heads[s]` for the slots `live` says are
   * in use to the lowest numbers (keeping their order) and gives back the columns' room
   * above them (compact-rows.ts says when). The heads of live slots are rewritten in
   * place; a dead slot's head (its chain was freed with it, and a slot taken again gets
   * a new one) may then name any node.
   */
  compact(heads: Int32Array, n: number, live: (s: number) => boolean): void {
    const to = new Int32Array(systemBuffer(this.used * 4)).fill(-1); // not malloc'd: columns.ts systemBuffer
    for (let s = 0; s < n; s++) if (heads[s] >= 0 && live(s)) for (let x = heads[s]; x >= 0; x = this.next[x]) to[x] = 0;
    const m = packRows(to, this.used, [this.seg, this.off, this.len, this.item, this.next]);
    for (let x = 0; x < m; x++) if (this.next[x] >= 0) this.next[x] = to[this.next[x]];
    for (let s = 0; s < n; s++) if (heads[s] >= 0) heads[s] = to[heads[s]];
    this.used = this.size = m;
    this.freeHead = -1;
    const room = nextCapacity(m);
    this.seg = shrunk(this.seg, room);
    this.off = shrunk(this.off, room);
    this.len = shrunk(this.len, room);
    this.item = shrunk(this.item, room);
    this.next = shrunk(this.next, room);
  }

  private alloc(): number {
    this.size++;
    if (this.freeHead >= 0) {
      const n = this.freeHead;
      this.freeHead = this.next[n];
      return n;
    }
    if (this.used === this.seg.length) {
      const cap = nextCapacity(this.used);
      this.seg = grown(this.seg, cap);
      this.off = grown(this.off, cap);
      this.len = grown(this.len, cap);
      this.item = grown(this.item, cap);
      this.next = grown(this.next, cap);
    }
    return this.used++;
  }
}
