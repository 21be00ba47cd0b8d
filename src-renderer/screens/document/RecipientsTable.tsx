// Recipients and their states, with the actions that play each recipient (view,
// complete, decline), offered only where that recipient may take them. Decline cannot be
// undone, so it asks first, like the document's Void; after an action focus goes to the
// table (the button that had it may be gone).
import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { Truncated } from '../../components/Truncated.js';
import { useTransition } from '../../api/documents.js';
import type { AllowedActions, Document, DocumentAction } from '@shared/api-types.js';
import { RecipientStatusBadge } from '../../components/Badge.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Time } from '../../components/Time.js';

const LABEL: Partial<Record<DocumentAction, string>> = { view: 'View', complete: 'Sign', decline: 'Decline' };

export function RecipientsTable({ doc, allowed }: { doc: Document; allowed: AllowedActions | undefined }) {
  const transition = useTransition(doc.public_id);
  const [declining, setDeclining] = useState<{ id: string; name: string } | null>(null);
  const table = useRef<HTMLDivElement>(null);
  const act = (action: DocumentAction, recipientId: string, done?: () => void) =>
    transition.mutate(
      { action, recipientId },
      {
        onSuccess: () => {
          done?.();
          // After the dialog has closed and given focus back to a button that may vanish.
          setTimeout(() => table.current?.focus(), 0);
        },
      },
    );
  return (
    <>
      <div ref={table} tabIndex={-1} className="focus-target" aria-label="Recipients">
        <DataTable caption="Recipients" columns={['Name', 'Email', 'Status', { label: 'Completed', secondary: true }]} actions>
          {doc.recipients.map((r) => {
            const actions = allowed?.recipients[r.public_id] ?? [];
            return (
              <tr key={r.public_id}>
                <td>{r.name}</td>
                <td className="cell-muted">
                  <Truncated text={r.email} />
                </td>
                <td>
                  <RecipientStatusBadge status={r.status} />
                </td>
                <td className="cell-muted col-secondary">
                  <Time iso={r.completed_at} />
                </td>
                <td className="cell-actions">
                  {actions.map((a) => (
                    <button
                      key={a}
                      type="button"
                      className={a === 'decline' ? 'btn btn-small btn-ghost-danger' : 'btn btn-small'}
                      disabled={transition.isPending}
                      aria-label={`${LABEL[a] ?? a} as ${r.name}`}
                      onClick={() => (a === 'decline' ? setDeclining({ id: r.public_id, name: r.name }) : act(a, r.public_id))}
                    >
                      {LABEL[a] ?? a}
                    </button>
                  ))}
                </td>
              </tr>
            );
          })}
        </DataTable>
      </div>
      {transition.error != null && !declining && <ErrorNotice error={transition.error} />}
      {declining && (
        <ConfirmDialog
          title={`Decline as ${declining.name}?`}
          confirmLabel="Decline"
          busy={transition.isPending}
          error={transition.error}
          onCancel={() => {
            setDeclining(null);
            transition.reset();
          }}
          onConfirm={() => act('decline', declining.id, () => setDeclining(null))}
        >
          {declining.name} declines to sign: the document is declined and no recipient can sign it any more.
        </ConfirmDialog>
      )}
    </>
  );
}
