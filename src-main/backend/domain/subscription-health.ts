// Endpoint health and the emulator's extras around it (docs/api.md "Delivery
// semantics"): a subscription is disabled at once by a 410, after its every attempt
// failed for a while (5 days by default), or by hand; while disabled its deliveries are
// kept as `skipped`. Enable, recover since a time (same deliveries, same webhook-id), and
// rotate the secret with an overlap. Each change commits before it resolves and is
// announced on the bus after; a disabling also queues a `webhook.disabled` event to the
// company's other subscriptions that listen for it.
import { ApiError, validationError } from '../errors.js';
import { generateSecret } from '../delivery/signing.js';
import { liveSecretViews, rotatedPrevious } from '../delivery/secret-rotation.js';
import type { SubscriptionRecord } from '../store/schema.js';
import type { DeepReadonly } from '../store/table.js';
import type { DomainContext, HealthSettings } from './context.js';
import { nowIso } from './context.js';
import { emitEvent } from './events.js';
import { findSubscription } from './subscriptions.js';
import { subscriptionView } from './views.js';
import type { Change, RecoverResult, RotatedSecret, SubscriptionSecrets } from '@shared/api-types.js';

const DEFAULTS: HealthSettings = { disableAfterFailingSeconds: 5 * 86400, rotationOverlapSeconds: 86400 };
const settingsOf = (ctx: DomainContext) => ctx.settings ?? DEFAULTS;

export const disabledError = () =>
  new ApiError('subscription_disabled', 'This subscription is disabled: enable it first, then recover or redeliver.');

