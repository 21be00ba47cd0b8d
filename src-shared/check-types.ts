// The conformance scorecard's JSON (POST /v2/test_helpers/checks, `countersign check`,
// the console's "Check an endpoint" screen): one definition for the backend, which
// grades, and the renderer, which shows it. Type declarations and constants only.

export type CheckItemStatus = 'pass' | 'warn' | 'fail';

export const CHECK_ITEM_IDS = [
  'accepts_signed',
  'answers_quickly',
  'survives_burst',
  'refuses_unsigned',
  'refuses_other_secret',
  'refuses_changed_body',
  'refuses_old_timestamp',
  'refuses_future_timestamp',
  'accepts_rotated_signatures',
  'accepts_unknown_event_type',
  'accepts_unknown_fields',
  'accepts_repeated_id',
  'accepts_out_of_order',
  'no_redirect',
] as const;

export type CheckItemId = (typeof CHECK_ITEM_IDS)[number];

export interface CheckItem {
  id: CheckItemId;
  title: string;
  /** A failed required item fails the check; the others can only warn. */
  required: boolean;
  status: CheckItemStatus;
  /** What was seen, in one sentence. */
  message: string;
  /** Why the item matters. */
  why: string;
  /** How to fix it (empty when it passed). */
  fix: string;
  /** The slowest answer among this item's deliveries (ms); null when none came. */
  latency_ms: number | null;
  /** The webhook-ids it sent, in order (each is in the inspector). */
  deliveries: string[];
}

export interface CheckResult {
  object: 'check';
  /** chk_…: the inspector shows this check's deliveries under this id. */
  id: string;
  url: string;
  created_at: string;
  timeout_ms: number;
  duration_ms: number;
  /** false when no request got any answer (the endpoint is down or unreachable). */
  reachable: boolean;
  /** Every required item passed. */
  passed: boolean;
  score: { passed: number; warned: number; failed: number; total: number };
  /** One line: "12/14 passed, 1 warning, 1 failed: …". */
  summary: string;
  items: CheckItem[];
}

/** POST /v2/test_helpers/checks. */
export interface CheckRequest {
  url: string;
  secret: string;
  timeout_ms?: number;
}

export const CHECK_TIMEOUT_DEFAULT_MS = 10_000;
export const CHECK_TIMEOUT_MIN_MS = 100;
export const CHECK_TIMEOUT_MAX_MS = 60_000;
