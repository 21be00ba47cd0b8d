// Recipients and their states, with the actions that play each recipient (view,
// complete, decline), offered only where that recipient may take them.
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
  return (
    <>
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
                    onClick={() => transition.mutate({ action: a, recipientId: r.public_id })}
                  >
                    {LABEL[a] ?? a}
                  </button>
                ))}
              </td>
            </tr>
          );
        })}
      </DataTable>
      {transition.error != null && <ErrorNotice error={transition.error} />}
    </>
  );
}
