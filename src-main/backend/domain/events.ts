// Events of the service: what a change announces, and to whom. The event and its
// deliveries go to the outbox (delivery/outbox.ts) in the same synchronous step as the
// change that caused them, so the caller's single commit makes all of it durable.
import type { DeepReadonly } from '../store/table.js';
import type { SubscriptionRecord } from '../store/schema.js';
import type { DomainContext } from './context.js';
import type { Change, EventType } from '@shared/api-types.js';

export interface EmitInput {
  company_id: string;
  type: EventType;
  document_id: string | null;
  data: Record<string, unknown>;
  /** webhook.test goes to this one subscription, whatever its type. */
  only?: DeepReadonly<SubscriptionRecord>;
  /** Not even kept as skipped for this one (webhook.disabled, about the subscription itself). */
  except?: string;
}

/** Queues the event and its deliveries; `announce` collects the change to tell listeners once committed. */
export function emitEvent(ctx: DomainContext, input: EmitInput, announce: Change[]) {
  const matching = input.only
    ? [input.only]
    : ctx.store.subscriptions.filter(
        (s) => s.company_id === input.company_id && s.public_id !== input.except && (s.type === 'all' || s.type === input.type),
      );
  // A disabled subscription's share is kept as a skipped delivery, to recover later.
  const targets = matching.filter((s) => s.status === 'enabled');
  const skipped = matching.filter((s) => s.status !== 'enabled');
  const { company_id, type, document_id, data } = input;
  const queued = ctx.outbox.enqueue({ company_id, type, document_id, data, subscription_id: input.only?.public_id }, targets, skipped);
  announce.push({ kind: 'event', company_id, id: queued.event_id, type, document_id });
  return queued.deliveries;
}
