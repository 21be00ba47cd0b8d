// The history index's deliveries of each company by creation time, for the inspector
// (newest first, then by id, descending). One typed column per company: slot numbers,
// ascending by creation time (epoch ms), each time read from the delivery table's own
// column when a walk or a binary search needs it (not kept twice); deliveries with the
// same time are in no particular order and are put in id order when walked (a group of
// equal times is small: one event's fan-out), so no id is compared, and no string or
// object made, for anything a page does not show. 4 bytes a delivery.
//
// Made at start-up from each company's list in creation order. History lists are in
// sequence order, which is nearly time order: one pass checks it; when it is not (an
// import of older deliveries), the longest sorted run stays in place and the rest is
// sorted on its own and merged into it from the back, moving whole stretches at once.
// Then kept up to date by the index: a delivery newer than the last is appended; an
// older one waits in a side list that is merged in the same way before the next walk.
import { grown, nextCapacity } from './columns.js';
import { firstAfter, walk, type SortedGroup, type TimedSlot } from './time-walk.js';

/** One company's order. */
class CompanyOrder {
  slots: Int32Array;
  n: number;
  /** Changes whenever slots[0..n) do (the walk's group in id order is kept for one version). */
  version = 0;
  group: SortedGroup | null = null;
  /** Added out of order, not merged yet. */
  private side: number[] = [];
  private sideMs: number[] = [];

  /** `ms` (start-up): the slots' times, to sort them by; none for a new, empty order. */
  constructor(
    slots: Int32Array,
    n: number,
    private readonly msOf: (s: number) => number,
    ms?: Float64Array,
  ) {
    this.slots = slots;
    this.n = n;
    if (ms) this.sortOnce(ms);
  }

  /** The time of entry i (its delivery's creation time now: see TimeOrders.changed). */
  readonly msAt = (i: number): number => this.msOf(this.slots[i]);

  get size(): number {
    return this.n + this.side.length;
  }

  add(s: number, ms: number): void {
    const { n } = this;
    if (this.side.length > 0 || (n > 0 && ms < this.msAt(n - 1))) {
      this.side.push(s);
      this.sideMs.push(ms);
      if (this.side.length > Math.max(4096, n >>> 3)) this.settle();
      return;
    }
    if (n === this.slots.length) this.grow(nextCapacity(n));
    this.slots[n] = s;
    this.n = n + 1;
    this.version++;
  }

  /** Removes slot `s`, added with time `ms`; false if it is not here. */
  remove(s: number, ms: number): boolean {
    const k = this.side.indexOf(s);
    if (k >= 0) {
      this.side.splice(k, 1);
      this.sideMs.splice(k, 1);
      return true;
    }
    // Looked for by the time it was added with, which its own entry is read as too (it
    // may read a new time already: a changed creation time, TimeOrders.changed).
    const at = (j: number): number => (this.slots[j] === s ? ms : this.msAt(j));
    let i = firstAfter(at, this.n, ms, true);
    while (i < this.n && at(i) === ms && this.slots[i] !== s) i++;
    if (i === this.n || this.slots[i] !== s) return false;
    this.slots.copyWithin(i, i + 1, this.n);
    this.n--;
    this.version++;
    return true;
  }

  /** Removes every slot in `gone`: one pass. */
  removeMany(gone: ReadonlySet<number>): void {
    const { slots } = this;
    let w = 0;
    for (let i = 0; i < this.n; i++) if (!gone.has(slots[i])) slots[w++] = slots[i];
    this.n = w;
    this.version++;
    for (let k = this.side.length - 1; k >= 0; k--) {
      if (!gone.has(this.side[k])) continue;
      this.side.splice(k, 1);
      this.sideMs.splice(k, 1);
    }
  }

  /** Merges the side list in: afterwards slots[0..n) is the whole order. */
  settle(): void {
    const k = this.side.length;
    if (k === 0) return;
    const sideSlots = Int32Array.from(this.side);
    const sideMs = Float64Array.from(this.sideMs);
    this.side = [];
    this.sideMs = [];
    this.mergeIn(sideSlots, sideMs);
  }

  /** Sorts slots[0..n) as made (`ms`: their times): the longest ascending run stays, the rest is merged into it. */
  private sortOnce(ms: Float64Array): void {
    const { slots, n } = this;
    let [best, bestEnd, at] = [0, 0, 0];
    for (let i = 1; i <= n; i++) {
      if (i < n && ms[i] >= ms[i - 1]) continue;
      if (i - at > bestEnd - best) [best, bestEnd] = [at, i];
      at = i;
    }
    if (bestEnd - best === n) return;
    const k = n - (bestEnd - best);
    const restSlots = new Int32Array(k);
    const restMs = new Float64Array(k);
    restSlots.set(slots.subarray(0, best));
    restSlots.set(slots.subarray(bestEnd, n), best);
    restMs.set(ms.subarray(0, best));
    restMs.set(ms.subarray(bestEnd, n), best);
    slots.copyWithin(0, best, bestEnd);
    this.n = bestEnd - best;
    this.mergeIn(restSlots, restMs);
  }

