// The outbox: the one writer of what is still to be delivered (the store's pending
// events, the deliveries owed) and of every delivery's summary in the history log.
// An event and one delivery per target are added in the same synchronous step as the
// change that caused them, so the caller's single commit makes all of it durable before
// the API answers; the engine (the listener) is handed each delivery only once a commit
// has made it durable, so nothing is ever sent that a crash could forget.
//
// One source of truth for a delivery (what it is, its progress, whether it is still
// owed): its summary in the history log, which every store write flushes too. The store
// holds the event (with its exact body) in `pending_events`, journalled with the change
// that caused it, as long as one of its deliveries is owed. So what is owed after a
// restart is every delivery the log says is pending whose event is stored (pending-set.ts
// keeps them in memory): a delivery writes nothing to the store's journal of its own,
// neither when it is made nor when it ends; one event is one journal record, whatever
// its fan-out, and leaves the store with its last delivery. (Rows of `pending_deliveries`,
// written by versions before this one, are still owed until they end.)
import { isoTime, type Clock } from '../clock.js';
import { ApiError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Store } from '../store/store.js';
import type { DeepReadonly } from '../store/table.js';
import type { PendingDelivery, PendingEvent, SubscriptionRecord } from '../store/schema.js';
import type { DeliverySummary, HistoryLog } from '../store/history-types.js';
import { logAttempt, type EndedAttempt } from './attempt-log.js';
import { recordCheck, type CheckRecord } from './check-record.js';
import { owedAtStart, rowOf, type PendingRow, type PendingSet, type RowKey } from './pending-set.js';
import type { EventType } from '@shared/api-types.js';

/** A delivery to attempt from `dueAt`, `attempts` made so far. */
export interface OutboxWork {
  row: DeepReadonly<PendingDelivery>;
  attempts: number;
  dueAt: number;
}

/** What the outbox tells the delivery engine. */
export interface OutboxListener {
  /** Deliveries a commit has just made durable: new ones, or finished ones put back by a redelivery. */
  added(work: OutboxWork[]): void;
  /** A delivery whose row was already stored is to be attempted again at once (a redelivery). */
  again(work: OutboxWork): void;
  /** A subscription's pending deliveries were cancelled (deleted) or skipped (disabled), durably. */
  cancelled(subscriptionId: string): void;
}

export interface NewEvent {
  company_id: string;
  type: EventType;
  document_id: string | null;
  data: Record<string, unknown>;
  /** webhook.test: the one subscription it is sent to. */
  subscription_id?: string;
}

/** What enqueue() added. */
export interface Enqueued {
  event_id: string;
  deliveries: DeepReadonly<PendingDelivery>[];
}

export interface OutboxDeps {
  store: Store;
  history: HistoryLog;
  clock: Clock;
}

/** The error a delivery is ended with when the change that made it was never saved (outbox.stored()). */
export const NOT_SAVED = 'Never sent: the service stopped before the change that made this delivery was saved.';

export class Outbox {
  private listener: OutboxListener | null = null;
  /** The deliveries owed; built from the store and the log when first needed (and again after the store reloaded). */
  private owed: PendingSet | null = null;

  constructor(private readonly deps: OutboxDeps) {
    deps.store.onReload(() => (this.owed = null));
  }

  /** How many deliveries are owed. */
  get size(): number {
    return this.pending().size;
  }

  /** The engine; told of new work after each commit. */
  listen(listener: OutboxListener): void {
    this.listener = listener;
  }

