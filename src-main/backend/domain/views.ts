// The public shapes of docs/api.md: what the API returns and what deliveries carry.
// Internal fields (company ids, secrets) never leave through here. The return types are
// the shared wire shapes (src-shared/api-types.ts) that the renderer reads.
import type { Attempt, Delivery, Document, Subscription } from '@shared/api-types.js';
import type { DocumentRecord, SubscriptionRecord } from '../store/schema.js';
import type { DeepReadonly } from '../store/table.js';
import type { AttemptRecord, DeliverySummary } from '../store/history-types.js';

export function documentView(doc: DeepReadonly<DocumentRecord>, appUrl: string): Document {
  return {
    public_id: doc.public_id,
    title: doc.title,
    status: doc.status,
    recipients: doc.recipients.map((r) => ({ ...r })),
    metadata: doc.metadata,
    url: `${appUrl}/documents?d=${encodeURIComponent(doc.public_id)}`,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

export function subscriptionView(sub: DeepReadonly<SubscriptionRecord>): Subscription {
  const view: Subscription = { public_id: sub.public_id, url: sub.url, type: sub.type, status: sub.status, created_at: sub.created_at };
  if (sub.status === 'disabled') {
    view.disabled_reason = sub.disabled_reason ?? 'Disabled';
    if (sub.disabled_at) view.disabled_at = sub.disabled_at;
  }
  return view;
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function attemptView(a: AttemptRecord): Attempt {
  return { ...a, next_attempt_at: isoOrNull(a.next_attempt_at) };
}

export function deliveryView(d: DeliverySummary): Delivery {
  const { company_id: _company, imported: _imported, last_tunnel_offline: _tunnel, ...rest } = d;
  return { ...rest, next_attempt_at: isoOrNull(d.next_attempt_at) };
}
