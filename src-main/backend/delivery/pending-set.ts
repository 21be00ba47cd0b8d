// The deliveries still owed, in memory: the outbox's working set (outbox.ts says what
// makes each durable). One row per delivery, by id, and how many are owed per event, so
// that the event's stored body can leave the store with its last delivery.
import type { DeepReadonly } from '../store/table.js';
import type { PendingDelivery } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { DeliverySummary, HistoryLog } from '../store/history-types.js';

export type PendingRow = DeepReadonly<PendingDelivery>;

export class PendingSet {
  private readonly rows = new Map<string, PendingRow>();
  private readonly perEvent = new Map<string, number>();

  get size(): number {
    return this.rows.size;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  get(id: string): PendingRow | undefined {
    return this.rows.get(id);
  }

  values(): IterableIterator<PendingRow> {
    return this.rows.values();
  }

  /** Whether any delivery of this event is owed. */
  hasEvent(eventId: string): boolean {
    return this.perEvent.has(eventId);
  }

  /** Adds a row (its id must be new here). */
  add(row: PendingRow): void {
    this.rows.set(row.id, row);
    this.perEvent.set(row.event_id, (this.perEvent.get(row.event_id) ?? 0) + 1);
  }

  /** Adds one event's new rows: one count for the lot (a fan-out). */
  addEvent(eventId: string, rows: readonly PendingRow[]): void {
    for (const row of rows) this.rows.set(row.id, row);
    this.perEvent.set(eventId, (this.perEvent.get(eventId) ?? 0) + rows.length);
  }

  /** Removes a row: 'absent' (not owed), 'kept' (its event has others) or 'last' (the event's last one). */
  remove(row: PendingRow): 'absent' | 'kept' | 'last' {
    if (!this.rows.delete(row.id)) return 'absent';
    const n = (this.perEvent.get(row.event_id) ?? 1) - 1;
    if (n > 0) {
      this.perEvent.set(row.event_id, n);
      return 'kept';
    }
    this.perEvent.delete(row.event_id);
    return 'last';
  }
}

/**
 * What is owed, from what is durable: each delivery the log says is pending whose event
 * is stored (a record or a check's request never is), and each stored row of an older
 * version the log does not say ended. `unsaved` gets the deliveries the log says are
 * pending whose event is not stored: the change that made them never reached the journal
 * (the process stopped before its commit), so nothing owes them.
 */
export function owedAtStart(
  store: Store,
  history: HistoryLog,
  unsaved: DeliverySummary[] = [],
  /** Told of each owed row with its summary (none: an older version's row the log does not know). */
  onOwed?: (row: PendingRow, logged: DeliverySummary | undefined) => void,
): PendingSet {
  const owed = new PendingSet();
  const add = (row: PendingRow, logged: DeliverySummary | undefined) => {
    owed.add(row);
    onOwed?.(row, logged);
  };
  for (const row of store.pendingDeliveries.values()) {
    const logged = history.getDelivery(row.id);
    if (logged === undefined || logged.status === 'pending') add(row, logged);
  }
  for (const v of history.pendingDeliveries()) {
    if (v.imported || v.origin === 'check' || owed.has(v.id)) continue;
    if (store.pendingEvents.has(v.event_id)) add(rowOf(v), v);
    else unsaved.push(v);
  }
  return owed;
}

/** The part of a summary that says what to send. */
export function rowOf(v: DeliverySummary): PendingRow {
  return {
    id: v.id,
    event_id: v.event_id,
    subscription_id: v.subscription_id,
    company_id: v.company_id,
    event_type: v.event_type,
    document_id: v.document_id,
    created_at: v.created_at,
  };
}
