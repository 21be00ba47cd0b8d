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

const DEL_TONE: Record<DeliveryStatus, string> = {
  pending: 'warning',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'muted',
  skipped: 'muted',
};

export function DeliveryStatusBadge({ status, code }: { status: DeliveryStatus; code?: number | null }) {
  return (
    <span className={`badge badge-${DEL_TONE[status] ?? 'neutral'}`}>
      {status}
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
