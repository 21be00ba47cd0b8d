// The shapes kept in the main store file (data.json). Only live state lives here:
// what every write rewrites must stay small, so finished deliveries, their attempts
// and past events go to the history log (history-log.ts), never to this file.
import type { DocumentStatus, EventType, Notification as NotificationView, Recipient, Role, Subscription } from '@shared/api-types.js';

export interface Company {
  id: string; // co_…
  name: string;
  created_at: string;
}

export interface User {
  id: string; // usr_…
  company_id: string;
  role: Role;
  name: string;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string; // key_…
  user_id: string;
  company_id: string;
  role: Role;
  /** sha256 hex of the key; the key itself is never stored. */
  hash: string;
  /** Last 4 characters, so a person can tell keys apart. */
  hint: string;
  label: string;
  created_at: string;
}

/** The API's subscription, plus its owner and the secret it signs with. */
export interface SubscriptionRecord extends Subscription {
  company_id: string;
  /** Needed to sign; never returned by the API after creation (or rotation). */
  secret_key: string;
  /** Secrets replaced by a rotation, still signing (alongside the current one) until `expires_at` (ISO 8601). */
  previous_secrets?: { secret_key: string; expires_at: string }[];
  /** Since when every attempt has failed (ISO 8601); absent or null after a success. Endpoint health (delivery/endpoint-health.ts). */
  failing_since?: string | null;
}

export interface DocumentRecord {
  public_id: string; // doc_…
  company_id: string;
  title: string;
  status: DocumentStatus;
  recipients: Recipient[];
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** An event whose deliveries are not all finished. `body` is the exact JSON sent. */
export interface PendingEvent {
  id: string; // evt_…
  company_id: string;
  type: EventType;
  timestamp: string;
  document_id: string | null;
  body: string;
}

/**
 * A delivery still owed: what to send, and to whom. Its progress (attempts made, when
 * the next is due) is the history log's summary of it (delivery/outbox.ts says why);
 * rows written by older versions also carry `attempts` and `next_attempt_at`, ignored.
 */
export interface PendingDelivery {
  id: string; // msg_…, also the webhook-id header
  event_id: string;
  subscription_id: string;
  company_id: string;
  event_type: EventType;
  document_id: string | null;
  created_at: string;
}

/** A notification as the console API lists it, plus its owner; the document's title is looked up when listed. */
export interface Notification extends Omit<NotificationView, 'document_title'> {
  company_id: string;
}

export interface DbData {
  schema_version: 1;
  companies: Company[];
  users: User[];
  api_keys: ApiKeyRecord[];
  subscriptions: SubscriptionRecord[];
  documents: DocumentRecord[];
  pending_events: PendingEvent[];
  pending_deliveries: PendingDelivery[];
  /** Newest last; capped (NOTIFICATION_CAP), oldest dropped. */
  notifications: Notification[];
  /** Free-form state of other parts (receiver inboxes, settings), each under its own key. */
  extensions: Record<string, unknown>;
  /** Which journal generation continues this checkpoint (journal.ts). */
  journal_generation?: number;
}

export const NOTIFICATION_CAP = 5000;

export function emptyData(): DbData {
  return {
    schema_version: 1,
    companies: [],
    users: [],
    api_keys: [],
    subscriptions: [],
    documents: [],
    pending_events: [],
    pending_deliveries: [],
    notifications: [],
    extensions: {},
  };
}
