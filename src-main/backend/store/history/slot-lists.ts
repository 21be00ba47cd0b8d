// Lists of record numbers by key (a subscription's deliveries, a document's events…),
// each in ascending sequence order for paging. Keys are interned numbers (small,
// reused), so the lists are an array indexed by key. A list is held in the smallest
// form for its length:
//   - one record: the number itself (most events have one delivery in a one-subscription setup);
//   - records numbered one after the other (an event's fan-out: its deliveries take
//     consecutive slots, or consecutive downwards when they reuse slots retention freed),
//     up to RUN_FROM of them: a range, the first number, a step of 1 or -1 and a count;
//   - up to RUN_FROM records: a plain array (8 bytes an entry, no per-list buffer);
//   - longer (a company's, a subscription's, a document's deliveries): a run, the numbers
//     in an Int32Array (4 bytes an entry) whose resizable buffer takes memory page by
//     page as the list grows (columns.ts grown()), outside the JavaScript heap, so the
//     garbage collector neither copies nor marks it.
// A run that shrinks below a quarter of its room (retention) moves into a buffer of its
// size, and back into an array below RUN_FROM / 2, so what is removed is given back.
import { grown, nextCapacity } from './columns.js';

/** Length from which a list is a run: 4 KiB of Int32, one page of memory. */
export const RUN_FROM = 1024;
/** Entries a run's buffer reserves (address space only) before it has to move. */
const RUN_RESERVE = 1 << 16;

/** A long list: its first `n` entries of `a`. */
class Run {
  constructor(
    public a: Int32Array,
    public n: number,
  ) {}

  get view(): Int32Array {
    return this.a.subarray(0, this.n);
  }

  /** Room for one more entry. */
  room(): void {
    if (this.n === this.a.length) this.a = grown(this.a, nextCapacity(this.n), RUN_RESERVE);
  }
}

/** Records first, first + step, … (count of them, 2 <= count < RUN_FROM). */
class Range {
  constructor(
    readonly first: number,
    readonly step: 1 | -1,
    public count: number,
  ) {}

  /** The records as an array (the forms below take over from a range once it is not one). */
  get list(): number[] {
    return Array.from({ length: this.count }, (_, k) => this.first + k * this.step);
  }

  /** Whether n continues the range. */
  next(n: number): boolean {
    return n === this.first + this.count * this.step;
  }
}

type List = number | Range | number[] | Run | undefined;

function runOf(list: ArrayLike<number>): Run {
  const a = grown(new Int32Array(0), Math.max(RUN_FROM, list.length), RUN_RESERVE);
  a.set(list);
  return new Run(a, list.length);
}

export class SlotLists {
  private lists: List[] = [];

  /** `seqOf(n)`: record n's sequence number, the lists' order. */
  constructor(private readonly seqOf: (n: number) => number) {}

  /** The key's records, ascending (a fresh one-element array for a single record; a view of a run, valid until the next change). */
  get(key: number): ArrayLike<number> | undefined {
    const l = this.lists[key];
    return typeof l === 'number' ? [l] : l instanceof Run ? l.view : l instanceof Range ? l.list : l;
  }

  /** Adds a record whose sequence number is the highest of its key's. */
  push(key: number, n: number): void {
    const l = this.lists[key];
    if (l === undefined) this.lists[key] = n;
    else if (typeof l === 'number') this.lists[key] = n === l + 1 || n === l - 1 ? new Range(l, n > l ? 1 : -1, 2) : [l, n];
    else if (l instanceof Range) {
      if (!l.next(n)) this.lists[key] = [...l.list, n];
      else if (++l.count === RUN_FROM) this.lists[key] = runOf(l.list);
    } else if (l instanceof Run) {
      l.room();
      l.a[l.n++] = n;
    } else if (l.push(n) >= RUN_FROM) this.lists[key] = runOf(l);
  }

  /** Adds a record at its place in sequence order. */
  insert(key: number, n: number): void {
    const l = this.plain(key);
    if (l === undefined) {
      this.lists[key] = n;
      return;
    }
    if (l instanceof Run) {
      l.room();
      const i = lowerBound(l.view, this.seqOf(n), this.seqOf);
      l.a.copyWithin(i + 1, i, l.n);
      l.a[i] = n;
      l.n++;
      return;
    }
    const list = typeof l === 'number' ? [l] : l;
    list.splice(lowerBound(list, this.seqOf(n), this.seqOf), 0, n);
    this.lists[key] = list.length >= RUN_FROM ? runOf(list) : list;
  }

  remove(key: number, n: number): void {
    const l = this.plain(key);
    if (l === undefined) return;
    if (typeof l === 'number') {
      if (l === n) this.lists[key] = undefined;
      return;
    }
    const list = l instanceof Run ? l.view : l;
    const seq = this.seqOf(n);
    for (let j = lowerBound(list, seq, this.seqOf); j < list.length && this.seqOf(list[j]) === seq; j++) {
      if (list[j] !== n) continue;
      if (l instanceof Run) {
        l.a.copyWithin(j, j + 1, l.n);
        l.n--;
      } else l.splice(j, 1);
      break;
    }
    this.settle(key);
  }

  /** Removes many records at once: one pass over each list touched. */
  removeMany(keys: ReadonlySet<number>, gone: ReadonlySet<number>): void {
    for (const key of keys) {
      const l = this.plain(key);
      if (l === undefined) continue;
      if (typeof l === 'number') this.lists[key] = gone.has(l) ? undefined : l;
      else if (l instanceof Run) {
        let w = 0;
        for (let i = 0; i < l.n; i++) if (!gone.has(l.a[i])) l.a[w++] = l.a[i];
        l.n = w;
      } else this.lists[key] = l.filter((n) => !gone.has(n));
      this.settle(key);
    }
  }

  /** Every key with its records, ascending. */
  *entries(): Generator<[number, ArrayLike<number>]> {
    for (let key = 0; key < this.lists.length; key++) {
      const l = this.get(key);
      if (l) yield [key, l];
    }
  }

  clear(): void {
    this.lists = [];
  }

  /** The form the key's list is held in (for tests and diagnostics). */
  form(key: number): 'one' | 'range' | 'array' | 'run' | undefined {
    const l = this.lists[key];
    if (l === undefined) return undefined;
    return typeof l === 'number' ? 'one' : l instanceof Range ? 'range' : l instanceof Run ? 'run' : 'array';
  }

  /** Bytes the runs hold outside the JavaScript heap (their buffers' committed length). */
  get runBytes(): number {
    let sum = 0;
    for (const l of this.lists) if (l instanceof Run) sum += l.a.byteLength;
    return sum;
  }

  /** The key's list with a range made an array (the other forms are changed in place). */
  private plain(key: number): Exclude<List, Range> {
    const l = this.lists[key];
    return l instanceof Range ? (this.lists[key] = l.list) : l;
  }

  /** A list after removals, in the smallest form for its length. */
  private settle(key: number): void {
    const l = this.plain(key);
    if (typeof l === 'number' || l === undefined) return;
    const n = l instanceof Run ? l.n : l.length;
    if (n <= 1) this.lists[key] = n === 1 ? (l instanceof Run ? l.a[0] : l[0]) : undefined;
    else if (!(l instanceof Run)) return;
    else if (n < RUN_FROM / 2) this.lists[key] = Array.from(l.view);
    else if (n < l.a.length / 4) this.lists[key] = runOf(l.view);
  }
}

/** First index of `list` whose sequence number is >= seq. */
export function lowerBound(list: ArrayLike<number>, seq: number, seqOf: (n: number) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (seqOf(list[mid]) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
