// The JSON shapes the service API and the console API answer with (docs/api.md's public
// objects, plus what the console API adds: document list, timeline, keys, notifications,
// session, status) and the live stream's change references. One definition for both
// sides: the backend builds these (domain/views.ts, console-api/*) and the renderer
// reads them. Imported by the main process and the renderer (tsconfig.web.json includes
// src-shared), so: type declarations and plain constants only, no Node or DOM types.
// Storage records that carry more (company ids, secrets, epoch-ms schedules) stay in
// backend/store and reuse these pieces.

export type Role = 'admin' | 'member';

export const DOCUMENT_STATUSES = ['DRAFT', 'OUT_FOR_SIGNATURE', 'COMPLETED', 'DECLINED', 'EXPIRED', 'VOIDED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const EVENT_TYPES = [
  'document.created',
  'document.sent',
  'document.viewed',
  'document.recipient_completed',
  'document.completed',
  'document.declined',
  'document.expired',
  'document.voided',
  'document.updated',
  'document.reminded',
  'webhook.test',
  'webhook.disabled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type SubscriptionType = 'all' | EventType;

export type RecipientStatus = 'pending' | 'viewed' | 'completed' | 'declined';

export interface Recipient {
  public_id: string; // rcp_…
  name: string;
  email: string;
  role: 'signer';
  status: RecipientStatus;
  completed_at: string | null;
}

export interface Document {
  public_id: string; // doc_…
  title: string;
  status: DocumentStatus;
  recipients: Recipient[];
  metadata: Record<string, unknown>;
  /** `{app_url}/documents?d=<public_id>`: the document in the console. */
  url: string;
  created_at: string;
  updated_at: string;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

export type SubscriptionStatus = 'enabled' | 'disabled';

export interface Subscription {
  public_id: string; // wh_…
  url: string;
  type: SubscriptionType;
  /** `disabled`: no attempts are made; new events are kept as `skipped` deliveries (recoverable). */
  status: SubscriptionStatus;
  created_at: string;
  /** Only when disabled: why (410 Gone, failing for days, or by hand) and when. */
  disabled_reason?: string;
  disabled_at?: string;
}

/** One secret a subscription signs with now, told apart by its fingerprint (never the secret itself). */
export interface LiveSecret {
  /** The first 8 hex characters of SHA-256 over the `whsec_…` string (as the console and the receiver show). */
  fingerprint: string;
  role: 'current' | 'previous';
  /** A previous secret stops signing at this time; null for the current one. */
  expires_at: string | null;
}

/** GET /v2/test_helpers/webhooks/{id}/secrets. */
export interface SubscriptionSecrets {
  subscription_id: string;
  secrets: LiveSecret[];
}

/** POST /v2/test_helpers/webhooks/{id}/rotate_secret: the only answer that carries the new secret. */
export interface RotatedSecret extends SubscriptionSecrets {
  secret_key: string;
}

/** POST /v2/test_helpers/webhooks/{id}/recover. */
export interface RecoverResult {
  subscription_id: string;
  since: string;
  /** The deliveries sent again, oldest first (same ids: same webhook-id). */
  delivery_ids: string[];
}

/** POST /v2/webhooks: the only answer that ever carries the secret. */
export interface CreatedSubscription extends Subscription {
  secret_key: string;
}

/** `skipped`: never attempted because its subscription was disabled; recoverable. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled' | 'skipped';

/**
 * Which rule decided what followed an attempt: `success` (2xx), `backoff` (retried on
 * the schedule), `retry_after` (429/503 with Retry-After: retried when asked, capped),
 * `exhausted` (no retry left: failed), `gone` (410: subscription disabled),
 * `disabled` (the subscription was disabled: no further attempt, kept as skipped).
 */
export type AttemptRule = 'success' | 'backoff' | 'retry_after' | 'exhausted' | 'gone' | 'disabled';

export interface Delivery {
  id: string; // msg_… = webhook-id
  event_id: string;
  event_type: EventType;
  subscription_id: string;
  document_id: string | null;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  next_attempt_at: string | null;
}

export interface Attempt {
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
  /** When the next attempt is due, or null if none follows. */
  next_attempt_at: string | null;
  /** Which rule applied (absent on attempts logged by older versions). */
  rule?: AttemptRule;
  /** The rule in words, e.g. "429 with Retry-After: 120: next attempt in 120 s; sending slowed down". */
  rule_detail?: string;
  /** 429/502/504: this subscription's sending was slowed down (one attempt at a time for a while). */
  slowed_down?: boolean;
  /** The deliberate faults this attempt carried (test helpers), absent for an ordinary one. */
  faults?: FaultName[];
  /**
   * A failed attempt to one of this receiver's tunnel URLs (current or past public URL)
   * made while the tunnel was not online: the failure is the tunnel's, not the endpoint's.
   */
  tunnel_offline?: true;
}

/** GET /v2/webhooks/{id}/deliveries/{delivery_id}: the summary with every attempt. */
export type DeliveryWithAttempts = Delivery & { attempt_log: Attempt[] };

/** POST /v2/webhooks/{id}/test. */
export interface TestEventResult {
  delivery_id: string;
  event_id: string;
  subscription_id: string;
  status: 'pending';
}

export interface TimelineEvent {
  id: string;
  type: EventType;
  timestamp: string;
  deliveries: Delivery[];
}

export const DOCUMENT_ACTIONS = ['send', 'view', 'complete', 'decline', 'expire', 'void'] as const;
export type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];

export interface AllowedActions {
  document: DocumentAction[];
  recipients: Record<string, DocumentAction[]>;
}

export interface RemindResult {
  document_id: string;
  reminded: string[];
  reminded_at: string;
}

export interface ApiKey {
  id: string;
  role: Role;
  label: string;
  hint: string;
  company?: { id: string; name: string };
  created_at: string;
  current_console?: boolean;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface Notification {
  id: string; // ntf_…
  document_id: string;
  recipient_id: string;
  name: string;
  email: string;
  kind: 'signature_request' | 'reminder';
  created_at: string;
  /** The document's title now (console API only); null if it is gone. */
  document_title: string | null;
}

export interface ConsoleSession {
  api_key: string;
  company_id: string;
  company_name: string;
}

export interface ConsoleStatus {
  warnings: string[];
  addresses: { api_url: string; app_url: string; receiver_url?: string };
  tunnel: unknown;
  deliveries_in_flight: number;
}

/** One entry of an error's `details.fields` (422 validation_error). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * What the live stream sends: small references (ids and kinds); listeners fetch details
 * over the API. The backend's ChangeBus carries exactly these.
 */
export type Change =
  | { kind: 'document'; company_id: string; id: string }
  | { kind: 'subscription'; company_id: string; id: string; deleted?: boolean }
  | { kind: 'event'; company_id: string; id: string; type: string; document_id: string | null }
  | { kind: 'delivery'; company_id: string; id: string; subscription_id: string; status: string; document_id: string | null }
  | { kind: 'notification'; company_id: string; id: string; document_id: string }
  | { kind: 'api_key'; company_id: string; id: string }
  | { kind: 'capture'; inbox_id: string; id: string }
  | { kind: 'inbox'; id: string }
  | { kind: 'tunnel'; state: string }
  | { kind: 'clock' };

/** The service's test clock (GET /v2/test_helpers/clock): virtual time, machine-wide. */
export interface TestClockView {
  object: 'test_clock';
  /** The service's time (ISO 8601). */
  now: string;
  /** True while virtual time stands still. */
  frozen: boolean;
  /** How far the service's time is ahead of the wall clock, in whole seconds. */
  offset_seconds: number;
}

/** The deliberate faults a subscription's deliveries can carry (docs/testing-your-endpoint.md, "Faults"). */
export const FAULT_NAMES = ['duplicate', 'reorder', 'delay', 'stale_timestamp', 'wrong_secret', 'rotation', 'redirect'] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** `share`: the part of attempts (0 to 1) that carry the fault; 1 when left out. */
interface Share {
  share?: number;
}

/** PUT /v2/test_helpers/webhooks/{id}/faults: each fault present is on. */
export interface WebhookFaults {
  duplicate?: Share;
  reorder?: Share & { window_ms: number };
  delay?: Share & { ms: number };
  stale_timestamp?: Share & { seconds: number };
  wrong_secret?: Share;
  rotation?: Share;
  redirect?: Share & { status?: 301 | 302 | 303 | 307 | 308 };
}

/** The answer of the faults routes. */
export interface WebhookFaultsView {
  object: 'webhook_faults';
  subscription_id: string;
  faults: WebhookFaults;
}
