// The company's deliveries ordered by creation time. The history log lists them in the
// order it recorded them, which is creation order for the engine's own deliveries but
// not for imported ones (recorded now, created long ago): ordering by time makes an
// imported bug report sit where it happened instead of above today's deliveries.
// Kept in memory (an id and a number per delivery) and brought up to date at each use
// by reading only what the log recorded since the last use (it lists newest first, so
// the walk stops at the newest delivery already known).
import type { HistoryLog } from '../../store/history-types.js';

export interface TimeEntry {
  ms: number;
  id: string;
}

/** Ascending by time, then id. */
export function byTime(a: TimeEntry, b: TimeEntry): number {
  return a.ms - b.ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

interface CompanyIndex {
  list: TimeEntry[];
  /** The newest delivery (in the log's order) already in `list`. */
  top: string | null;
  /** Entries found gone (retention) since the last prune. */
  misses: number;
}

export class DeliveryTimeIndex {
  private readonly companies = new Map<string, CompanyIndex>();

  constructor(private readonly history: HistoryLog) {}

  /** Every delivery of the company, oldest first (some may since have been dropped by retention). */
  entries(companyId: string): readonly TimeEntry[] {
    let ix = this.companies.get(companyId);
    // The known top is gone: retention dropped everything it knew. Start again.
    if (!ix || (ix.top !== null && !this.history.getDelivery(ix.top))) {
      ix = { list: [], top: null, misses: 0 };
      this.companies.set(companyId, ix);
    }
    // Only what is new since the last use: times and ids straight from the log's index.
    const fresh: TimeEntry[] = this.history.deliveryTimes(companyId, ix.top);
    const newTop = fresh.length > 0 ? fresh[0].id : null;
    if (fresh.length > 0) {
      fresh.sort(byTime);
      const last = ix.list[ix.list.length - 1];
      // One at a time: a spread of a long history (after a start-up) exceeds the call's argument limit.
      for (const e of fresh) ix.list.push(e);
      if (last && byTime(last, fresh[0]) > 0) ix.list.sort(byTime);
      ix.top = newTop;
    }
    return ix.list;
  }

  /** Says an entry was found gone; past a quarter of the list, gone entries are dropped. */
  noteMiss(companyId: string): void {
    const ix = this.companies.get(companyId);
    if (!ix) return;
    if (++ix.misses > Math.max(1000, ix.list.length / 4)) {
      ix.list = ix.list.filter((e) => this.history.getDelivery(e.id) !== undefined);
      ix.misses = 0;
    }
  }
}

/** Index of the first entry at or before `key` (for a newest-first walk from there), or -1. */
export function lastAtOrBefore(list: readonly TimeEntry[], key: TimeEntry): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byTime(list[mid], key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
