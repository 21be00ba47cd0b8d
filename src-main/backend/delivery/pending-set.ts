// The deliveries still owed, in memory: the outbox's working set (outbox.ts says what
// makes each durable). Grouped by event: one entry per event holding its owed rows in
// the order they were added (a fan-out's, in one array), so that the event's stored
// body can leave the store with its last delivery. One map entry per fan-out rather
// than per delivery: a map entry set and deleted per delivery cost ~0.7 µs and, while a
// burst of 10,000 deliveries waits, its hash table's growth and shrinking was garbage
// that outlived the young generation (docs/benchmark.md, figure 3).
import type { DeepReadonly } from '../store/table.js';
import type { PendingDelivery } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { DeliverySummary, HistoryLog } from '../store/history-types.js';

export type PendingRow = DeepReadonly<PendingDelivery>;

/** What finds a row: its id and its event's. */
export interface RowKey {
  readonly id: string;
  readonly event_id: string;
}

/** One event's owed rows: ended ones set to null; `first` is the first that may not be. */
interface EventRows {
  rows: (PendingRow | null)[];
  left: number;
  first: number;
}

export class PendingSet {
  private readonly events = new Map<string, EventRows>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(key: RowKey): boolean {
    return this.get(key) !== undefined;
  }

  get(key: RowKey): PendingRow | undefined {
    const group = this.events.get(key.event_id);
    if (group === undefined) return undefined;
    const i = indexIn(group, key);
    return i < 0 ? undefined : (group.rows[i] as PendingRow);
  }

  /** A row by its id alone: a look through every event (rare callers; those with the event's id use get). */
  find(id: string): PendingRow | undefined {
    for (const group of this.events.values()) for (const row of group.rows) if (row !== null && row.id === id) return row;
    return undefined;
  }

  *values(): IterableIterator<PendingRow> {
    for (const group of this.events.values()) for (const row of group.rows) if (row !== null) yield row;
  }

  /** Whether any delivery of this event is owed. */
  hasEvent(eventId: string): boolean {
    return this.events.has(eventId);
  }

  /** Adds a row (its id must be new here). */
  add(row: PendingRow): void {
    const group = this.events.get(row.event_id);
    if (group === undefined) this.events.set(row.event_id, { rows: [row], left: 1, first: 0 });
    else {
      group.rows.push(row);
      group.left++;
    }
    this.count++;
  }

  /** Adds one event's new rows (the array becomes the set's: ended rows are set to null in it): one entry for the lot (a fan-out). */
  addEvent(eventId: string, rows: PendingRow[]): void {
    const group = this.events.get(eventId);
    if (group === undefined) this.events.set(eventId, { rows, left: rows.length, first: 0 });
    else for (const row of rows) this.add(row);
    if (group === undefined) this.count += rows.length;
  }

  /** Removes a row: 'absent' (not owed), 'kept' (its event has others) or 'last' (the event's last one). */
  remove(key: RowKey): 'absent' | 'kept' | 'last' {
    const group = this.events.get(key.event_id);
    const i = group === undefined ? -1 : indexIn(group, key);
    if (group === undefined || i < 0) return 'absent';
    group.rows[i] = null;
    this.count--;
    if (--group.left > 0) {
      while (group.rows[group.first] === null) group.first++;
      return 'kept';
    }
    this.events.delete(key.event_id);
    return 'last';
  }
}

/**
 * Where `key` is in its event's rows, or -1: the same object first (what the engine
 * hands back is the row it was given; deliveries end roughly in fan-out order, so from
 * `first` it is usually the first look), else the same id.
 */
function indexIn(group: EventRows, key: RowKey): number {
  const { rows } = group;
  for (let i = group.first; i < rows.length; i++) if (rows[i] === key) return i;
  for (let i = group.first; i < rows.length; i++) if (rows[i]?.id === key.id) return i;
  return -1;
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
  const older = owed.size > 0; // only then may a summary's row be owed already
  for (const v of history.pendingDeliveries()) {
    if (v.imported || v.origin === 'check' || (older && owed.has(v))) continue;
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
