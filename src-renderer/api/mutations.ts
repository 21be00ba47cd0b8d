// Mutations: each resolves only after the queries it affects have been refetched
// (awaiting invalidation of their key prefix), so a screen never shows the old state
// right after a success message.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { consoleApi, serviceApi } from './client.js';
import { qk } from './keys.js';
import type {
  CreatedApiKey,
  CreatedSubscription,
  Delivery,
  Document,
  DocumentAction,
  RemindResult,
  SubscriptionType,
  TestEventResult,
} from '@shared/api-types.js';

const enc = encodeURIComponent;

export interface NewDocumentInput {
  title: string;
  recipients: { name: string; email: string }[];
  metadata?: Record<string, unknown>;
}

export function useCreateDocument() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: NewDocumentInput) => serviceApi<Document>('/v2/test_helpers/documents', { method: 'POST', body: input }),
    onSuccess: async (doc) => {
      qc.setQueryData(qk.documents.doc(doc.public_id), doc);
      await qc.invalidateQueries({ queryKey: qk.documents.lists() });
    },
  });
}

export function useTransition(documentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ action, recipientId }: { action: DocumentAction; recipientId?: string }) =>
      serviceApi<Document>(`/v2/test_helpers/documents/${enc(documentId)}/${action}`, {
        method: 'POST',
        body: recipientId ? { recipient_id: recipientId } : {},
      }),
    onSuccess: async (doc) => {
      qc.setQueryData(qk.documents.doc(documentId), doc);
      await Promise.all([qc.invalidateQueries({ queryKey: qk.documents.all }), qc.invalidateQueries({ queryKey: qk.notifications.all })]);
    },
  });
}

export function useUpdateDocument(documentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: { title?: string; metadata?: Record<string, unknown> }) =>
      serviceApi<Document>(`/documents/${enc(documentId)}`, { method: 'PUT', body: patch }),
    onSuccess: async (doc) => {
      qc.setQueryData(qk.documents.doc(documentId), doc);
      await qc.invalidateQueries({ queryKey: qk.documents.all });
    },
  });
}

export function useRemind(documentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => serviceApi<RemindResult>(`/documents/${enc(documentId)}/remind`, { method: 'POST' }),
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: qk.documents.detail(documentId) }),
        qc.invalidateQueries({ queryKey: qk.notifications.all }),
      ]);
    },
  });
}

export function useCreateSubscription() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { url: string; type: SubscriptionType }) =>
      serviceApi<CreatedSubscription>('/v2/webhooks', { method: 'POST', body: input }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: qk.webhooks.lists() });
    },
  });
}

export function useDeleteSubscription() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => serviceApi<void>(`/v2/webhooks/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: async (_v, id) => {
      qc.removeQueries({ queryKey: qk.webhooks.detail(id) });
      await qc.invalidateQueries({ queryKey: qk.webhooks.lists() });
    },
  });
}

export function useSendTestEvent(subscriptionId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => serviceApi<TestEventResult>(`/v2/webhooks/${enc(subscriptionId)}/test`, { method: 'POST' }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: qk.webhooks.deliveries(subscriptionId) });
    },
  });
}

export function useRedeliver(subscriptionId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      serviceApi<Delivery>(`/v2/webhooks/${enc(subscriptionId)}/deliveries/${enc(deliveryId)}/redeliver`, { method: 'POST' }),
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: qk.webhooks.deliveries(subscriptionId) }),
        qc.invalidateQueries({ queryKey: qk.documents.all }),
      ]);
    },
  });
}

export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { role: 'admin' | 'member'; label?: string }) =>
      consoleApi<CreatedApiKey>('/api-keys', { method: 'POST', body: input }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: qk.apiKeys.all });
    },
  });
}

export function useRevokeApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => consoleApi<void>(`/api-keys/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: qk.apiKeys.all });
    },
  });
}
