// Lists of record numbers by key (a subscription's deliveries, a document's events…),
// each in ascending sequence order for paging. A key with one record holds the number
// itself rather than a list (most events have one delivery in a one-subscription setup).
// Keys are interned numbers (small, reused), so the lists are an array indexed by key.
export class SlotLists {
  private lists: (number | number[] | undefined)[] = [];

  /** `seqOf(n)`: record n's sequence number, the lists' order. */
  constructor(private readonly seqOf: (n: number) => number) {}

  /** The key's records, ascending (a fresh one-element array for a single record). */
  get(key: number): readonly number[] | undefined {
    const l = this.lists[key];
    return typeof l === 'number' ? [l] : l;
  }

  /** Adds a record whose sequence number is the highest of its key's. */
  push(key: number, n: number): void {
    const l = this.lists[key];
    if (l === undefined) this.lists[key] = n;
    else if (typeof l === 'number') this.lists[key] = [l, n];
    else l.push(n);
  }

  /** Adds a record at its place in sequence order. */
  insert(key: number, n: number): void {
    const l = this.lists[key];
    if (l === undefined) {
      this.lists[key] = n;
      return;
    }
    const list = typeof l === 'number' ? [l] : l;
    list.splice(lowerBound(list, this.seqOf(n), this.seqOf), 0, n);
    this.lists[key] = list;
  }

  remove(key: number, n: number): void {
    const l = this.lists[key];
    if (l === undefined) return;
    if (typeof l === 'number') {
      if (l === n) this.lists[key] = undefined;
      return;
    }
    const i = lowerBound(l, this.seqOf(n), this.seqOf);
    for (let j = i; j < l.length && this.seqOf(l[j]) === this.seqOf(n); j++) {
      if (l[j] !== n) continue;
      l.splice(j, 1);
      break;
    }
    if (l.length <= 1) this.lists[key] = l[0];
  }

  /** Removes many records at once: one pass over each list touched. */
  removeMany(keys: ReadonlySet<number>, gone: ReadonlySet<number>): void {
    for (const key of keys) {
      const l = this.lists[key];
      if (l === undefined) continue;
      const kept = typeof l === 'number' ? (gone.has(l) ? [] : [l]) : l.filter((n) => !gone.has(n));
      this.lists[key] = kept.length <= 1 ? kept[0] : kept;
    }
  }

  /** Every key with its records, ascending. */
  *entries(): Generator<[number, readonly number[]]> {
    for (let key = 0; key < this.lists.length; key++) {
      const l = this.get(key);
      if (l) yield [key, l];
    }
  }

  clear(): void {
    this.lists = [];
  }
}

/** First index of `list` whose sequence number is >= seq. */
export function lowerBound(list: readonly number[], seq: number, seqOf: (n: number) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (seqOf(list[mid]) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
