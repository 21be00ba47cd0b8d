// Walking a company's order by time (time-order.ts) newest first. The order holds slots
// ascending by time, equal times in no particular order; the walk puts each group of
// equal times in id order (descending) as it reaches it, reading ids for that group
// only, and finds a cursor (time, then id) by binary search. The last group put in id
// order is kept until the order changes, so paging through a large group (imported
// deliveries with one time, or none readable) sorts it once, not once a page.

/** A delivery met by a walk: its slot and creation time. */
export interface TimedSlot {
  s: number;
  ms: number;
}

/** A group of equal times in id order, descending: the order's entries [lo, hi) at one version. */
export interface SortedGroup {
  version: number;
  lo: number;
  hi: number;
  slots: Int32Array;
  ids: string[];
}

/** What a walk reads: the order (slots[0..n) ascending by time, entry i's time msAt(i)) and its kept group. */
export interface WalkSource {
  slots: Int32Array;
  msAt: (i: number) => number;
  n: number;
  version: number;
  group: SortedGroup | null;
}

/** Newest first from `from` (inclusive: the first at or before it), equal times in id order, descending. */
export function* walk(o: WalkSource, idOf: (s: number) => string, from?: { ms: number; id: string }): Generator<TimedSlot> {
  const { slots, msAt } = o;
  let hi = from ? firstAfter(msAt, o.n, from.ms) : o.n;
  while (hi > 0) {
    const m = msAt(hi - 1);
    let lo = hi - 1;
    while (lo > 0 && msAt(lo - 1) === m) lo--;
    const cut = from && m === from.ms ? from.id : null;
    if (hi - lo === 1) {
      if (cut === null || idOf(slots[lo]) <= cut) yield { s: slots[lo], ms: m };
    } else {
      const g = sortedGroup(o, lo, hi, idOf);
      for (let k = cut === null ? 0 : firstAtOrBelow(g.ids, cut); k < g.ids.length; k++) yield { s: g.slots[k], ms: m };
    }
    hi = lo;
  }
}

/** Entries [lo, hi) in id order, descending: the kept group if it is the same, else sorted now and kept. */
function sortedGroup(o: WalkSource, lo: number, hi: number, idOf: (s: number) => string): SortedGroup {
  const kept = o.group;
  if (kept && kept.version === o.version && kept.lo === lo && kept.hi === hi) return kept;
  const entries = Array.from(o.slots.subarray(lo, hi), (s) => ({ s, id: idOf(s) }));
  entries.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const group = { version: o.version, lo, hi, slots: Int32Array.from(entries, (e) => e.s), ids: entries.map((e) => e.id) };
  o.group = group;
  return group;
}

/** First index of `ids` (descending) whose id is <= cut. */
function firstAtOrBelow(ids: string[], cut: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] > cut) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index below n whose time (`msAt`) is > t (with `orEqual`, >= t). */
export function firstAfter(msAt: (i: number) => number, n: number, t: number, orEqual = false): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = msAt(mid);
    if (m < t || (!orEqual && m === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
