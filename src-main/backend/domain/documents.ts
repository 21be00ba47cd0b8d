// Documents (docs/api.md sections 8 and 9) and the test helpers that play recipients.
// Every change, its events and their pending deliveries land in one commit.
// Documents change only through the store's table (update), never in place.
import { newId } from '../ids.js';
import { ApiError, invalidStatus, notFound, validationError } from '../errors.js';
import { NOTIFICATION_CAP, type DocumentRecord, type Notification } from '../store/schema.js';
import type { DeepReadonly } from '../store/table.js';
import { nowIso, type DomainContext } from './context.js';
import { emitEvent } from './events.js';
import { apply, isAllowed, RECIPIENT_ACTIONS, type Action } from './lifecycle.js';
import { documentView } from './views.js';
import type { Change, DocumentStatus, EventType, Recipient } from '@shared/api-types.js';

type Doc = DeepReadonly<DocumentRecord>;

export function findDocument(ctx: DomainContext, companyId: string, id: string): Doc {
  const doc = ctx.store.documents.get(id);
  if (!doc || doc.company_id !== companyId) throw notFound('document');
  return doc;
}

/** What one operation changed, announced on the bus only once its commit succeeded. */
type Announce = Change[];

function emitFor(ctx: DomainContext, doc: Doc, type: EventType, announce: Announce): void {
  const data = { document: documentView(doc, ctx.appUrl()) };
  emitEvent(ctx, { company_id: doc.company_id, type, document_id: doc.public_id, data }, announce);
}

function notify(
  ctx: DomainContext,
  doc: Doc,
  kind: Notification['kind'],
  at: string,
  announce: Announce,
  recipients = doc.recipients,
): void {
  const table = ctx.store.notifications;
  for (const r of recipients) {
    const n = table.insert({
      id: newId('ntf'),
      company_id: doc.company_id,
      document_id: doc.public_id,
      recipient_id: r.public_id,
      name: r.name,
      email: r.email,
      kind,
      created_at: at,
    });
    announce.push({ kind: 'notification', company_id: doc.company_id, id: n.id, document_id: doc.public_id });
  }
  if (table.size <= NOTIFICATION_CAP) return;
  // The oldest go first (the table is in insertion order).
  const old: string[] = [];
  for (const n of table.values()) {
    if (old.length >= table.size - NOTIFICATION_CAP) break;
    old.push(n.id);
  }
  for (const id of old) table.remove(id);
}

/** Commits (the outbox hands the engine what is to be delivered), then announces. Returns the document's view. */
async function finish(ctx: DomainContext, doc: Doc, announce: Announce) {
  await ctx.store.commit();
  for (const change of announce) ctx.bus.emit(change);
  ctx.bus.emit({ kind: 'document', company_id: doc.company_id, id: doc.public_id });
  return documentView(doc, ctx.appUrl());
}

export interface DocumentPatch {
  title?: string;
  metadata?: Record<string, unknown>;
}

export async function updateDocument(ctx: DomainContext, companyId: string, id: string, patch: DocumentPatch) {
  const found = findDocument(ctx, companyId, id);
  const doc = ctx.store.documents.update(found.public_id, (d) => {
    if (patch.title !== undefined) d.title = patch.title;
    if (patch.metadata !== undefined) d.metadata = patch.metadata;
    d.updated_at = nowIso(ctx);
  })!;
  const announce: Announce = [];
  emitFor(ctx, doc, 'document.updated', announce);
  return finish(ctx, doc, announce);
}

export async function remind(ctx: DomainContext, companyId: string, id: string) {
  const doc = findDocument(ctx, companyId, id);
  if (doc.status !== 'OUT_FOR_SIGNATURE') throw invalidStatus(doc.status, 'send a reminder for');
  const at = nowIso(ctx);
  const targets = doc.recipients.filter((r) => r.status !== 'completed' && r.status !== 'declined');
  const announce: Announce = [];
  notify(ctx, doc, 'reminder', at, announce, targets);
  emitFor(ctx, doc, 'document.reminded', announce);
  await finish(ctx, doc, announce);
  return { document_id: doc.public_id, reminded: targets.map((r) => r.public_id), reminded_at: at };
}

export interface NewDocument {
  title: string;
  recipients: { name: string; email: string }[];
  metadata?: Record<string, unknown>;
}

