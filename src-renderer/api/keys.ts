// Hierarchical query keys: invalidating a prefix refreshes everything under it
// (e.g. documents.detail(id) covers the document, its timeline and its actions).
import type { DocumentStatus } from '@shared/api-types.js';

export interface DocumentListFilter {
  status?: DocumentStatus;
  q?: string;
  starting_after?: string;
}

export const qk = {
  session: ['session'] as const,
  status: ['status'] as const,
  documents: {
    all: ['documents'] as const,
    lists: () => ['documents', 'list'] as const,
    list: (f: DocumentListFilter) => ['documents', 'list', f] as const,
    detail: (id: string) => ['documents', 'detail', id] as const,
    doc: (id: string) => ['documents', 'detail', id, 'doc'] as const,
    timeline: (id: string) => ['documents', 'detail', id, 'timeline'] as const,
    actions: (id: string) => ['documents', 'detail', id, 'actions'] as const,
  },
  webhooks: {
    all: ['webhooks'] as const,
    lists: () => ['webhooks', 'list'] as const,
    list: (startingAfter?: string) => ['webhooks', 'list', { starting_after: startingAfter }] as const,
    detail: (id: string) => ['webhooks', 'detail', id] as const,
    sub: (id: string) => ['webhooks', 'detail', id, 'sub'] as const,
    deliveries: (id: string) => ['webhooks', 'detail', id, 'deliveries'] as const,
    deliveryPage: (id: string, limit: number, startingAfter?: string) =>
      ['webhooks', 'detail', id, 'deliveries', 'page', { limit, starting_after: startingAfter }] as const,
    delivery: (id: string, deliveryId: string) => ['webhooks', 'detail', id, 'deliveries', 'one', deliveryId] as const,
  },
  apiKeys: { all: ['api-keys'] as const },
  notifications: {
    all: ['notifications'] as const,
    list: (f: { document_id?: string; starting_after?: string }) => ['notifications', 'list', f] as const,
  },
};
