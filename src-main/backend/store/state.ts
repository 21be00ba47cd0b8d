// The store's state in memory: one table per collection plus the extensions, built
// from data.json and the journal at open (and again after a failed write), and turned
// back into data.json's shape for a checkpoint.
import type { ChangeSet } from './journal.js';
import type { Collection } from './journal-line.js';
import { MemApiKeyTable, MemExtensions, MemTable } from './table.js';
import type {
  ApiKeyRecord,
  Company,
  DbData,
  DocumentRecord,
  Notification,
  PendingDelivery,
  PendingEvent,
  SubscriptionRecord,
  User,
} from './schema.js';

export const COLLECTIONS: readonly Collection[] = [
  'companies',
  'users',
  'api_keys',
  'subscriptions',
  'documents',
  'pending_events',
  'pending_deliveries',
  'notifications',
];

/** Records whose fields are all plain values are copied field by field. */
const flat = <T extends object>(row: T): T => ({ ...row });
const copyDocument = (d: DocumentRecord): DocumentRecord => ({
  ...d,
  recipients: d.recipients.map(flat),
  metadata: structuredClone(d.metadata),
});

export class StoreState {
  readonly tables;
  readonly extensions: MemExtensions;

  constructor(changes: ChangeSet) {
    this.tables = {
      companies: new MemTable<Company>('companies', 'id', changes, flat),
      users: new MemTable<User>('users', 'id', changes, flat),
      api_keys: new MemApiKeyTable<ApiKeyRecord>('api_keys', 'id', changes, flat),
      subscriptions: new MemTable<SubscriptionRecord>('subscriptions', 'public_id', changes, flat),
      documents: new MemTable<DocumentRecord>('documents', 'public_id', changes, copyDocument),
      pending_events: new MemTable<PendingEvent>('pending_events', 'id', changes, flat),
      pending_deliveries: new MemTable<PendingDelivery>('pending_deliveries', 'id', changes, flat),
      notifications: new MemTable<Notification>('notifications', 'id', changes, flat),
    };
    this.extensions = new MemExtensions(changes);
  }

  rowCount(): number {
    let n = 0;
    for (const c of COLLECTIONS) n += this.tables[c].size;
    return n;
  }

  /** Takes `data` (as read and replayed) as the whole state; the tables keep its records. */
  load(data: DbData): void {
    for (const c of COLLECTIONS) (this.tables[c] as MemTable<object>).load(data[c] as object[]);
    this.extensions.load(data.extensions);
  }

  /** The state in data.json's shape (the stored records, not copies: serialise it at once). */
  snapshot(generation: number): DbData {
    const t = this.tables;
    return {
      schema_version: 1,
      companies: t.companies.snapshot(),
      users: t.users.snapshot(),
      api_keys: t.api_keys.snapshot(),
      subscriptions: t.subscriptions.snapshot(),
      documents: t.documents.snapshot(),
      pending_events: t.pending_events.snapshot(),
      pending_deliveries: t.pending_deliveries.snapshot(),
      notifications: t.notifications.snapshot(),
      extensions: this.extensions.snapshot(),
      journal_generation: generation,
    };
  }
}
