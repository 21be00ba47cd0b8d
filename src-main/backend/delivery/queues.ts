// The engine's in-memory work lists. Both are views of the stored deliveries
// (the outbox's), rebuilt from them on start: losing them loses nothing.

/** A FIFO with O(1) push and shift (Array#shift copies on large arrays). */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }
  /** The items queued, first out first (for the rare look at everything; no copy). */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i] as T;
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** Min-heap on `at` (epoch ms): the next due retry is always at the top, so one timer suffices. */
export class DueHeap<T> {
  private readonly heap: { at: number; item: T }[] = [];
  get size(): number {
    return this.heap.length;
  }
  peek(): { at: number; item: T } | undefined {
    return this.heap[0];
  }
  /** Every entry, in no particular order (for the rare look at everything). */
  entries(): readonly { at: number; item: T }[] {
    return this.heap;
  }
  push(at: number, item: T): void {
    const h = this.heap;
    h.push({ at, item });
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent].at <= h[i].at) break;
      [h[parent], h[i]] = [h[i], h[parent]];
      i = parent;
    }
  }
  pop(): { at: number; item: T } | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l].at < h[m].at) m = l;
        if (r < h.length && h[r].at < h[m].at) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top;
  }
}

interface Lane<T> {
  key: string;
  ready: Fifo<T>;
  active: number;
  queued: boolean;
}

/** Slots every lane may hold even when the rest of the pool is full (they come out of the reserve). */
const GUARANTEED = 2;

/**
 * Ready work, one lane per subscription, served round-robin under these limits, so
 * that lanes that hang (their attempts hold slots until a deadline) cannot starve the
 * others, whatever their company:
 * - work in flight overall (`maxTotal`), and per lane (`maxPerKey`, or less for a lane
 *   `limitOf` names: an endpoint that keeps timing out);
 * - a reserve (an eighth of the pool) that only a lane holding fewer than GUARANTEED
 *   slots may use, so a newly busy lane starts at once even when hanging lanes hold the rest;
 * - a fair share: beyond GUARANTEED, a lane may hold at most its share of the
 *   unreserved pool among the lanes with work, so as hanging attempts end, their slots
 *   go to the others rather than back to them.
 */
export class FairQueue<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  private readonly runnable = new Fifo<Lane<T>>();
  private activeTotal = 0;
  private readonly reserve: number;

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerKey: number,
    private readonly limitOf: (key: string) => number = () => Infinity,
  ) {
    this.reserve = Math.floor(maxTotal / 8);
  }

  get active(): number {
    return this.activeTotal;
  }

  push(key: string, item: T): void {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, ready: new Fifo<T>(), active: 0, queued: false };
      this.lanes.set(key, lane);
    }
    lane.ready.push(item);
    this.enqueue(lane);
  }

  /** The items queued in one lane, or in every lane (for the rare look at everything). */
  *queued(key?: string): IterableIterator<T> {
    const lanes = key === undefined ? this.lanes.values() : [this.lanes.get(key)];
    for (const lane of lanes) if (lane) yield* lane.ready;
  }

  /** The next item allowed to start (skipping those `isLive` rejects), counted as active until `done(key)`. */
  take(isLive: (item: T) => boolean): { key: string; item: T } | undefined {
    // Each lane queued now is looked at once at most: one that may not start yet stays queued.
    for (let tries = this.runnable.length; this.activeTotal < this.maxTotal && tries > 0; tries--) {
      const lane = this.runnable.shift()!;
      lane.queued = false;
      if (lane.active >= this.limit(lane)) continue; // its limit fell (it keeps timing out)
      if (!this.mayStart(lane)) {
        this.enqueue(lane);
        continue;
      }
      let item = lane.ready.shift();
      while (item !== undefined && !isLive(item)) item = lane.ready.shift();
      if (item === undefined) {
        this.dropIfIdle(lane);
        continue;
      }
      lane.active++;
      this.activeTotal++;
      this.enqueue(lane);
      return { key: lane.key, item };
    }
    return undefined;
  }

  done(key: string): void {
    const lane = this.lanes.get(key);
    if (!lane) return;
    lane.active--;
    this.activeTotal--;
    this.enqueue(lane);
    this.dropIfIdle(lane);
  }

  private limit(lane: Lane<T>): number {
    return Math.min(this.maxPerKey, this.limitOf(lane.key));
  }

  private mayStart(lane: Lane<T>): boolean {
    if (lane.active < GUARANTEED) return true;
    const share = Math.max(GUARANTEED, Math.ceil((this.maxTotal - this.reserve) / this.lanes.size));
    return this.activeTotal < this.maxTotal - this.reserve && lane.active < share;
  }

  private enqueue(lane: Lane<T>): void {
    if (!lane.queued && lane.ready.length > 0 && lane.active < this.limit(lane)) {
      lane.queued = true;
      this.runnable.push(lane);
    }
  }

  private dropIfIdle(lane: Lane<T>): void {
    if (lane.active === 0 && lane.ready.length === 0 && !lane.queued) this.lanes.delete(lane.key);
  }
}