export async function createDocument(ctx: DomainContext, companyId: string, input: NewDocument) {
  const at = nowIso(ctx);
  const doc = ctx.store.documents.insert({
    public_id: newId('doc'),
    company_id: companyId,
    title: input.title,
    status: 'DRAFT',
    recipients: input.recipients.map((r) => ({
      public_id: newId('rcp'),
      name: r.name,
      email: r.email,
      role: 'signer',
      status: 'pending',
      completed_at: null,
    })),
    metadata: input.metadata ?? {},
    created_at: at,
    updated_at: at,
  });
  const announce: Announce = [];
  emitFor(ctx, doc, 'document.created', announce);
  return finish(ctx, doc, announce);
}

export async function transition(ctx: DomainContext, companyId: string, id: string, action: Action, recipientId?: string) {
  const doc = findDocument(ctx, companyId, id);
  let recipient: DeepReadonly<Recipient> | undefined;
  if (RECIPIENT_ACTIONS.has(action)) {
    if (!recipientId) throw validationError([{ field: 'recipient_id', message: 'is required for this action' }]);
    recipient = doc.recipients.find((r) => r.public_id === recipientId);
    if (!recipient) throw validationError([{ field: 'recipient_id', message: 'is not a recipient of this document' }]);
  }
  const refusal = isAllowed(action, doc, recipient);
  if (refusal?.reason === 'document') throw invalidStatus(refusal.status, action);
  if (refusal?.reason === 'recipient') {
    throw new ApiError('invalid_document_status', `Cannot ${action} for a recipient whose status is ${refusal.recipient_status}.`, {
      status: refusal.status,
      recipient_status: refusal.recipient_status,
    });
  }
  const at = nowIso(ctx);
  let types: EventType[] = [];
  const changed = ctx.store.documents.update(doc.public_id, (d) => {
    types = apply(action, d, at, recipient && d.recipients.find((r) => r.public_id === recipient!.public_id));
  })!;
  const announce: Announce = [];
  if (action === 'send') notify(ctx, changed, 'signature_request', at, announce);
  for (const type of types) emitFor(ctx, changed, type, announce);
  return finish(ctx, changed, announce);
}

export interface DocumentQuery {
  status?: DocumentStatus;
  q?: string;
  limit: number;
  starting_after?: string;
}

/** Newest first; `q` matches title, id, recipient name or email, case-insensitively. */
export function listDocuments(ctx: DomainContext, companyId: string, query: DocumentQuery) {
  const q = query.q?.trim().toLowerCase();
  const matches = (d: Doc) =>
    d.company_id === companyId &&
    (!query.status || d.status === query.status) &&
    (!q ||
      d.title.toLowerCase().includes(q) ||
      d.public_id.toLowerCase() === q ||
      d.recipients.some((r) => r.name.toLowerCase().includes(q) || r.email.toLowerCase().includes(q)));
  const all = ctx.store.documents.all();
  let i = all.length - 1;
  if (query.starting_after) {
    const at = all.findIndex((d) => d.public_id === query.starting_after);
    if (at === -1 || all[at].company_id !== companyId)
      throw validationError([{ field: 'starting_after', message: 'is not a document of this company' }]);
    i = at - 1;
  }
  const data = [];
  for (; i >= 0 && data.length <= query.limit; i--) if (matches(all[i])) data.push(all[i]);
  const has_more = data.length > query.limit;
  return { data: data.slice(0, query.limit).map((d) => documentView(d, ctx.appUrl())), has_more };
}

export function listNotifications(ctx: DomainContext, companyId: string, documentId?: string) {
  return ctx.store.notifications.filter((n) => n.company_id === companyId && (!documentId || n.document_id === documentId)).reverse();
}

/** The document's events, oldest first, each with the deliveries it caused. */
export function documentTimeline(ctx: DomainContext, companyId: string, documentId: string) {
  findDocument(ctx, companyId, documentId);
  const deliveries = ctx.history.listDeliveries({ company_id: companyId, document_id: documentId }, { limit: 1000 }).data;
  return ctx.history.eventsForDocument(companyId, documentId).map((e) => ({
    id: e.id,
    type: e.type,
    timestamp: e.timestamp,
    deliveries: deliveries.filter((d) => d.event_id === e.id).reverse(),
  }));
}
