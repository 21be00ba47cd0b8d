// The domain facade: every rule of the service, in one object the HTTP layers call.
// Ownership is checked here (another company's ids are not found), state transitions
// live in lifecycle.ts, and every change is committed before a method resolves.
// Deliveries go through the outbox (ctx.outbox); the domain never calls the engine.
import { ApiError, notFound, validationError } from '../errors.js';
import type { Actor, DomainContext } from './context.js';
import * as keys from './api-keys.js';
import * as subs from './subscriptions.js';
import * as health from './subscription-health.js';
import * as docs from './documents.js';
import type { Action } from './lifecycle.js';
import { allowedActions } from './lifecycle.js';
import { attemptView, deliveryView, documentView } from './views.js';
import { documentJsonReader } from './document-json.js';
import { keyAuthenticator } from './key-auth.js';
import type { EventType, Role } from '@shared/api-types.js';

const importedDelivery = () =>
  new ApiError('delivery_imported', 'This delivery was imported from a file: it is a record only and is never sent again.');

export class Domain {
  constructor(private readonly ctx: DomainContext) {
    this.authenticate = keyAuthenticator(ctx);
    this.peekDocumentJson = documentJsonReader(ctx);
  }

  // Keys and companies
  readonly authenticate: (key: string | undefined) => Actor | undefined;
  ensureSeed = (adminKey?: string) => keys.ensureSeed(this.ctx, adminKey);
  createConsoleSession = () => keys.createConsoleSession(this.ctx);
  createCliToken = () => keys.createCliToken(this.ctx);
  revokeCliToken = () => keys.revokeCliToken(this.ctx);
  createApiKey = (actor: Actor, input: { role: Role; company?: string; label?: string }) => keys.createApiKey(this.ctx, actor, input);
  listApiKeys = (companyId: string) => keys.listApiKeys(this.ctx, companyId);
  revokeApiKey = (actor: Actor, id: string) => keys.revokeApiKey(this.ctx, actor, id);
  companyName = (companyId: string) => this.ctx.store.companies.get(companyId)?.name;

  // Subscriptions
  listSubscriptions = (companyId: string, page: { limit: number; starting_after?: string }) =>
    subs.listSubscriptions(this.ctx, companyId, page);
  getSubscription = (companyId: string, id: string) => subs.findSubscription(this.ctx, companyId, id);
  createSubscription = (companyId: string, input: { url: string; type: 'all' | EventType; secret_key?: string }) =>
    subs.createSubscription(this.ctx, companyId, input);

  async deleteSubscription(companyId: string, id: string): Promise<void> {
    await subs.deleteSubscription(this.ctx, companyId, id);
  }

  sendTestEvent = (companyId: string, id: string) => subs.sendTestEvent(this.ctx, companyId, id);
  sendExampleEvent = (companyId: string, id: string, type: EventType, data: Record<string, unknown>) =>
    subs.sendExampleEvent(this.ctx, companyId, id, type, data);

  // Endpoint health, recovery and rotation (emulator extras: /v2/test_helpers/webhooks and the console)
  disableSubscription = (companyId: string, id: string, reason?: string) =>
    health.disableSubscription(this.ctx, subs.findSubscription(this.ctx, companyId, id), reason || 'Disabled by hand.');
  enableSubscription = (companyId: string, id: string) =>
    health.enableSubscription(this.ctx, subs.findSubscription(this.ctx, companyId, id));
  recoverSince = (companyId: string, id: string, since: string) => health.recoverSince(this.ctx, companyId, id, since);
  subscriptionSecrets = (companyId: string, id: string) => health.secretsOf(this.ctx, companyId, id);
  rotateSecret = (companyId: string, id: string, overlapSeconds?: number) => health.rotateSecret(this.ctx, companyId, id, overlapSeconds);
  /** The delivery engine's report of an ended attempt. */
  recordAttempt = (subscriptionId: string, o: { succeeded: boolean; gone: boolean; at: number }) =>
    health.recordAttempt(this.ctx, subscriptionId, o);

  listDeliveries(companyId: string, subscriptionId: string, page: { limit: number; starting_after?: string }) {
    subs.findSubscription(this.ctx, companyId, subscriptionId);
    if (page.starting_after) {
      const after = this.ctx.history.getDelivery(page.starting_after);
      if (!after || after.subscription_id !== subscriptionId)
        throw validationError([{ field: 'starting_after', message: 'is not a delivery of this subscription' }]);
    }
    const { data, has_more } = this.ctx.history.listDeliveries({ company_id: companyId, subscription_id: subscriptionId }, page);
    return { data: data.map(deliveryView), has_more };
  }

  async getDelivery(companyId: string, subscriptionId: string, deliveryId: string) {
    subs.findSubscription(this.ctx, companyId, subscriptionId);
    const d = this.ctx.history.getDelivery(deliveryId);
    if (!d || d.company_id !== companyId || d.subscription_id !== subscriptionId) throw notFound('delivery');
    return { ...deliveryView(d), attempt_log: (await this.ctx.history.getAttempts(deliveryId)).map(attemptView) };
  }

  async redeliver(companyId: string, subscriptionId: string, deliveryId: string) {
    subs.findSubscription(this.ctx, companyId, subscriptionId);
    const d = this.ctx.history.getDelivery(deliveryId);
    if (!d || d.company_id !== companyId || d.subscription_id !== subscriptionId) throw notFound('delivery');
    // An imported record names a real subscription, but its body was made elsewhere:
    // sending it would sign a stranger's body with this subscription's live secret.
    if (d.imported || this.ctx.history.getEvent(d.event_id)?.imported) throw importedDelivery();
    if (this.ctx.store.subscriptions.get(subscriptionId)?.status === 'disabled') throw health.disabledError();
    const updated = await this.ctx.outbox.redeliver(deliveryId);
    this.ctx.bus.emit({
      kind: 'delivery',
      company_id: updated.company_id,
      id: updated.id,
      subscription_id: updated.subscription_id,
      status: 'pending',
      document_id: updated.document_id,
    });
    return deliveryView(updated);
  }

  // Documents
  getDocument = (companyId: string, id: string) => docs.findDocument(this.ctx, companyId, id);
  documentView = (companyId: string, id: string) => documentView(docs.findDocument(this.ctx, companyId, id), this.ctx.appUrl());
  /** The same view as JSON bytes, or undefined where documentView would throw (the hot read's fast path). */
  readonly peekDocumentJson: (companyId: string, id: string) => Buffer | undefined;
  updateDocument = (companyId: string, id: string, patch: docs.DocumentPatch) => docs.updateDocument(this.ctx, companyId, id, patch);
  remind = (companyId: string, id: string) => docs.remind(this.ctx, companyId, id);
  createDocument = (companyId: string, input: docs.NewDocument) => docs.createDocument(this.ctx, companyId, input);
  transition = (companyId: string, id: string, action: Action, recipientId?: string) =>
    docs.transition(this.ctx, companyId, id, action, recipientId);
  listDocuments = (companyId: string, query: docs.DocumentQuery) => docs.listDocuments(this.ctx, companyId, query);
  allowedActions = (companyId: string, id: string) => allowedActions(docs.findDocument(this.ctx, companyId, id));
  listNotifications = (companyId: string, documentId?: string) => docs.listNotifications(this.ctx, companyId, documentId);
  documentTimeline = (companyId: string, documentId: string) => docs.documentTimeline(this.ctx, companyId, documentId);
}
