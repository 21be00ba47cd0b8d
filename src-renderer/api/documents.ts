// Documents: the list (console API: the contract has no list route), one document
// (service API, on the current connection), its timeline and the actions its status
// allows (built-in service only), and the changes.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AllowedActions, Document, DocumentAction, Page, RemindResult, TimelineEvent } from '@shared/api-types.js';
import { consoleApi, PAGE_SIZE, serviceApi } from './client.js';
import { currentConnectionId } from './connection.js';
import { documentKeys, LOCAL_CONNECTION, notificationKeys, type DocumentListFilter } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

const enc = encodeURIComponent;
const L = LOCAL_CONNECTION;

export const documentListQuery = (f: DocumentListFilter) =>
  queryOptions({
    queryKey: documentKeys.list(f, L),
    queryFn: ({ signal }) => consoleApi<Page<Document>>('/documents', { signal, query: { ...f, limit: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

export const documentQuery = (id: string, connection = currentConnectionId()) =>
  queryOptions({
    queryKey: documentKeys.doc(id, connection),
    queryFn: ({ client, signal }) => serviceApi<Document>(`/documents/${enc(id)}`, { client, signal, connection }),
  });

export const timelineQuery = (id: string) =>
  queryOptions({
    queryKey: documentKeys.timeline(id, L),
    queryFn: ({ signal }) => consoleApi<{ data: TimelineEvent[] }>(`/documents/${enc(id)}/timeline`, { signal }).then((r) => r.data),
  });

export const actionsQuery = (id: string) =>
  queryOptions({
    queryKey: documentKeys.actions(id, L),
    queryFn: ({ signal }) => consoleApi<AllowedActions>(`/documents/${enc(id)}/actions`, { signal }),
  });

export interface NewDocumentInput {
  title: string;
  recipients: { name: string; email: string }[];
  metadata?: Record<string, unknown>;
}

/** Test helpers: the built-in service only. */
export const useCreateDocument = () =>
  useRefreshingMutation({
    mutationFn: (input: NewDocumentInput, client) =>
      serviceApi<Document>('/v2/test_helpers/documents', { client, connection: L, method: 'POST', body: input }),
    write: (qc, doc) => qc.setQueryData(documentKeys.doc(doc.public_id, L), doc),
    stale: () => [documentKeys.lists(L)],
  });

/** Test helpers: the built-in service only. */
export const useTransition = (documentId: string) =>
  useRefreshingMutation({
    mutationFn: ({ action, recipientId }: { action: DocumentAction; recipientId?: string }, client) =>
      serviceApi<Document>(`/v2/test_helpers/documents/${enc(documentId)}/${action}`, {
        client,
        connection: L,
        method: 'POST',
        body: recipientId ? { recipient_id: recipientId } : {},
      }),
    write: (qc, doc) => qc.setQueryData(documentKeys.doc(documentId, L), doc),
    stale: () => [documentKeys.scope(L), notificationKeys.all],
  });

export const useUpdateDocument = (documentId: string) => {
  const connection = currentConnectionId();
  return useRefreshingMutation({
    mutationFn: (patch: { title?: string; metadata?: Record<string, unknown> }, client) =>
      serviceApi<Document>(`/documents/${enc(documentId)}`, { client, connection, method: 'PUT', body: patch }),
    write: (qc, doc) => qc.setQueryData(documentKeys.doc(documentId, connection), doc),
    stale: () => [documentKeys.scope(connection)],
  });
};

export const useRemind = (documentId: string) => {
  const connection = currentConnectionId();
  return useRefreshingMutation({
    mutationFn: (_: void, client) =>
      serviceApi<RemindResult>(`/documents/${enc(documentId)}/remind`, { client, connection, method: 'POST' }),
    stale: () => [documentKeys.detail(documentId, connection), notificationKeys.all],
  });
};