  /** Merges entries (in any order) into slots[0..n): from the back, each stretch of the order moved once. */
  private mergeIn(addSlots: Int32Array, addMs: Float64Array): void {
    const k = addSlots.length;
    sortRuns(addSlots, addMs, k);
    if (this.n + k > this.slots.length) this.grow(Math.max(this.n + k, nextCapacity(this.n)));
    const { slots } = this;
    let end = this.n; // slots[0..end) not moved yet
    for (let j = k - 1; j >= 0; j--) {
      const p = firstAfter(this.msAt, end, addMs[j]);
      slots.copyWithin(p + j + 1, p, end);
      slots[p + j] = addSlots[j];
      end = p;
    }
    this.n += k;
    this.version++;
  }

  /** Room for `cap` entries, grown in place (columns.ts: no copy left behind in the heap). */
  private grow(cap: number): void {
    this.slots = grown(this.slots, cap);
  }
}

/** Every company's order, by the company's interned number. */
export class TimeOrders {
  private readonly byCompany = new Map<number, CompanyOrder>();

  /** `msOf(s)`: slot s's creation time now; `idOf(s)`: its id. */
  constructor(
    private readonly msOf: (s: number) => number,
    private readonly idOf: (s: number) => string,
  ) {}

  /** Makes every company's order from its slots in creation order (start-up), dropping what was there. */
  build(companies: Iterable<[number, ArrayLike<number>]>, createdMs: (slots: Int32Array, out: Float64Array) => void): void {
    this.byCompany.clear();
    for (const [company, list] of companies) {
      // The slots in a resizable buffer too, as add() grows them: Int32Array.from's block of the C heap stayed there for good.
      const slots = grown(new Int32Array(0), list.length);
      slots.set(list);
      // The times only to sort by, then dropped: in a resizable buffer, which the system
      // maps and unmaps, not a block of the C heap of several MiB (docs/storage.md).
      const ms = grown(new Float64Array(0), slots.length);
      createdMs(slots, ms);
      this.byCompany.set(company, new CompanyOrder(slots, slots.length, this.msOf, ms));
    }
  }

  has(company: number): boolean {
    return this.byCompany.has(company);
  }

  /** The company's deliveries newest first (by time, then id) from `from` on (inclusive). */
  *newestFirst(company: number, from?: { ms: number; id: string }): Generator<TimedSlot> {
    const o = this.byCompany.get(company);
    if (!o) return;
    o.settle();
    yield* walk(o, this.idOf, from);
  }

  /** A new delivery of `company`. */
  add(company: number, s: number): void {
    let o = this.byCompany.get(company);
    if (!o) {
      o = new CompanyOrder(new Int32Array(16), 0, this.msOf);
      this.byCompany.set(company, o);
    }
    o.add(s, this.msOf(s));
  }

  /** Slot `s` was of `company` with time `ms` and is now of `nowCompany` (its time read now): moves it if either changed. */
  changed(s: number, company: number, ms: number, nowCompany: number): void {
    const nowMs = this.msOf(s);
    if (company === nowCompany && ms === nowMs) return;
    const from = this.byCompany.get(company);
    if (from && !from.remove(s, ms)) from.removeMany(new Set([s]));
    if (from && from.size === 0) this.byCompany.delete(company);
    this.add(nowCompany, s);
  }

  /** Removes slots (retention): one pass over each order. */
  removeMany(slots: readonly number[], companyOf: (s: number) => number): void {
    const gone = new Set(slots);
    const companies = new Set<number>();
    for (const s of slots) companies.add(companyOf(s));
    for (const c of companies) {
      const o = this.byCompany.get(c);
      if (!o) continue;
      o.removeMany(gone);
      // Its interned number may be reused once its last delivery is gone.
      if (o.size === 0) this.byCompany.delete(c);
    }
  }
}

/** Sorts the first n entries by time (stable): finds the ascending runs, then merges neighbouring runs until one is left. */
function sortRuns(slots: Int32Array, ms: Float64Array, n: number): void {
  let bounds = [0];
  for (let i = 1; i < n; i++) if (ms[i] < ms[i - 1]) bounds.push(i);
  bounds.push(n);
  if (bounds.length <= 2) return;
  let aS: Int32Array = slots.subarray(0, n);
  let aM: Float64Array = ms.subarray(0, n);
  let bS: Int32Array = new Int32Array(n);
  let bM: Float64Array = new Float64Array(n);
  while (bounds.length > 2) {
    const next = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r];
      const mid = bounds[r + 1];
      const hi = r + 2 < bounds.length ? bounds[r + 2] : mid;
      mergeRuns(aS, aM, bS, bM, lo, mid, hi);
      next.push(hi);
    }
    bounds = next;
    [aS, bS] = [bS, aS];
    [aM, bM] = [bM, aM];
  }
  if (aS.buffer !== slots.buffer) {
    slots.set(aS);
    ms.set(aM);
  }
}

/** Merges [lo, mid) and [mid, hi) of a into b (the left one first on equal times). */
function mergeRuns(aS: Int32Array, aM: Float64Array, bS: Int32Array, bM: Float64Array, lo: number, mid: number, hi: number): void {
  let i = lo;
  let j = mid;
  for (let w = lo; w < hi; w++) {
    if (j >= hi || (i < mid && aM[i] <= aM[j])) {
      bS[w] = aS[i];
      bM[w] = aM[i++];
    } else {
      bS[w] = aS[j];
      bM[w] = aM[j++];
    }
  }
}
