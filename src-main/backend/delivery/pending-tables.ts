// The engine's window on the stored schedule: store.data.pending_deliveries and
// store.data.pending_events. The domain appends rows (and may replace the arrays,
// e.g. when a subscription is deleted); the engine removes finished ones. At thousands
// of deliveries a second neither side may cost O(all rows) per delivery, so new rows
// are found by scanning only what was appended since the last look, and finished rows
// are removed in batches, in place, one pass per batch.
import type { Store } from '../store/store.js';
import type { PendingDelivery, PendingEvent } from '../store/schema.js';

export class PendingTables {
  private deliveriesSeen: PendingDelivery[] | null = null;
  private deliveriesScanned = 0;
  private eventsSeen: PendingEvent[] | null = null;
  private eventsScanned = 0;
  private readonly events = new Map<string, PendingEvent>();
  private readonly finished = new Set<PendingDelivery>();
  private readonly eventsMaybeDone = new Set<string>();

  constructor(private readonly store: Store) {}

  /**
   * Calls `visit` for each delivery row appended since the last call; for every row
   * when the array was replaced or shrank behind our back (the caller skips the ones
   * it knows).
   */
  scanDeliveries(visit: (row: PendingDelivery) => void): void {
    const arr = this.store.data.pending_deliveries;
    let from = this.deliveriesScanned;
    if (arr !== this.deliveriesSeen || arr.length < from) {
      this.deliveriesSeen = arr;
      from = 0;
    }
    for (let i = from; i < arr.length; i++) visit(arr[i]);
    this.deliveriesScanned = arr.length;
  }

  /** The pending event (with its exact body), if it is still in the store. */
  event(id: string): PendingEvent | undefined {
    let ev = this.events.get(id);
    if (ev) return ev;
    const arr = this.store.data.pending_events;
    let from = this.eventsScanned;
    if (arr !== this.eventsSeen || arr.length < from) {
      this.eventsSeen = arr;
      this.events.clear();
      from = 0;
    }
    for (let i = from; i < arr.length; i++) this.events.set(arr[i].id, arr[i]);
    this.eventsScanned = arr.length;
    ev = this.events.get(id);
    return ev;
  }

  /** Marks a row for removal at the next compact(); its event goes too once no row needs it. */
  finish(row: PendingDelivery): void {
    this.finished.add(row);
    this.eventsMaybeDone.add(row.event_id);
  }

  get hasWork(): boolean {
    return this.finished.size > 0;
  }

  /** True when finished rows are at least a quarter of the schedule, so a compact() pass is cheap per row removed. */
  worthCompacting(): boolean {
    return this.finished.size > 0 && this.finished.size * 4 >= this.store.data.pending_deliveries.length;
  }

  /** Removes finished rows and events no longer needed, in place; one pass over each array. */
  compact(): void {
    if (this.finished.size === 0) return;
    const rows = this.store.data.pending_deliveries;
    const tracking = rows === this.deliveriesSeen;
    let w = 0;
    let scanned = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      if (this.finished.has(row)) {
        this.store.drop('pending_deliveries', row.id);
        continue;
      }
      if (this.eventsMaybeDone.size > 0) this.eventsMaybeDone.delete(row.event_id);
      if (tracking && i < this.deliveriesScanned) scanned++;
      rows[w++] = row;
    }
    rows.length = w;
    if (tracking) this.deliveriesScanned = scanned;
    this.finished.clear();
    if (this.eventsMaybeDone.size > 0) this.removeEvents(this.eventsMaybeDone);
    this.eventsMaybeDone.clear();
  }

  /** Forgets everything seen (the store replaced its data wholesale). */
  reset(): void {
    this.deliveriesSeen = null;
    this.deliveriesScanned = 0;
    this.eventsSeen = null;
    this.eventsScanned = 0;
    this.events.clear();
    this.finished.clear();
    this.eventsMaybeDone.clear();
  }

  /** Drops events that no pending delivery refers to (left behind by a crash or an older version). */
  dropOrphanEvents(): void {
    const needed = new Set(this.store.data.pending_deliveries.map((d) => d.event_id));
    const orphans = new Set(this.store.data.pending_events.filter((e) => !needed.has(e.id)).map((e) => e.id));
    if (orphans.size > 0) this.removeEvents(orphans);
  }

  private removeEvents(ids: Set<string>): void {
    const evs = this.store.data.pending_events;
    const tracking = evs === this.eventsSeen;
    let w = 0;
    let scanned = 0;
    for (let i = 0; i < evs.length; i++) {
      const ev = evs[i];
      if (ids.has(ev.id)) {
        this.events.delete(ev.id);
        this.store.drop('pending_events', ev.id);
        continue;
      }
      if (tracking && i < this.eventsScanned) scanned++;
      evs[w++] = ev;
    }
    evs.length = w;
    if (tracking) this.eventsScanned = scanned;
  }
}