function days(seconds: number): string {
  if (seconds % 86400 === 0) return `${seconds / 86400} day${seconds === 86400 ? '' : 's'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  return `${seconds} seconds`;
}

/** Disables a subscription (once): pending deliveries become skipped, `webhook.disabled` is queued. Commits. */
export async function disableSubscription(ctx: DomainContext, sub: DeepReadonly<SubscriptionRecord>, reason: string): Promise<void> {
  if (sub.status === 'disabled') return;
  const updated = ctx.store.subscriptions.update(sub.public_id, { status: 'disabled', disabled_reason: reason, disabled_at: nowIso(ctx) })!;
  ctx.outbox.cancelFor(sub.public_id, 'skipped');
  const announce: Change[] = [];
  emitEvent(
    ctx,
    {
      company_id: sub.company_id,
      type: 'webhook.disabled',
      document_id: null,
      data: { subscription: subscriptionView(updated), reason },
      except: sub.public_id,
    },
    announce,
  );
  await ctx.store.commit();
  for (const change of announce) ctx.bus.emit(change);
  ctx.bus.emit({ kind: 'subscription', company_id: sub.company_id, id: sub.public_id });
}

/** Enables it again: new events are delivered; what was skipped stays skipped until recovered. Commits. */
export async function enableSubscription(ctx: DomainContext, sub: DeepReadonly<SubscriptionRecord>): Promise<void> {
  if (sub.status === 'enabled') return;
  ctx.store.subscriptions.update(sub.public_id, (draft) => {
    draft.status = 'enabled';
    delete draft.disabled_reason;
    delete draft.disabled_at;
    draft.failing_since = null;
  });
  await ctx.store.commit();
  ctx.bus.emit({ kind: 'subscription', company_id: sub.company_id, id: sub.public_id });
}

/**
 * The engine's report of one ended attempt (delivery/engine.ts EndpointHealth). Writes
 * only when the health changes: the first failure after a success, the first success
 * after failures, or the end (410, or failing for the whole window).
 */
export function recordAttempt(ctx: DomainContext, subscriptionId: string, o: { succeeded: boolean; gone: boolean; at: number }): void {
  const sub = ctx.store.subscriptions.get(subscriptionId);
  if (!sub || sub.status === 'disabled') return;
  // Before anything is formatted: nearly every report is a success of a healthy endpoint, which changes nothing.
  if (o.succeeded) {
    if (!sub.failing_since) return;
    ctx.store.subscriptions.update(subscriptionId, { failing_since: null });
    return ctx.store.commitLater();
  }
  const when = new Date(o.at).toISOString();
  if (o.gone) return void disableSubscription(ctx, sub, `The endpoint answered 410 Gone at ${when}.`).catch(logFailure);
  if (!sub.failing_since) {
    ctx.store.subscriptions.update(subscriptionId, { failing_since: when });
    return ctx.store.commitLater();
  }
  const window = settingsOf(ctx).disableAfterFailingSeconds;
  if (window > 0 && o.at - Date.parse(sub.failing_since) >= window * 1000) {
    const reason = `Every delivery attempt failed for ${days(window)} (since ${sub.failing_since}).`;
    void disableSubscription(ctx, sub, reason).catch(logFailure);
  }
}

function logFailure(err: unknown): void {
  // A failed write makes the store reload its last good state: the next attempt reports again.
  console.error('[health] could not disable a subscription:', err);
}

/** Re-sends every failed or skipped delivery created at or after `since`, oldest first, as new attempts of the same deliveries. */
export async function recoverSince(ctx: DomainContext, companyId: string, id: string, since: string): Promise<RecoverResult> {
  const sub = findSubscription(ctx, companyId, id);
  if (sub.status === 'disabled') throw disabledError();
  const from = Date.parse(since);
  if (Number.isNaN(from)) throw validationError([{ field: 'since', message: 'must be an ISO 8601 time' }]);
  const chosen: string[] = [];
  let after: string | undefined;
  // Newest first, page by page; stop at the first older than `since`.
  for (;;) {
    const page = ctx.history.listDeliveries({ company_id: companyId, subscription_id: id }, { limit: 500, starting_after: after });
    let older = false;
    for (const d of page.data) {
      if (Date.parse(d.created_at) < from) older = true;
      else if ((d.status === 'failed' || d.status === 'skipped') && !d.imported) chosen.push(d.id);
    }
    if (older || !page.has_more || page.data.length === 0) break;
    after = page.data[page.data.length - 1].id;
  }
  chosen.reverse();
  const sent: string[] = [];
  for (const deliveryId of chosen) {
    const event = ctx.history.getDelivery(deliveryId);
    if (event && ctx.history.getEvent(event.event_id)?.imported) continue;
    try {
      const updated = await ctx.outbox.redeliver(deliveryId);
      sent.push(updated.id);
      const { company_id, subscription_id, document_id } = updated;
      ctx.bus.emit({ kind: 'delivery', company_id, id: updated.id, subscription_id, status: 'pending', document_id });
    } catch (err) {
      // An event body past retention cannot be sent again; the rest still are.
      if (!(err instanceof ApiError && err.code === 'not_found')) throw err;
    }
  }
  return { subscription_id: id, since: new Date(from).toISOString(), delivery_ids: sent };
}

/** Which secrets sign now, by fingerprint. */
export function secretsOf(ctx: DomainContext, companyId: string, id: string): SubscriptionSecrets {
  const sub = findSubscription(ctx, companyId, id);
  return { subscription_id: id, secrets: liveSecretViews(sub, ctx.clock.now()) };
}

/** A new secret (answered once); the old one keeps signing beside it for the overlap. Commits. */
export async function rotateSecret(ctx: DomainContext, companyId: string, id: string, overlapSeconds?: number): Promise<RotatedSecret> {
  const sub = findSubscription(ctx, companyId, id);
  const now = ctx.clock.now();
  const secret = generateSecret();
  const previous = rotatedPrevious(sub, now, overlapSeconds ?? settingsOf(ctx).rotationOverlapSeconds);
  const updated = ctx.store.subscriptions.update(id, { secret_key: secret, previous_secrets: previous })!;
  await ctx.store.commit();
  ctx.bus.emit({ kind: 'subscription', company_id: companyId, id });
  return { subscription_id: id, secret_key: secret, secrets: liveSecretViews(updated, now) };
}
