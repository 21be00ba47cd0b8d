// The shape every stored record must have to be loaded (schema.ts says what each
// holds). data.json and the journal are files a person or another program can change;
// a record that does not fit is set aside at open (recovery.ts) rather than reaching
// code that trusts it (a document without recipients crashed the fast read path).
// Fields added by later versions are kept as they are (loose objects).
import { z } from 'zod';
import { DOCUMENT_STATUSES, EVENT_TYPES } from '@shared/api-types.js';
import type { Collection } from './journal-line.js';

const str = z.string();
const id = z.string().min(1);
const time = z.string();
const eventType = z.enum(EVENT_TYPES);

const recipient = z.looseObject({
  public_id: id,
  name: str,
  email: str,
  role: str,
  status: z.enum(['pending', 'viewed', 'completed', 'declined']),
  completed_at: z.string().nullable(),
});

export const RECORD_SCHEMAS: Record<Collection, z.ZodType> = {
  companies: z.looseObject({ id, name: str, created_at: time }),
  users: z.looseObject({ id, company_id: id, role: z.enum(['admin', 'member']), name: str, created_at: time }),
  api_keys: z.looseObject({
    id,
    user_id: id,
    company_id: id,
    role: z.enum(['admin', 'member']),
    hash: id,
    hint: str,
    label: str,
    created_at: time,
  }),
  subscriptions: z.looseObject({ public_id: id, company_id: id, url: str, type: str, status: str, created_at: time, secret_key: id }),
  documents: z.looseObject({
    public_id: id,
    company_id: id,
    title: str,
    status: z.enum(DOCUMENT_STATUSES),
    recipients: z.array(recipient),
    metadata: z.record(z.string(), z.unknown()),
    created_at: time,
    updated_at: time,
  }),
  pending_events: z.looseObject({ id, company_id: id, type: eventType, timestamp: time, document_id: z.string().nullable(), body: str }),
  pending_deliveries: z.looseObject({
    id,
    event_id: id,
    subscription_id: id,
    company_id: id,
    event_type: eventType,
    document_id: z.string().nullable(),
    created_at: time,
  }),
  notifications: z.looseObject({
    id,
    company_id: id,
    document_id: id,
    recipient_id: str,
    name: str,
    email: str,
    kind: str,
    created_at: time,
  }),
};

/** Why `record` cannot be loaded into `collection`, or null when it can. */
export function recordProblem(collection: Collection, record: unknown): string | null {
  const r = RECORD_SCHEMAS[collection].safeParse(record);
  if (r.success) return null;
  return r.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(the record)'}: ${i.message}`)
    .join('; ');
}
