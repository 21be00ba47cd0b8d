// Documents: the list (console API: the contract has no list route), one document
// (service API), its timeline and the actions its status allows, and the changes.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AllowedActions, Document, DocumentAction, Page, RemindResult, TimelineEvent } from '@shared/api-types.js';
import { consoleApi, PAGE_SIZE, serviceApi } from './client.js';
import { documentKeys, notificationKeys, type DocumentListFilter } from './keys.js';
import { useRefreshingMutation } from './refreshing-mutation.js';

const enc = encodeURIComponent;

export const documentListQuery = (f: DocumentListFilter) =>
  queryOptions({
    queryKey: documentKeys.list(f),
    queryFn: ({ signal }) => consoleApi<Page<Document>>('/documents', { signal, query: { ...f, limit: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

export const documentQuery = (id: string) =>
  queryOptions({
    queryKey: documentKeys.doc(id),
    queryFn: ({ client, signal }) => serviceApi<Document>(`/documents/${enc(id)}`, { client, signal }),
  });

export const timelineQuery = (id: string) =>
  queryOptions({
    queryKey: documentKeys.timeline(id),
    queryFn: ({ signal }) => consoleApi<{ data: TimelineEvent[] }>(`/documents/${enc(id)}/timeline`, { signal }).then((r) => r.data),
  });

export const actionsQuery = (id: string) =>
  queryOptions({
    queryKey: documentKeys.actions(id),
    queryFn: ({ signal }) => consoleApi<AllowedActions>(`/documents/${enc(id)}/actions`, { signal }),
  });

export interface NewDocumentInput {
  title: string;
  recipients: { name: string; email: string }[];
  metadata?: Record<string, unknown>;
}

export const useCreateDocument = () =>
  useRefreshingMutation({
    mutationFn: (input: NewDocumentInput, client) =>
      serviceApi<Document>('/v2/test_helpers/documents', { client, method: 'POST', body: input }),
    write: (qc, doc) => qc.setQueryData(documentKeys.doc(doc.public_id), doc),
    stale: () => [documentKeys.lists()],
  });

export const useTransition = (documentId: string) =>
  useRefreshingMutation({
    mutationFn: ({ action, recipientId }: { action: DocumentAction; recipientId?: string }, client) =>
      serviceApi<Document>(`/v2/test_helpers/documents/${enc(documentId)}/${action}`, {
        client,
        method: 'POST',
        body: recipientId ? { recipient_id: recipientId } : {},
      }),
    write: (qc, doc) => qc.setQueryData(documentKeys.doc(documentId), doc),
    stale: () => [documentKeys.all, notificationKeys.all],
  });

export const useUpdateDocument = (documentId: string) =>
  useRefreshingMutation({
    mutationFn: (patch: { title?: string; metadata?: Record<string, unknown> }, client) =>
      serviceApi<Document>(`/documents/${enc(documentId)}`, { client, method: 'PUT', body: patch }),
    write: (qc, doc) => qc.setQueryData(documentKeys.doc(documentId), doc),
    stale: () => [documentKeys.all],
  });

export const useRemind = (documentId: string) =>
  useRefreshingMutation({
    mutationFn: (_: void, client) => serviceApi<RemindResult>(`/documents/${enc(documentId)}/remind`, { client, method: 'POST' }),
    stale: () => [documentKeys.detail(documentId), notificationKeys.all],
  });
