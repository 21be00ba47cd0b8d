// The history log: what happened, kept outside the main store file so that one more
// event never makes every later write bigger. Append-only segments on disk, with a
// small in-memory index; full attempt details (headers, bodies) are read back from
// disk on demand. Finished deliveries beyond the retention cap are dropped oldest first.
import type { Attempt, Delivery, EventType, Page } from '@shared/api-types.js';
import type { Clock } from '../clock.js';

export interface EventSummary {
  id: string;
  company_id: string;
  type: EventType;
  timestamp: string;
  document_id: string | null;
  /** For webhook.test: the one subscription it was sent to. */
  subscription_id: string | null;
  /** Came from an import file: a record only, never sent (receiver/import-records.ts). */
  imported?: true;
  /** Sent by the conformance scorecard (checks/), not by a change to a document. */
  origin?: 'check';
}

/** An attempt as the API shows it (src-shared/api-types.ts), with the next attempt kept as epoch ms. */
export interface AttemptRecord extends Omit<Attempt, 'next_attempt_at'> {
  /** When the next attempt is due (epoch ms), or null if none follows. */
  next_attempt_at: number | null;
}

/** A delivery as the API shows it (src-shared/api-types.ts), with its owner and the next attempt as epoch ms. */
export interface DeliverySummary extends Omit<Delivery, 'next_attempt_at'> {
  company_id: string;
  next_attempt_at: number | null;
  /** Came from an import file: a record only, never sent (receiver/import-records.ts). */
  imported?: true;
  /** Sent by the conformance scorecard (checks/): its subscription_id is the check's id (chk_…). */
  origin?: 'check';
  /** Its last attempt failed to a tunnel URL of this receiver while the tunnel was not online (inspector only). */
  last_tunnel_offline?: true;
}

/**
 * A summary's fields in the order the engine writes them: the compact line format
 * (history/compact.ts) and the index's columns (history/delivery-row.ts) both store a
 * summary as its values in this order, so it is written once, here.
 */
export const SUMMARY_KEYS = [
  'id',
  'event_id',
  'event_type',
  'subscription_id',
  'company_id',
  'document_id',
  'url',
  'status',
  'attempts',
  'created_at',
  'last_attempt_at',
  'last_status_code',
  'last_error',
  'last_duration_ms',
  'next_attempt_at',
] as const satisfies readonly (keyof DeliverySummary)[];

export interface DeliveryFilter {
  company_id: string;
  subscription_id?: string;
  document_id?: string;
  event_id?: string;
}

/** Where the log ended: the segment being appended to and its length (records buffered included). */
export interface HistoryMark {
  segment: number;
  size: number;
}

/** A log written alongside the store that can forget what a failed write appended. */
export interface UndoableLog {
  flush(): Promise<void>;
  /** Resolves once every record appended so far is in its file (written; durable only after flush()). */
  writeOut(): Promise<void>;
  mark(): HistoryMark;
  rollback(mark: HistoryMark): Promise<void>;
}

/** Whom a new delivery goes to: its id and subscription (recordFanout). */
export interface DeliveryTarget {
  readonly id: string;
  readonly subscription_id: string;
}

export interface HistoryLog extends UndoableLog {
  /** Loads the index from disk (creating the folder if needed); resolves with the damage met, in words. */
  open(): Promise<string[]>;
  /** Records an event and its exact body (needed to redeliver after it left the main store). */
  recordEvent(event: EventSummary, body: string): void;
  /** Inserts or replaces a delivery's summary (on creation, after each attempt, when it ends). */
  recordDelivery(delivery: DeliverySummary): void;
  /**
   * recordDelivery of each, in order; new deliveries that differ from the one before only
   * in their id, subscription and url (one event's fan-out) are written from it.
   */
  recordDeliveries(deliveries: readonly DeliverySummary[]): void;
  /**
   * One event's new deliveries (its fan-out): `template` with each target's id and
   * subscription and its url (`urls[i]`) in turn, as recordDeliveries of those summaries
   * would record them, without a summary object each; the ids were just made (ids.ts
   * newId), so none is looked up: each is new.
   */
  recordFanout(template: DeliverySummary, targets: readonly DeliveryTarget[], urls: readonly string[]): void;
  recordAttempt(attempt: AttemptRecord): void;
  /**
   * An ended attempt and the delivery's summary after it: recordAttempt(attempt) then
   * recordDelivery(delivery), in one append and one index update when the delivery is
   * already known (the delivery engine's per-attempt path).
   */
  recordAttempted(attempt: AttemptRecord, delivery: DeliverySummary): void;
  getDelivery(id: string): DeliverySummary | undefined;
  /** Every delivery whose summary says pending (the outbox rebuilds what is owed from them at start). */
  pendingDeliveries(): DeliverySummary[];
  /** Newest first; `starting_after` is a delivery id of the previous page. */
  listDeliveries(filter: DeliveryFilter, page: { limit: number; starting_after?: string }): Page<DeliverySummary>;
  /**
   * The company's deliveries newest first by creation time (epoch ms, 0 if unreadable),
   * then by id (descending), from the first at or before `from` (time, then id), else
   * from the newest: the inspector's order, kept in the index as typed columns
   * (history/time-order.ts), so a page costs only the deliveries it reads. Read it
   * through before the log changes (not across an await).
   */
  deliveriesByTime(companyId: string, from?: { ms: number; id: string }): Iterable<{ d: DeliverySummary; ms: number }>;
  /** Every attempt of a delivery, oldest first, read from disk. */
  getAttempts(deliveryId: string): Promise<AttemptRecord[]>;
  getEvent(id: string): EventSummary | undefined;
  getEventBody(id: string): Promise<string | undefined>;
  /** A document's events, oldest first. */
  eventsForDocument(companyId: string, documentId: string): EventSummary[];
  /** Makes every record appended so far durable (fsync). */
  flush(): Promise<void>;
  /** Forgets every record appended after `mark` (a store write failed), on disk and in memory. */
  rollback(mark: HistoryMark): Promise<void>;
  close(): Promise<void>;
}

/** How a history log is made (history-log.ts createHistoryLog). */
export interface HistoryLogOptions {
  dir: string;
  /** Deliveries kept (history/retention.ts says exactly which). */
  cap: number;
  /** Start a new segment past this size. Default 32 MiB. */
  segmentBytes?: number;
  /** Start a new segment after this many new deliveries. Default cap / 8. */
  segmentDeliveries?: number;
  /** Write buffered records this soon even without flush(). Default 5 ms. */
  writeDelayMs?: number;
  /** The service's clock (retention's pause after a failure); the system clock by default. */
  clock?: Clock;
  onBackgroundError?: (err: unknown) => void;
}
