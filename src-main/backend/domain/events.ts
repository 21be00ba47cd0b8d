// The outbox: an event and one pending delivery per matching subscription are added to
// the store in the same synchronous step as the change that caused them, so the
// caller's single commit makes all of it durable before the API answers.
import { newId } from '../ids.js';
import type { PendingDelivery, SubscriptionRecord } from '../store/schema.js';
import type { DomainContext } from './context.js';
import type { Change, EventType } from '@shared/api-types.js';

export interface EmitInput {
  company_id: string;
  type: EventType;
  document_id: string | null;
  data: Record<string, unknown>;
  /** webhook.test goes to this one subscription, whatever its type. */
  only?: SubscriptionRecord;
}

/** Adds the event and its deliveries; `announce` collects the change to tell listeners once committed. */
export function emitEvent(ctx: DomainContext, input: EmitInput, announce: Change[]): PendingDelivery[] {
  const { store, history } = ctx;
  const id = newId('evt');
  const timestamp = new Date().toISOString();
  const body = JSON.stringify({ id, type: input.type, timestamp, data: input.data });
  const targets = input.only
    ? [input.only]
    : store.data.subscriptions.filter(
        (s) => s.company_id === input.company_id && s.status === 'enabled' && (s.type === 'all' || s.type === input.type),
      );
  const summary = {
    id,
    company_id: input.company_id,
    type: input.type,
    timestamp,
    document_id: input.document_id,
    subscription_id: input.only?.public_id ?? null,
  };
  history.recordEvent(summary, body);
  const now = Date.now();
  const deliveries = targets.map((sub): PendingDelivery => ({
    id: newId('msg'),
    event_id: id,
    subscription_id: sub.public_id,
    company_id: input.company_id,
    event_type: input.type,
    document_id: input.document_id,
    attempts: 0,
    next_attempt_at: now,
    created_at: timestamp,
  }));
  if (deliveries.length > 0) {
    const pending = { id, company_id: input.company_id, type: input.type, timestamp, document_id: input.document_id, body };
    store.data.pending_events.push(pending);
    store.put('pending_events', pending);
    store.data.pending_deliveries.push(...deliveries);
    for (const d of deliveries) store.put('pending_deliveries', d);
  }
  for (const d of deliveries) {
    history.recordDelivery({
      id: d.id,
      event_id: id,
      event_type: input.type,
      subscription_id: d.subscription_id,
      company_id: d.company_id,
      document_id: d.document_id,
      url: store.subscriptions.get(d.subscription_id)!.url,
      status: 'pending',
      attempts: 0,
      created_at: timestamp,
      last_attempt_at: null,
      last_status_code: null,
      last_error: null,
      last_duration_ms: null,
      next_attempt_at: now,
    });
  }
  announce.push({ kind: 'event', company_id: input.company_id, id, type: input.type, document_id: input.document_id });
  return deliveries;
}
