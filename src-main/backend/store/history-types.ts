// The history log: what happened, kept outside the main store file so that one more
// event never makes every later write bigger. Append-only segments on disk, with a
// small in-memory index; full attempt details (headers, bodies) are read back from
// disk on demand. Finished deliveries beyond the retention cap are dropped oldest first.
import type { DeliveryStatus, EventType } from './schema.js';

export interface EventSummary {
  id: string;
  company_id: string;
  type: EventType;
  timestamp: string;
  document_id: string | null;
  /** For webhook.test: the one subscription it was sent to. */
  subscription_id: string | null;
}

export interface AttemptRecord {
  delivery_id: string;
  subscription_id: string;
  /** 1-based. */
  attempt: number;
  started_at: string;
  duration_ms: number;
  request: { method: 'POST'; url: string; headers: Record<string, string>; body: string };
  /** null when the request never got an answer (network error, timeout). */
  response: { status: number; headers: Record<string, string>; body: string; truncated: boolean } | null;
  /** The network error or timeout, for a person to read. */
  error: string | null;
  succeeded: boolean;
  /** When the next attempt is due (epoch ms), or null if none follows. */
  next_attempt_at: number | null;
}

export interface DeliverySummary {
  id: string; // msg_… = webhook-id
  event_id: string;
  event_type: EventType;
  subscription_id: string;
  company_id: string;
  document_id: string | null;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  next_attempt_at: number | null;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

export interface DeliveryFilter {
  company_id: string;
  subscription_id?: string;
  document_id?: string;
  event_id?: string;
}

export interface HistoryLog {
  /** Loads the index from disk (creating the folder if needed). */
  open(): Promise<void>;
  /** Records an event and its exact body (needed to redeliver after it left the main store). */
  recordEvent(event: EventSummary, body: string): void;
  /** Inserts or replaces a delivery's summary (on creation, after each attempt, when it ends). */
  recordDelivery(delivery: DeliverySummary): void;
  recordAttempt(attempt: AttemptRecord): void;
  getDelivery(id: string): DeliverySummary | undefined;
  /** Newest first; `starting_after` is a delivery id of the previous page. */
  listDeliveries(filter: DeliveryFilter, page: { limit: number; starting_after?: string }): Page<DeliverySummary>;
  /** Every attempt of a delivery, oldest first, read from disk. */
  getAttempts(deliveryId: string): Promise<AttemptRecord[]>;
  getEvent(id: string): EventSummary | undefined;
  getEventBody(id: string): Promise<string | undefined>;
  /** A document's events, oldest first. */
  eventsForDocument(companyId: string, documentId: string): EventSummary[];
  /** Makes every record appended so far durable (fsync). */
  flush(): Promise<void>;
  close(): Promise<void>;
}
