// The shapes the console reads: CONTRACT.md's public objects, plus what the console
// API adds (document list, timeline, keys, notifications, status).

export const DOCUMENT_STATUSES = ['DRAFT', 'OUT_FOR_SIGNATURE', 'COMPLETED', 'DECLINED', 'EXPIRED', 'VOIDED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const EVENT_TYPES = [
  'document.created',
  'document.sent',
  'document.viewed',
  'document.recipient_completed',
  'document.completed',
  'document.declined',
  'document.expired',
  'document.voided',
  'document.updated',
  'document.reminded',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type SubscriptionType = 'all' | EventType;

export type RecipientStatus = 'pending' | 'viewed' | 'completed' | 'declined';

export interface Recipient {
  public_id: string;
  name: string;
  email: string;
  role: 'signer';
  status: RecipientStatus;
  completed_at: string | null;
}

export interface Document {
  public_id: string;
  title: string;
  status: DocumentStatus;
  recipients: Recipient[];
  metadata: Record<string, unknown>;
  url: string;
  created_at: string;
  updated_at: string;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

export interface Subscription {
  public_id: string;
  url: string;
  type: SubscriptionType;
  status: 'enabled';
  created_at: string;
}

export interface CreatedSubscription extends Subscription {
  secret_key: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface Delivery {
  id: string;
  event_id: string;
  event_type: EventType;
  subscription_id: string;
  document_id: string | null;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  next_attempt_at: string | null;
}

export interface Attempt {
  delivery_id: string;
  subscription_id: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  request: { method: 'POST'; url: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: Record<string, string>; body: string; truncated: boolean } | null;
  error: string | null;
  succeeded: boolean;
  next_attempt_at: string | null;
}

/** GET /v2/webhooks/{id}/deliveries/{delivery_id}: the summary with every attempt. */
export type DeliveryWithAttempts = Delivery & { attempt_log: Attempt[] };

export interface TimelineEvent {
  id: string;
  type: EventType;
  timestamp: string;
  deliveries: Delivery[];
}

export type DocumentAction = 'send' | 'view' | 'complete' | 'decline' | 'expire' | 'void';

export interface AllowedActions {
  document: DocumentAction[];
  recipients: Record<string, DocumentAction[]>;
}

export interface RemindResult {
  document_id: string;
  reminded: string[];
  reminded_at: string;
}

export interface ApiKey {
  id: string;
  role: 'admin' | 'member';
  label: string;
  hint: string;
  company?: { id: string; name: string };
  created_at: string;
  current_console?: boolean;
}

export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface Notification {
  id: string;
  document_id: string;
  recipient_id: string;
  name: string;
  email: string;
  kind: 'signature_request' | 'reminder';
  created_at: string;
  /** The document's title now (console API only); null if it is gone. */
  document_title: string | null;
}

export interface ConsoleSession {
  api_key: string;
  company_id: string;
  company_name: string;
}

export interface ConsoleStatus {
  warnings: string[];
  addresses: { api_url: string; app_url: string; receiver_url?: string };
  tunnel: unknown;
  deliveries_in_flight: number;
}

export interface TestEventResult {
  delivery_id: string;
  event_id: string;
  subscription_id: string;
  status: 'pending';
}