  /**
   * Adds an event (recorded in the history log whatever its targets) and one pending
   * delivery per target. The caller commits; the engine hears of the deliveries once that is durable.
   */
  enqueue(
    event: NewEvent,
    targets: readonly DeepReadonly<SubscriptionRecord>[],
    skipped: readonly DeepReadonly<SubscriptionRecord>[] = [],
  ): Enqueued {
    const { store, history, clock } = this.deps;
    const owed = this.pending(); // built (if it must be) before this event is in the store and the log
    const id = newId('evt');
    const now = clock.now();
    const timestamp = isoTime(now);
    const body = JSON.stringify({ id, type: event.type, timestamp, data: event.data });
    const { company_id, type, document_id } = event;
    history.recordEvent({ id, company_id, type, timestamp, document_id, subscription_id: event.subscription_id ?? null }, body);
    // Disabled subscriptions: a delivery kept as skipped, never attempted, recoverable (the body stays in the log).
    for (const sub of skipped) {
      const row = {
        id: newId('msg'),
        event_id: id,
        subscription_id: sub.public_id,
        company_id,
        event_type: type,
        document_id,
        created_at: timestamp,
      };
      history.recordDelivery({ ...summaryOf(row, sub.url, 0, now), status: 'skipped', next_attempt_at: null });
    }
    if (targets.length === 0) return { event_id: id, deliveries: [] };
    store.pendingEvents.insert({ id, company_id, type, timestamp, document_id, body });
    const work: OutboxWork[] = [];
    const rows: PendingRow[] = [];
    const urls: string[] = [];
    for (const sub of targets) {
      const row: PendingRow = {
        id: newId('msg'),
        event_id: id,
        subscription_id: sub.public_id,
        company_id,
        event_type: type,
        document_id,
        created_at: timestamp,
      };
      rows.push(row);
      urls.push(sub.url);
      work.push({ row, attempts: 0, dueAt: now });
    }
    // New ids, written from one summary: the deliveries differ in id, subscription and url only.
    history.recordFanout(summaryOf(rows[0], urls[0], 0, now), rows, urls);
    owed.addEvent(id, rows.slice()); // the set ends its rows in its own array; the caller keeps this one
    store.whenDurable(() => this.listener?.added(work));
    return { event_id: id, deliveries: rows };
  }

  /**
   * Sends a delivery again (same webhook-id, attempts continue counting), even when it
   * had succeeded or failed for good. Resolves once the new pending state is durable.
   */
  async redeliver(deliveryId: string): Promise<DeliverySummary> {
    const { store, history, clock } = this.deps;
    const summary = history.getDelivery(deliveryId);
    if (!summary) throw notFound('delivery');
    const sub = store.subscriptions.get(summary.subscription_id);
    if (!sub) throw notFound('subscription');
    let row = this.pending().get(summary);
    const wasStored = row !== undefined;
    if (!row) {
      await this.restoreEvent(summary);
      row = this.pending().get(summary) ?? this.insertRow(summary);
    }
    const current = history.getDelivery(deliveryId) ?? summary;
    const t = clock.now();
    const updated: DeliverySummary = { ...current, url: sub.url, status: 'pending', next_attempt_at: t };
    history.recordDelivery(updated);
    const work: OutboxWork = { row, attempts: current.attempts, dueAt: t };
    // A stored row is durable already (and may be in flight): the engine acts at once.
    if (wasStored) this.listener?.again(work);
    else store.whenDurable(() => this.listener?.added([work]));
    await store.commit();
    return updated;
  }

  /**
   * Ends every pending delivery of a subscription, as `cancelled` (it is being deleted)
   * or `skipped` (it is being disabled: recoverable); the caller commits.
   */
  cancelFor(subscriptionId: string, as: 'cancelled' | 'skipped' = 'cancelled'): string[] {
    const rows = [...this.pending().values()].filter((d) => d.subscription_id === subscriptionId);
    for (const row of rows) {
      this.finish(row);
      this.markEnded(row.id, as);
    }
    this.deps.store.whenDurable(() => this.listener?.cancelled(subscriptionId));
    return rows.map((r) => r.id);
  }

