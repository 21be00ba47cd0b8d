// Shapes of the webhook receiver: inbox configuration (kept small, in the main store
// under extensions.receiver), captures (kept out of the main store: in-memory ring +
// append-only file per inbox, see capture-store.ts) and verification verdicts.

/** How an inbox answers. `delay_ms` applies before the answer in every mode but `hang`. */
export type ResponseMode =
  | { mode: 'status'; status: number; delay_ms?: number }
  | { mode: 'fail_first_n'; fail_first_n: number; fail_status: number; delay_ms?: number }
  | { mode: 'hang' }
  | { mode: 'gone'; delay_ms?: number }
  | { mode: 'rate_limited'; retry_after: number; delay_ms?: number };

export const DEFAULT_RESPONSE: ResponseMode = { mode: 'status', status: 200 };

export interface InboxRecord {
  id: string; // inb_…
  name: string;
  /** Pasted by the user (deliveries from the real service); null = use linked subscriptions. */
  secret: string | null;
  response: ResponseMode;
  created_at: string;
}

/** store.data.extensions.receiver */
export interface ReceiverData {
  inboxes: InboxRecord[];
  /** Public tunnel origins seen before (newest last, bounded), to find stale subscriptions. */
  past_public_urls: string[];
}

export const VERDICT_REASONS = [
  'verified',
  'no_signature_headers',
  'malformed_signature_headers',
  'unknown_secret',
  'invalid_secret_format',
  'wrong_secret',
  'body_modified',
  'signature_mismatch',
  'timestamp_outside_tolerance',
] as const;
export type VerdictReason = (typeof VERDICT_REASONS)[number];

export interface Verdict {
  reason: VerdictReason;
  /** For a person: what was found and, when not verified, what to look at. */
  message: string;
  /** Where the secret came from: pasted on the inbox, a linked subscription, or nothing. */
  secret_source: 'pasted' | 'linked' | 'none';
  /** The linked subscription whose secret verified (or was tried), when known. */
  subscription_id: string | null;
  /** Fingerprint (first 8 hex of sha256) of the secret that verified or was tried first. */
  secret_fingerprint: string | null;
  /** Seconds between the webhook-timestamp and the arrival (positive = in the past). */
  timestamp_age_s: number | null;
}

/** What the receiver answered (decided when the request arrived). */
export interface CaptureResponse {
  /** null when the receiver hangs (never answers). */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  delay_ms: number;
  hang: boolean;
  /** Set (in memory only) when a hung request's sender closed the connection. */
  sender_gave_up_after_ms?: number;
}

export interface Capture {
  id: string; // cap_…
  inbox_id: string;
  received_at: string;
  method: string;
  /** Path and query as received, e.g. /in/inb_…?x=1 */
  path: string;
  /** Raw header pairs, in the order and case they arrived. */
  headers: [string, string][];
  /** The raw body bytes (only the first part when over the limit). */
  body: Buffer;
  /** Bytes received (or declared by Content-Length when over the limit). */
  size: number;
  /** True when the body was over the limit and not kept whole (answered 413). */
  body_truncated: boolean;
  remote_address: string | null;
  webhook_id: string | null;
  /** The `type` field of a JSON body (the event type), when there is one. */
  event_type: string | null;
  /** 1 for the first request with this webhook-id in this inbox, 2 for the next, … */
  attempt_for_id: number;
  duplicate: boolean;
  /** null when the body was over the limit and so not verified. */
  verdict: Verdict | null;
  response: CaptureResponse;
}

export interface CaptureSummary {
  id: string;
  inbox_id: string;
  received_at: string;
  method: string;
  path: string;
  size: number;
  content_type: string | null;
  webhook_id: string | null;
  /** The `type` field of a JSON body, when there is one (event type). */
  event_type: string | null;
  verdict: VerdictReason | null;
  duplicate: boolean;
  attempt_for_id: number;
  response_status: number | null;
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
}

export const DEFAULT_LIMITS: ReceiverLimits = {
  bodyLimit: 1024 * 1024,
  maxCapturesPerInbox: 1000,
  maxBytesPerInbox: 32 * 1024 * 1024,
  maxInboxes: 100,
  maxHangMs: 10 * 60 * 1000,
};

export const TIMESTAMP_TOLERANCE_S = 5 * 60;
