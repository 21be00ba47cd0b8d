// Shapes of the inspector's console routes (src-main/backend/console-api/inspector-routes.ts)
// and of the receiver's capture routes the inspector uses.
import type { Attempt, Delivery } from './types.js';

export type RowOutcome = 'succeeded' | 'failed' | 'pending' | 'cancelled' | 'verified' | 'unverified' | 'unchecked';

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

export interface InspectorRow {
  /** `d:<delivery id>` or `c:<capture id>`. */
  ref: string;
  kind: 'delivery' | 'capture';
  id: string;
  at: string;
  event_type: string | null;
  webhook_id: string | null;
  event_id: string | null;
  subscription_id: string | null;
  inbox_id: string | null;
  document_id: string | null;
  method: string;
  target: string;
  outcome: RowOutcome;
  status_code: number | null;
  duration_ms: number | null;
  attempts: number;
  verdict: VerdictReason | null;
  duplicate: boolean;
  error: string | null;
  size: number | null;
  delivery_id: string | null;
}

export interface FeedPage {
  data: InspectorRow[];
  next_cursor: string | null;
}

export interface RowsAnswer {
  data: InspectorRow[];
  gone: string[];
}

/** The filters, with the API's parameter names. */
export interface InspectorFilters {
  kind?: 'delivery' | 'capture';
  event_type?: string;
  subscription_id?: string;
  inbox_id?: string;
  outcome?: 'succeeded' | 'failed' | 'pending' | 'cancelled' | 'verified' | 'unverified' | 'duplicate';
  document_id?: string;
  q?: string;
}

export interface StatsBucket {
  start: string;
  succeeded: number;
  failed: number;
  retrying: number;
  pending: number;
  captures: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

export interface InspectorStats {
  minutes: number;
  bucket_ms: number;
  start: string;
  end: string;
  buckets: StatsBucket[];
  totals: Omit<StatsBucket, 'start'>;
  partial: boolean;
}

export interface Verdict {
  reason: VerdictReason;
  message: string;
  secret_source: 'pasted' | 'linked' | 'none';
  subscription_id: string | null;
  secret_fingerprint: string | null;
  timestamp_age_s: number | null;
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
  event_type: string | null;
  verdict: VerdictReason | null;
  duplicate: boolean;
  attempt_for_id: number;
  response_status: number | null;
}

export interface CaptureFull {
  id: string;
  inbox_id: string;
  received_at: string;
  method: string;
  path: string;
  headers: [string, string][];
  size: number;
  body_truncated: boolean;
  remote_address: string | null;
  webhook_id: string | null;
  event_type: string | null;
  attempt_for_id: number;
  duplicate: boolean;
  verdict: Verdict | null;
  response: { status: number | null; headers: Record<string, string>; body: string; delay_ms: number; hang: boolean; sender_gave_up_after_ms?: number };
  body_text: string | null;
  body_base64: string | null;
  body_encoding: 'utf8' | 'base64';
}

export interface DeliveryDetail {
  row: InspectorRow;
  delivery: Delivery;
  event: { id: string; type: string; timestamp: string; document_id: string | null } | null;
  event_body: string | null;
  subscription: { public_id: string; url: string; type: string } | null;
  attempts: Attempt[];
  landed: (CaptureSummary & { inbox_name: string | null })[];
}

export interface CaptureDetail {
  row: InspectorRow;
  capture: CaptureFull;
  inbox: { id: string; name: string | null };
  delivery: Delivery | null;
}

export interface PairSide {
  method: string;
  headers: [string, string][];
}

export interface CapturePair {
  capture_id: string;
  delivery_id: string;
  inbox: { id: string; name: string | null };
  match: 'exact' | 'nearest' | 'none';
  note: string | null;
  sent: (PairSide & { attempt: number; at: string; url: string; body: string }) | null;
  received: PairSide & {
    at: string;
    path: string;
    body_text: string | null;
    body_base64: string | null;
    body_encoding: 'utf8' | 'base64';
    size: number;
    body_truncated: boolean;
  };
}

export interface ReplayInput {
  url: string;
  mode: 'exact' | 'resign';
  body?: string;
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

export interface ImportResult {
  inboxes_created: number;
  captures_added: number;
  events_added: number;
  deliveries_added: number;
  skipped: number;
}
