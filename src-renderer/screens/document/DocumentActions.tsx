// What can be done to the document as a whole: the reminder (contract route) and the
// web application's own actions (send, expire, void, through the test helpers). Each is
// offered only where the document's status allows it; a refused one says why.
import { useState } from 'react';
import { useRemind, useTransition } from '../../api/documents.js';
import type { AllowedActions, Document, DocumentAction } from '@shared/api-types.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';
import { isRemote, useConnection } from '../../api/connection.js';

const WHY_NOT: Record<Document['status'], string> = {
  DRAFT: 'This one is still a draft: send it for signature first.',
  OUT_FOR_SIGNATURE: '',
  COMPLETED: 'This one is already completed.',
  DECLINED: 'This one was declined.',
  EXPIRED: 'This one has expired.',
  VOIDED: 'This one was voided.',
};

const DOC_ACTIONS: { action: DocumentAction; label: string; confirm?: string }[] = [
  { action: 'send', label: 'Send for signature' },
  { action: 'expire', label: 'Expire', confirm: 'The document will expire: no recipient can sign it any more.' },
  { action: 'void', label: 'Void', confirm: 'The document will be voided: no recipient can sign it any more.' },
];

export function DocumentActions({ doc, allowed }: { doc: Document; allowed: AllowedActions | undefined }) {
  const remote = isRemote(useConnection());
  const remind = useRemind(doc.public_id);
  const transition = useTransition(doc.public_id);
  const [confirming, setConfirming] = useState<(typeof DOC_ACTIONS)[number] | null>(null);
  const canRemind = doc.status === 'OUT_FOR_SIGNATURE';
  const reasonId = `remind-reason-${doc.public_id}`;
  const offered = DOC_ACTIONS.filter((a) => allowed?.document.includes(a.action));

  return (
    <div className="actions-panel">
      <div className="action-row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={!canRemind || remind.isPending}
          aria-describedby={canRemind ? undefined : reasonId}
          onClick={() => remind.mutate()}
        >
          {remind.isPending ? 'Sending…' : 'Send reminder'}
        </button>
        {!canRemind && (
          <p id={reasonId} className="action-reason">
            Reminders can be sent only while the document is out for signature. {WHY_NOT[doc.status]}
          </p>
        )}
        {remind.isSuccess && (
          <p role="status" className="action-result">
            Reminder sent to {remind.data.reminded.length} {remind.data.reminded.length === 1 ? 'recipient' : 'recipients'}.{' '}
            {!remote && <Link to={linkTo.notifications(doc.public_id)}>See notifications</Link>}
          </p>
        )}
      </div>
      {remind.error != null && <ErrorNotice error={remind.error} title="The reminder was not sent." />}
      {offered.length > 0 && (
        <div className="action-row">
          {offered.map((a) => (
            <button
              key={a.action}
              type="button"
              className={a.action === 'send' ? 'btn' : 'btn btn-ghost-danger'}
              disabled={transition.isPending}
              onClick={() => (a.confirm ? setConfirming(a) : transition.mutate({ action: a.action }))}
            >
              {a.label}
            </button>
          ))}
        </div>
      )}
      {offered.length === 0 && allowed && <p className="subtle">No further document actions in this status.</p>}
      {transition.error != null && !confirming && <ErrorNotice error={transition.error} />}
      {confirming && (
        <ConfirmDialog
          title={`${confirming.label} this document?`}
          confirmLabel={confirming.label}
          busy={transition.isPending}
          error={transition.error}
          onCancel={() => {
            setConfirming(null);
            transition.reset();
          }}
          onConfirm={() => transition.mutate({ action: confirming.action }, { onSuccess: () => setConfirming(null) })}
        >
          {confirming.confirm}
        </ConfirmDialog>
      )}
    </div>
  );
}
