// The document state machine of docs/api.md section 10, as data: which action is
// allowed from which status, and which events it causes. Pure: no store, no I/O.
import type { DocumentRecord } from '../store/schema.js';
import type { DeepReadonly } from '../store/table.js';
import { DOCUMENT_ACTIONS, type AllowedActions, type DocumentAction } from '@shared/api-types.js';
import type { DocumentStatus, EventType, Recipient } from '@shared/api-types.js';

export const ACTIONS = DOCUMENT_ACTIONS;
export type Action = DocumentAction;
export const RECIPIENT_ACTIONS: ReadonlySet<Action> = new Set(['view', 'complete', 'decline']);

const ALLOWED_FROM: Record<Action, DocumentStatus[]> = {
  send: ['DRAFT'],
  view: ['OUT_FOR_SIGNATURE'],
  complete: ['OUT_FOR_SIGNATURE'],
  decline: ['OUT_FOR_SIGNATURE'],
  expire: ['OUT_FOR_SIGNATURE'],
  void: ['DRAFT', 'OUT_FOR_SIGNATURE'],
};

/** Which recipient states each recipient action accepts. */
const RECIPIENT_FROM: Partial<Record<Action, Recipient['status'][]>> = {
  view: ['pending', 'viewed'],
  complete: ['pending', 'viewed'],
  decline: ['pending', 'viewed'],
};

export type Refusal =
  { reason: 'document'; status: DocumentStatus } | { reason: 'recipient'; status: DocumentStatus; recipient_status: Recipient['status'] };

export function isAllowed(action: Action, doc: DeepReadonly<DocumentRecord>, recipient?: DeepReadonly<Recipient>): Refusal | null {
  if (!ALLOWED_FROM[action].includes(doc.status)) return { reason: 'document', status: doc.status };
  const from = RECIPIENT_FROM[action];
  if (from && recipient && !from.includes(recipient.status))
    return { reason: 'recipient', status: doc.status, recipient_status: recipient.status };
  return null;
}

/**
 * Applies an allowed action to the document (edits it: pass the draft of a store
 * update, and `recipient` from that draft) and returns the events it causes, in order.
 */
export function apply(action: Action, doc: DocumentRecord, at: string, recipient?: Recipient): EventType[] {
  doc.updated_at = at;
  switch (action) {
    case 'send':
      doc.status = 'OUT_FOR_SIGNATURE';
      return ['document.sent'];
    case 'view':
      recipient!.status = 'viewed';
      return ['document.viewed'];
    case 'complete': {
      recipient!.status = 'completed';
      recipient!.completed_at = at;
      if (doc.recipients.every((r) => r.role !== 'signer' || r.status === 'completed')) {
        doc.status = 'COMPLETED';
        return ['document.recipient_completed', 'document.completed'];
      }
      return ['document.recipient_completed'];
    }
    case 'decline':
      recipient!.status = 'declined';
      doc.status = 'DECLINED';
      return ['document.declined'];
    case 'expire':
      doc.status = 'EXPIRED';
      return ['document.expired'];
    case 'void':
      doc.status = 'VOIDED';
      return ['document.voided'];
  }
}

/** The actions a console may offer for this document (and for each recipient). */
export function allowedActions(doc: DeepReadonly<DocumentRecord>): AllowedActions {
  const documentActions = (['send', 'expire', 'void'] as Action[]).filter((a) => !isAllowed(a, doc));
  const recipients: Record<string, Action[]> = {};
  for (const r of doc.recipients)
    recipients[r.public_id] = (['view', 'complete', 'decline'] as Action[]).filter((a) => !isAllowed(a, doc, r));
  return { document: documentActions, recipients };
}
