// The inspector's rows: one shape for an outgoing delivery (from the history log) and
// for an incoming capture (from the receiver), and the filters over both. Guards
// against one company seeing another's activity: deliveries are read for the session's
// company only, and a capture borrows a delivery's details (subscription, document)
// only when that delivery belongs to the session's company. Captures themselves are
// machine-wide, like the receiver (console-api/stream.ts says the same).
import { z } from 'zod';
import type { DeliverySummary, HistoryLog } from '../../store/history-types.js';
import type { Store } from '../../store/store.js';
import type { Receiver } from '../../receiver/receiver.js';
import type { Capture } from '../../receiver/types.js';
import { FILTER_OUTCOMES, type InspectorRow } from '@shared/inspector-types.js';

const ID = z.string().trim().min(1).max(200);

export const filterSchema = z.object({
  kind: z.enum(['delivery', 'capture']).optional(),
  event_type: ID.optional(),
  subscription_id: ID.optional(),
  inbox_id: ID.optional(),
  outcome: z.enum(FILTER_OUTCOMES).optional(),
  document_id: ID.optional(),
  origin: z.enum(['check']).optional(),
  q: z.string().trim().min(1).max(200).optional(),
});
export type InspectorFilter = z.infer<typeof filterSchema>;

/** What building and filtering rows needs; one per request (it caches URL lookups). */
export class RowContext {
  private readonly inboxByUrl = new Map<string, string | null>();
  constructor(
    readonly companyId: string,
    readonly history: HistoryLog,
    readonly receiver: Receiver,
    readonly store: Store,
  ) {}

  /** The inbox a delivery's URL reaches (through any origin that reaches this receiver). */
  inboxOf(url: string): string | null {
    let hit = this.inboxByUrl.get(url);
    if (hit === undefined) {
      hit = this.receiver.inboxes.inboxForUrl(url);
      this.inboxByUrl.set(url, hit);
    }
    return hit;
  }

  /** The local delivery that sent this capture, when it is one of the session company's. */
  deliveryOf(c: Capture): DeliverySummary | undefined {
    if (!c.webhook_id) return undefined;
    const d = this.history.getDelivery(c.webhook_id);
    return d && d.company_id === this.companyId ? d : undefined;
  }

  ownSubscription(id: string | null | undefined): string | null {
    if (!id) return null;
    return this.store.subscriptions.get(id)?.company_id === this.companyId ? id : null;
  }
}

export function deliveryRow(ctx: RowContext, d: DeliverySummary): InspectorRow {
  return {
    ref: `d:${d.id}`,
    kind: 'delivery',
    id: d.id,
    at: d.created_at,
    event_type: d.event_type,
    webhook_id: d.id,
    event_id: d.event_id,
    subscription_id: d.subscription_id,
    inbox_id: ctx.inboxOf(d.url),
    document_id: d.document_id,
    method: 'POST',
    target: d.url,
    outcome: d.status,
    ...(d.last_tunnel_offline ? { tunnel_offline: true as const } : {}),
    status_code: d.last_status_code,
    duration_ms: d.last_duration_ms,
    attempts: d.attempts,
    verdict: null,
    duplicate: false,
    error: d.last_error,
    size: null,
    delivery_id: null,
    ...(d.origin ? { origin: d.origin } : {}),
    ...(d.imported ? { imported: true as const } : {}),
  };
}

export function captureRow(ctx: RowContext, c: Capture): InspectorRow {
  const d = ctx.deliveryOf(c);
  return {
    ref: `c:${c.id}`,
    kind: 'capture',
    id: c.id,
    at: c.received_at,
    event_type: c.event_type,
    webhook_id: c.webhook_id,
    event_id: d?.event_id ?? null,
    subscription_id: d?.subscription_id ?? ctx.ownSubscription(c.verdict?.subscription_id),
    inbox_id: c.inbox_id,
    document_id: d?.document_id ?? null,
    method: c.method,
    target: c.path,
    outcome: c.verdict === null ? 'unchecked' : c.verdict.reason === 'verified' ? 'verified' : 'unverified',
    status_code: c.response.status,
    duration_ms: null,
    attempts: c.attempt_for_id,
    verdict: c.verdict?.reason ?? null,
    duplicate: c.duplicate,
    error: c.verdict && c.verdict.reason !== 'verified' ? c.verdict.message : null,
    size: c.size,
    delivery_id: d?.id ?? null,
    ...(d?.origin ? { origin: d.origin } : {}),
  };
}

function textHit(row: InspectorRow, q: string): boolean {
  const fields = [
    row.id,
    row.webhook_id,
    row.event_id,
    row.event_type,
    row.subscription_id,
    row.inbox_id,
    row.document_id,
    row.target,
    row.error,
    row.verdict,
  ];
  return fields.some((f) => f !== null && f.toLowerCase().includes(q));
}

/** Whether a row passes the filters. `capture` lets a capture's body be searched (exact case, in memory, cheap). */
export function matches(row: InspectorRow, f: InspectorFilter, capture?: Capture): boolean {
  if (f.kind && row.kind !== f.kind) return false;
  if (f.event_type && row.event_type !== f.event_type) return false;
  if (f.subscription_id && row.subscription_id !== f.subscription_id) return false;
  if (f.inbox_id && row.inbox_id !== f.inbox_id) return false;
  if (f.origin && row.origin !== f.origin) return false;
  if (f.outcome) {
    if (f.outcome === 'duplicate') {
      if (!row.duplicate) return false;
    } else if (f.outcome === 'unverified') {
      if (row.outcome !== 'unverified' && row.outcome !== 'unchecked') return false;
    } else if (row.outcome !== f.outcome) return false;
  }
  if (f.document_id && row.document_id !== f.document_id) {
    // A capture from another sender: the document id may still be in its body.
    if (!capture || row.delivery_id !== null || capture.body.indexOf(f.document_id) === -1) return false;
  }
  if (f.q) {
    const q = f.q.toLowerCase();
    if (!textHit(row, q) && !(capture && capture.body.indexOf(f.q) !== -1)) return false;
  }
  return true;
}

/** Sort key, newest first: time, then captures before deliveries (a capture lands after it is sent), then id. */
export function newerFirst(a: { ms: number; kind: string; id: string }, b: { ms: number; kind: string; id: string }): number {
  if (a.ms !== b.ms) return b.ms - a.ms;
  if (a.kind !== b.kind) return a.kind === 'capture' ? -1 : 1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function timeOf(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}
