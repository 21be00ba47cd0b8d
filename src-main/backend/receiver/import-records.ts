// The delivery log's records as an import file may carry them, checked before they join
// the history log. Guards against a hostile or damaged file (bug reports come from
// anyone): only the known fields, of the right types and sizes, are kept, so nothing
// odd reaches the inspector or the API; and every event and delivery is marked
// `imported`, which redelivery refuses (domain.ts), so that a made-up event naming a
// real subscription can never be sent signed with that subscription's live secret.
import { z } from 'zod';
import type { AttemptRecord, DeliverySummary, EventSummary } from '../store/history-types.js';
import { EVENT_TYPES } from '@shared/api-types.js';
import type { ForwardResult } from '@shared/receiver-types.js';

const id = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/);
const text = (max: number) => z.string().max(max);
const count = z.number().int().min(0).max(1_000_000_000);
const epochMs = z.number().finite().nullable();
const headers = z.record(text(1000), text(100_000));

const eventSchema = z.object({
  id,
  type: z.enum(EVENT_TYPES),
  timestamp: text(100),
  document_id: id.nullable(),
  subscription_id: id.nullable(),
});

const deliverySchema = z.object({
  id,
  event_id: id,
  event_type: z.enum(EVENT_TYPES),
  subscription_id: id,
  document_id: id.nullable(),
  url: text(4096),
  status: z.enum(['pending', 'succeeded', 'failed', 'cancelled', 'skipped']),
  attempts: count,
  created_at: text(100),
  last_attempt_at: text(100).nullable(),
  last_status_code: count.nullable(),
  last_error: text(10_000).nullable(),
  last_duration_ms: count.nullable(),
  next_attempt_at: epochMs,
  last_tunnel_offline: z.literal(true).optional(),
});

const attemptSchema = z.object({
  delivery_id: id,
  subscription_id: id,
  attempt: count,
  started_at: text(100),
  duration_ms: count,
  request: z.object({ method: z.literal('POST'), url: text(4096), headers, body: text(16 * 1024 * 1024) }),
  response: z.object({ status: count, headers, body: text(1024 * 1024), truncated: z.boolean() }).nullable(),
  error: text(10_000).nullable(),
  succeeded: z.boolean(),
  next_attempt_at: epochMs,
  rule: z.enum(['success', 'backoff', 'retry_after', 'exhausted', 'gone', 'disabled']).optional(),
  rule_detail: text(1000).optional(),
  slowed_down: z.literal(true).optional(),
  tunnel_offline: z.literal(true).optional(),
});

/** An imported event, in the importing company, marked imported; null if malformed. */
export function importedEvent(raw: unknown, companyId: string): EventSummary | null {
  const r = eventSchema.safeParse(raw);
  return r.success ? { ...r.data, company_id: companyId, imported: true } : null;
}

/** An imported delivery, in the importing company, marked imported; null if malformed. */
export function importedDelivery(raw: unknown, companyId: string): DeliverySummary | null {
  const r = deliverySchema.safeParse(raw);
  return r.success ? { ...r.data, company_id: companyId, imported: true } : null;
}

/** An imported attempt of `deliveryId`; null if malformed or of another delivery. */
export function importedAttempt(raw: unknown, deliveryId: string): AttemptRecord | null {
  const r = attemptSchema.safeParse(raw);
  return r.success && r.data.delivery_id === deliveryId ? r.data : null;
}

const forwardSchema = z.object({
  url: text(4096),
  status: z.number().int().min(100).max(999).nullable(),
  body_size: count,
  body_truncated: z.boolean(),
  duration_ms: z.number().finite().min(0),
  error: text(4000).nullable(),
});

/** A capture's forward result (forward mode) from a file: the known fields, or nothing. */
export function importedForward(raw: unknown): ForwardResult | undefined {
  const r = forwardSchema.safeParse(raw);
  return r.success ? r.data : undefined;
}
