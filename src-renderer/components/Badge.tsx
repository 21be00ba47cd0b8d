// Status pills. The text is always the status itself (colour only repeats it).
import type { DeliveryStatus, DocumentStatus, RecipientStatus, SubscriptionStatus } from '@shared/api-types.js';

const DOC_LABEL: Record<DocumentStatus, string> = {
  DRAFT: 'Draft',
  OUT_FOR_SIGNATURE: 'Out for signature',
  COMPLETED: 'Completed',
  DECLINED: 'Declined',
  EXPIRED: 'Expired',
  VOIDED: 'Voided',
};
const DOC_TONE: Record<DocumentStatus, string> = {
  DRAFT: 'neutral',
  OUT_FOR_SIGNATURE: 'info',
  COMPLETED: 'success',
  DECLINED: 'danger',
  EXPIRED: 'warning',
  VOIDED: 'muted',
};

export const documentStatusLabel = (s: DocumentStatus) => DOC_LABEL[s] ?? s;

export function DocumentStatusBadge({ status }: { status: DocumentStatus }) {
  return <span className={`badge badge-${DOC_TONE[status] ?? 'neutral'}`}>{DOC_LABEL[status] ?? status}</span>;
}

const REC_TONE: Record<RecipientStatus, string> = { pending: 'neutral', viewed: 'info', completed: 'success', declined: 'danger' };

export function RecipientStatusBadge({ status }: { status: RecipientStatus }) {
  return <span className={`badge badge-${REC_TONE[status] ?? 'neutral'}`}>{status}</span>;
}

/**
 * A delivery's state in one word and one colour, the same everywhere (the inspector's
 * list and its chart legend, the document timeline, the webhooks list, a subscription's
 * log): waiting for its next try after a failed one is "retrying" (amber), not yet tried
 * is "not sent yet" (grey).
 */
export function deliveryState(status: DeliveryStatus | string, attempts: number): { word: string; tone: string } {
  switch (status) {
    case 'pending':
      return attempts > 0 ? { word: 'retrying', tone: 'warning' } : { word: 'not sent yet', tone: 'neutral' };
    case 'succeeded':
      return { word: 'succeeded', tone: 'success' };
    case 'failed':
      return { word: 'failed', tone: 'danger' };
    default:
      return { word: status, tone: 'muted' };
  }
}

export function DeliveryStatusBadge({ status, attempts, code }: { status: DeliveryStatus; attempts: number; code?: number | null }) {
  const { word, tone } = deliveryState(status, attempts);
  return (
    <span className={`badge badge-${tone}`}>
      {word}
      {code != null ? ` · ${code}` : ''}
    </span>
  );
}

const SUB_TONE: Record<SubscriptionStatus, string> = { enabled: 'success', disabled: 'danger' };

export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  return <span className={`badge badge-${SUB_TONE[status] ?? 'neutral'}`}>{status}</span>;
}

export function Badge({ tone = 'neutral', children }: { tone?: string; children: React.ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
