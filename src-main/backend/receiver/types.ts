// Shapes of the webhook receiver: inbox configuration (kept small, in the main store
// under extensions.receiver), captures (kept out of the main store: in-memory ring +
// append-only file per inbox, see capture-store.ts) and verification verdicts.
import type { CaptureFields, ResponseMode } from '@shared/receiver-types.js';

export const DEFAULT_RESPONSE: ResponseMode = { mode: 'status', status: 200 };

export interface InboxRecord {
  id: string; // inb_…
  name: string;
  /** Pasted by the user (deliveries from the real service); null = use linked subscriptions. */
  secret: string | null;
  response: ResponseMode;
  created_at: string;
  /** Made through the service API (`countersign listen`) by this company, which alone may read or delete it there. */
  company_id?: string;
  /**
   * Imported with a mode other than the default: the file's mode, kept (the inbox answers
   * with the default meanwhile) until the user turns it on or picks another mode.
   */
  imported_response?: ResponseMode;
}

/** The store extension "receiver" (inbox-registry.ts). */
export interface ReceiverData {
  inboxes: InboxRecord[];
  /** Public tunnel origins seen before (newest last, bounded), to find stale subscriptions. */
  past_public_urls: string[];
}

/** A captured request as kept in memory and on disk: the wire fields plus the raw body bytes. */
export interface Capture extends CaptureFields {
  /** The raw body bytes (only the first part when over the limit). */
  body: Buffer;
}

export interface ReceiverLimits {
  /** Largest body kept and verified; larger requests are answered 413. */
  bodyLimit: number;
  /** Captures kept per inbox (oldest dropped first). */
  maxCapturesPerInbox: number;
  /** Body bytes kept per inbox (oldest captures dropped first). */
  maxBytesPerInbox: number;
  /** Inboxes at most. */
  maxInboxes: number;
  /** A hung request is cut after this long even if the sender never gives up. */
  maxHangMs: number;
  /**
   * Bytes of bodies being received plus captures waiting for the disk, all inboxes
   * together; a request that would pass it is answered 503 with Retry-After. One inbox
   * may use a quarter of it (at least one body), so a flooded inbox never starves the rest.
   */
  memoryBudget: number;
  /** Requests one inbox may have open at once (being received, delayed or hung); past it, 503. */
  maxOpenPerInbox: number;
  /** Time a sender has to send its headers. */
  headersTimeoutMs: number;
  /** Time a sender has to send its whole request, headers and body (a trickling sender is cut: 408). */
  requestTimeoutMs: number;
  /** Connections open at once on the receiver's listener (more are closed at once). */
  maxConnections: number;
  /** Forwarding inboxes may send to any host, not only loopback ones (forward-target.ts). */
  forwardToAnyHost: boolean;
  /** How long the app has to answer a forwarded request, headers and body. */
  forwardTimeoutMs: number;
}

export const DEFAULT_LIMITS: ReceiverLimits = {
  bodyLimit: 1024 * 1024,
  maxCapturesPerInbox: 1000,
  maxBytesPerInbox: 32 * 1024 * 1024,
  maxInboxes: 100,
  maxHangMs: 10 * 60 * 1000,
  memoryBudget: 64 * 1024 * 1024,
  maxOpenPerInbox: 64,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 512,
  forwardToAnyHost: false,
  forwardTimeoutMs: 30_000,
};

/** What one inbox may hold of the memory budget (bodies being received plus captures waiting for the disk). */
export const inboxShare = (l: Pick<ReceiverLimits, 'bodyLimit' | 'memoryBudget'>): number =>
  Math.max(l.bodyLimit, Math.floor(l.memoryBudget / 4));

export const TIMESTAMP_TOLERANCE_S = 5 * 60;
