// Webhook subscriptions (docs/api.md section 6). The secret is returned once, at
// creation; every other view goes through subscriptionView, which has no secret.
import { generateSecret } from '../delivery/signing.js';
import { newId } from '../ids.js';
import { notFound, validationError } from '../errors.js';
import type { SubscriptionRecord } from '../store/schema.js';
import type { DeepReadonly } from '../store/table.js';
import { nowIso, type DomainContext } from './context.js';
import { emitEvent } from './events.js';
import { subscriptionView } from './views.js';
import type { Change, EventType } from '@shared/api-types.js';

export const SUBSCRIPTIONS_PER_COMPANY = 100;

export function listSubscriptions(ctx: DomainContext, companyId: string, page: { limit: number; starting_after?: string }) {
  const all = ctx.store.subscriptions.filter((s) => s.company_id === companyId);
  let start = 0;
  if (page.starting_after) {
    const i = all.findIndex((s) => s.public_id === page.starting_after);
    if (i === -1) throw validationError([{ field: 'starting_after', message: 'is not a subscription of this company' }]);
    start = i + 1;
  }
  const slice = all.slice(start, start + page.limit);
  return { data: slice.map(subscriptionView), has_more: start + page.limit < all.length };
}

export function findSubscription(ctx: DomainContext, companyId: string, id: string): DeepReadonly<SubscriptionRecord> {
  const sub = ctx.store.subscriptions.get(id);
  if (!sub || sub.company_id !== companyId) throw notFound('subscription');
  return sub;
}

export async function createSubscription(
  ctx: DomainContext,
  companyId: string,
  input: { url: string; type: 'all' | EventType; secret_key?: string },
) {
  const count = ctx.store.subscriptions.filter((s) => s.company_id === companyId).length;
  if (count >= SUBSCRIPTIONS_PER_COMPANY) {
    throw validationError([
      { field: 'url', message: `a company can have at most ${SUBSCRIPTIONS_PER_COMPANY} subscriptions; delete one first` },
    ]);
  }
  const sub = ctx.store.subscriptions.insert({
    public_id: newId('wh'),
    company_id: companyId,
    url: input.url,
    type: input.type,
    status: 'enabled',
    secret_key: input.secret_key ?? generateSecret(),
    created_at: nowIso(ctx),
  });
  await ctx.store.commit();
  ctx.bus.emit({ kind: 'subscription', company_id: companyId, id: sub.public_id });
  return { ...subscriptionView(sub), secret_key: sub.secret_key };
}

/** Deletes it and cancels its pending deliveries in the same write. Returns the cancelled delivery ids. */
export async function deleteSubscription(ctx: DomainContext, companyId: string, id: string): Promise<string[]> {
  findSubscription(ctx, companyId, id);
  const cancelled = ctx.outbox.cancelFor(id);
  ctx.store.subscriptions.remove(id);
  await ctx.store.commit();
  ctx.bus.emit({ kind: 'subscription', company_id: companyId, id, deleted: true });
  return cancelled;
}

/** Queues a webhook.test event to this one subscription; the engine hears of it once committed. */
export async function sendTestEvent(ctx: DomainContext, companyId: string, id: string) {
  const sub = findSubscription(ctx, companyId, id);
  const data = { subscription: subscriptionView(sub), message: 'This is a test event sent from Countersign.' };
  return sendOnly(ctx, companyId, sub, 'webhook.test', data);
}

/** Queues an event of `type` carrying `data` (the event catalog's example) to this one subscription, whatever its type. */
export async function sendExampleEvent(ctx: DomainContext, companyId: string, id: string, type: EventType, data: Record<string, unknown>) {
  return sendOnly(ctx, companyId, findSubscription(ctx, companyId, id), type, data);
}

async function sendOnly(
  ctx: DomainContext,
  companyId: string,
  sub: ReturnType<typeof findSubscription>,
  type: EventType,
  data: Record<string, unknown>,
) {
  const announce: Change[] = [];
  const [delivery] = emitEvent(ctx, { company_id: companyId, type, document_id: null, data, only: sub }, announce);
  await ctx.store.commit();
  for (const change of announce) ctx.bus.emit(change);
  return delivery!;
}
