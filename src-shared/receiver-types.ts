// The JSON shapes of the webhook receiver's console routes (backend/console-api/
// receiver-routes.ts): inboxes and how they answer, captures and their verification
// verdicts, the tunnel, replay and import. One definition for the backend, which builds
// them, and the renderer, which reads them. Imported by both sides (tsconfig.web.json
// includes src-shared): type declarations and plain constants only, no Node or DOM
// types. A capture's raw bytes (a Buffer) are backend-only: backend/receiver/types.ts
// adds them to CaptureFields; on the wire they travel as text or base64.

/** How an inbox answers. `delay_ms` applies before the answer in every mode but `hang`. */
export type ResponseMode =
  | { mode: 'status'; status: number; delay_ms?: number }
  | { mode: 'fail_first_n'; fail_first_n: number; fail_status: number; delay_ms?: number }
  | { mode: 'hang' }
  | { mode: 'gone'; delay_ms?: number }
  | { mode: 'rate_limited'; retry_after: number; delay_ms?: number }
  /** Passes each request on to `url` (plus the path below the inbox) and answers with the app's own answer. */
  | { mode: 'forward'; url: string };

export interface Inbox {
  id: string; // inb_…
  name: string;
  created_at: string;
  path: string;
  local_url: string;
  /** The inbox through the tunnel, when it is online. */
  public_url: string | null;
  secret: {
    source: 'pasted' | 'linked' | 'none';
    /** First 8 hex of sha256 of the secret in use (the first linked one when several). */
    fingerprint: string | null;
    /** False when the secret in use is not `whsec_` + base64 (verdicts will say invalid_secret_format). */
    format_ok: boolean | null;
    linked_subscription_ids: string[];
  };
  response: ResponseMode;
  response_description: string;
  capture_count: number;
  /** Imported with another mode than the default: that mode, not in use until turned on (PATCH its `response`). */
  imported_response?: ResponseMode;
  imported_response_description?: string;
}

/** POST /inboxes and PATCH /inboxes/{id}. */
export interface InboxInput {
  name?: string;
  /** null clears a pasted secret (update only). */
  secret?: string | null;
  response?: ResponseMode;
}

/** POST /inboxes/{id}/subscribe: the new subscription (its secret by fingerprint only) and the inbox. */
export interface SubscribeResult {
  /** `secret_key` is in this answer only: shown once, like POST /v2/webhooks. */
  subscription: {
    public_id: string;
    url: string;
    type: string;
    status: string;
    created_at: string;
    secret_key: string;
    secret_fingerprint: string;
  };
  inbox: Inbox;
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

/** A captured request, all but its body bytes. */
export interface CaptureFields {
  id: string; // cap_…
  inbox_id: string;
  received_at: string;
  method: string;
  /** Path and query as received, e.g. /in/inb_…?x=1 */
  path: string;
  /** Raw header pairs, in the order and case they arrived. */
  headers: [string, string][];
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
  /** Forward mode only: where the request was passed on and how the app answered (its answer is `response`). */
  forward?: ForwardResult;
}

/** A request passed on to the app (forward mode), and what came of it. */
export interface ForwardResult {
  /** The exact URL the request was sent to (the target plus the path below the inbox and the query). */
  url: string;
  /** The app's status; null when it could not be reached or did not answer in time (then the sender got 502 or 504). */
  status: number | null;
  /** Bytes of the app's body (all of it, also when only the first part is kept in `response.body`). */
  body_size: number;
  /** True when the app's body was longer than what the capture keeps (64 KiB). */
  body_truncated: boolean;
  /** From sending the request to the app's last body byte (or the error). */
  duration_ms: number;
  /** Why the app's answer is missing: the connection error, the timeout, or a refused target. */
  error: string | null;
}

/** Captured bytes as JSON carries them: text when they are UTF-8, else base64 (the other null). */
export interface BodyFields {
  body_text: string | null;
  body_base64: string | null;
}

/** GET /captures/{id}. */
export interface CaptureFull extends CaptureFields, BodyFields {
  body_encoding: 'utf8' | 'base64';
}

/** A capture in lists: no headers or body. */
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
  /** Forward mode: the app's status (null when unreachable); absent for other modes. */
  forward_status?: number | null;
  /** Forward mode: why the app's answer is missing. */
  forward_error?: string | null;
}

/** POST /captures/{id}/replay. */
export interface ReplayInput {
  url: string;
  mode: 'exact' | 'resign';
  /** resign only: the new body (text); the captured body when absent. */
  body?: string;
  /** resign only: the secret to sign with; the inbox's secret when absent. */
  secret?: string;
}

export interface ReplayResult {
  url: string;
  mode: 'exact' | 'resign';
  request: { method: string; headers: [string, string][]; body_size: number; secret_fingerprint: string | null };
  response: { status: number; headers: Record<string, string>; body: string; truncated: boolean } | null;
  error: string | null;
  duration_ms: number;
}

/** POST /import. */
export interface ImportResult {
  inboxes_created: number;
  captures_added: number;
  events_added: number;
  deliveries_added: number;
  /** Entries (inboxes, captures, events, deliveries) whose id is already here: left alone. */
  already_present: number;
  /** Malformed entries (and attempts), or captures of an inbox the file does not hold. */
  skipped: number;
}

export type TunnelStatus = 'off' | 'connecting' | 'online' | 'error' | 'offline';

export interface TunnelState {
  status: TunnelStatus;
  public_url?: string;
  message?: string;
}

/** A subscription that points at an existing inbox through an origin that no longer reaches it. */
export interface StaleSubscription {
  public_id: string;
  company_id: string;
  url: string;
  type: string;
  inbox_id: string;
  reason: 'old_public_url' | 'old_local_url';
  /** Where "move" would point it: the public URL when online, else the local URL. */
  new_url: string;
}

/** GET /tunnel (and the answer of start and stop). */
export interface TunnelView extends TunnelState {
  local_url: string;
  stale_subscriptions: StaleSubscription[];
}

/** POST /tunnel/move-subscriptions: one subscription re-created at the inbox's current URL. */
export interface MovedSubscription {
  from_id: string;
  from_url: string;
  to_id: string;
  to_url: string;
  inbox_id: string;
  type: string;
}
