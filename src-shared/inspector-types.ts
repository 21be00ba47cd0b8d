// The JSON shapes of the inspector's console routes (backend/console-api/
// inspector-routes.ts and inspector/*.ts): one row shape for an outgoing delivery and an
// incoming capture, the filters over both, the chart's buckets, and one row in full.
// One definition for the backend, which builds them, and the renderer, which reads them
// (tsconfig.web.json includes src-shared): type declarations and plain constants
// only, no Node or DOM types.
import type { Attempt, Delivery } from './api-types.js';
import type { BodyFields, CaptureFull, CaptureSummary, VerdictReason } from './receiver-types.js';

export type RowOutcome = 'succeeded' | 'failed' | 'pending' | 'cancelled' | 'skipped' | 'verified' | 'unverified' | 'unchecked';

export interface InspectorRow {
  /** `d:<delivery id>` or `c:<capture id>`: unique across both kinds. */
  ref: string;
  kind: 'delivery' | 'capture';
  id: string;
  /** The time the list is ordered by: a delivery's creation, a capture's arrival. */
  at: string;
  event_type: string | null;
  /** A delivery's own id (it is the webhook-id), a capture's webhook-id header. */
  webhook_id: string | null;
  event_id: string | null;
  subscription_id: string | null;
  inbox_id: string | null;
  document_id: string | null;
  method: string;
  /** A delivery's URL; a capture's path (with its query). */
  target: string;
  outcome: RowOutcome;
  /** The last answer's status (delivery) or what the inbox answered (capture). */
  status_code: number | null;
  /** The last attempt's duration (deliveries only). */
  duration_ms: number | null;
  /** Attempts made (delivery), or the how-many-th request with this webhook-id (capture). */
  attempts: number;
  verdict: VerdictReason | null;
  duplicate: boolean;
  error: string | null;
  /** Body size in bytes (captures only). */
  size: number | null;
  /** A capture that a local delivery made: that delivery's id. */
  delivery_id: string | null;
  /** "check": sent by the conformance scorecard (its subscription_id is the check's chk_… id). */
  origin?: 'check';
  /** A delivery whose last attempt failed to a tunnel URL of this receiver while the tunnel was not online. */
  tunnel_offline?: true;
  /** A delivery imported from a file: a record of the past, never attempted here. */
  imported?: true;
}

/** GET /inspector/feed: newest first. */
export interface FeedPage {
  data: InspectorRow[];
  next_cursor: string | null;
}

/** GET /inspector/rows?refs=…&event_ids=…: the rows asked for, and the refs gone or no longer matching. */
export interface RowsAnswer {
  data: InspectorRow[];
  gone: string[];
}

/** The `outcome` filter's values: a row's outcome, or a duplicate capture. */
export const FILTER_OUTCOMES = ['succeeded', 'failed', 'pending', 'cancelled', 'skipped', 'verified', 'unverified', 'duplicate'] as const;

/** The filters, with the API's parameter names. */
export interface InspectorFilters {
  kind?: 'delivery' | 'capture';
  event_type?: string;
  subscription_id?: string;
  inbox_id?: string;
  outcome?: (typeof FILTER_OUTCOMES)[number];
  document_id?: string;
  /** "check": only the conformance scorecard's deliveries and what they caused. */
  origin?: 'check';
  q?: string;
}

export interface StatsBucket {
  start: string;
  succeeded: number;
  failed: number;
  /** Pending with at least one failed attempt: a retry is due. */
  retrying: number;
  /** Pending, not attempted yet. */
  pending: number;
  captures: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

/** GET /inspector/stats. */
export interface InspectorStats {
  minutes: number;
  bucket_ms: number;
  start: string;
  end: string;
  buckets: StatsBucket[];
  totals: Omit<StatsBucket, 'start'>;
  /** True when more deliveries existed than were looked at. */
  partial: boolean;
}

/** GET /inspector/deliveries/{id}: a delivery with every attempt, and where it landed. */
export interface DeliveryDetail {
  row: InspectorRow;
  delivery: Delivery;
  event: { id: string; type: string; timestamp: string; document_id: string | null } | null;
  /** The exact JSON the event sent. */
  event_body: string | null;
  subscription: { public_id: string; url: string; type: string } | null;
  attempts: Attempt[];
  /** Every capture, in any inbox, with this delivery's webhook-id (oldest first). */
  landed: (CaptureSummary & { inbox_name: string | null })[];
}

/** GET /inspector/captures/{id}. */
export interface CaptureDetail {
  row: InspectorRow;
  capture: CaptureFull;
  inbox: { id: string; name: string | null };
  /** The local delivery that made this capture, when one did (of the session's company). */
  delivery: Delivery | null;
}

export interface PairSide {
  method: string;
  headers: [string, string][];
}

/** GET /inspector/captures/{id}/pair: what a local delivery sent beside what the inbox received. */
export interface CapturePair {
  capture_id: string;
  delivery_id: string;
  inbox: { id: string; name: string | null };
  match: 'exact' | 'nearest' | 'none';
  /** Why `sent` is null: said for a person. */
  note: string | null;
  sent: (PairSide & { attempt: number; at: string; url: string; body: string }) | null;
  received: PairSide &
    BodyFields & {
      at: string;
      path: string;
      body_encoding: 'utf8' | 'base64';
      size: number;
      body_truncated: boolean;
    };
}