  /**
   * Every delivery owed, with its progress, for the engine's start (and after the store
   * reloaded). Stored rows of an older version the log says ended, and events no
   * delivery needs (left behind by a crash or an older version), leave the store now;
   * deliveries whose change was never saved are logged as cancelled, saying so.
   */
  stored(): OutboxWork[] {
    const { store, history, clock } = this.deps;
    const now = clock.now();
    const work: OutboxWork[] = [];
    const unsaved: DeliverySummary[] = [];
    const owed = (this.owed = owedAtStart(store, history, unsaved, (row, logged) =>
      work.push({ row, attempts: logged?.attempts ?? 0, dueAt: logged?.next_attempt_at ?? now }),
    ));
    for (const v of unsaved) history.recordDelivery({ ...v, status: 'cancelled', next_attempt_at: null, last_error: NOT_SAVED });
    const ended = store.pendingDeliveries.filter((row) => !owed.has(row));
    for (const row of ended) store.pendingDeliveries.remove(row.id);
    const orphans = store.pendingEvents.filter((e) => !owed.hasEvent(e.id));
    for (const e of orphans) store.pendingEvents.remove(e.id);
    if (ended.length > 0 || orphans.length > 0 || unsaved.length > 0) store.commitLater();
    return work;
  }

  /** Whether a delivery is owed: its row (or id and event id), or its id alone (looked up in the log: rare callers). */
  has(delivery: string | RowKey): boolean {
    if (typeof delivery !== 'string') return this.pending().has(delivery);
    const logged = this.deps.history.getDelivery(delivery);
    return (logged ? this.pending().get(logged) : this.pending().find(delivery)) !== undefined;
  }

  /** The pending event (with its exact body), if it is still in the store. */
  event(eventId: string): DeepReadonly<PendingEvent> | undefined {
    return this.deps.store.pendingEvents.get(eventId);
  }

  /** An event's body from the history log (once it left the store). */
  loggedBody(eventId: string): Promise<string | undefined> {
    return this.deps.history.getEventBody(eventId);
  }

  /** Records one request of a conformance check as a delivery tagged "check" (check-record.ts). */
  recordCheck(c: CheckRecord): void {
    recordCheck(this.deps.history, c);
  }

  /** Logs an ended attempt: the attempt itself and the delivery's new summary. */
  logAttempt(ended: EndedAttempt): void {
    logAttempt(this.deps.history, ended);
  }

  /** The delivery is over: it is no longer owed, and its event leaves the store with its last delivery. */
  finish(row: DeepReadonly<PendingDelivery>): void {
    const { store } = this.deps;
    const left = this.pending().remove(row);
    if (left === 'absent') return;
    if (store.pendingDeliveries.size > 0) store.pendingDeliveries.remove(row.id); // an older version's row
    if (left === 'last') store.pendingEvents.remove(row.event_id);
  }

  /** Records a delivery as cancelled (or skipped) in the history log (once). */
  markEnded(deliveryId: string, as: 'cancelled' | 'skipped' = 'cancelled'): void {
    const summary = this.deps.history.getDelivery(deliveryId);
    if (summary && summary.status !== as) this.deps.history.recordDelivery({ ...summary, status: as, next_attempt_at: null });
  }

  private pending(): PendingSet {
    return (this.owed ??= owedAtStart(this.deps.store, this.deps.history));
  }

  /** Puts a delivery's event back in the store from the history log, if it left it. */
  private async restoreEvent(summary: DeliverySummary): Promise<void> {
    const { store, history } = this.deps;
    if (store.pendingEvents.has(summary.event_id)) return;
    const body = await history.getEventBody(summary.event_id);
    if (body === undefined) throw new ApiError('not_found', 'The event of this delivery is no longer kept, so it cannot be sent again.');
    if (store.pendingEvents.has(summary.event_id)) return; // restored meanwhile
    store.pendingEvents.insert({
      id: summary.event_id,
      company_id: summary.company_id,
      type: summary.event_type,
      timestamp: history.getEvent(summary.event_id)?.timestamp ?? summary.created_at,
      document_id: summary.document_id,
      body,
    });
  }

  private insertRow(summary: DeliverySummary): PendingRow {
    const row = rowOf(summary);
    this.pending().add(row);
    return row;
  }
}

/** A new delivery's first summary. */
function summaryOf(row: DeepReadonly<PendingDelivery> | PendingDelivery, url: string, attempts: number, nextAt: number): DeliverySummary {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    subscription_id: row.subscription_id,
    company_id: row.company_id,
    document_id: row.document_id,
    url,
    status: 'pending',
    attempts,
    created_at: row.created_at,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    last_duration_ms: null,
    next_attempt_at: nextAt,
  };
}
