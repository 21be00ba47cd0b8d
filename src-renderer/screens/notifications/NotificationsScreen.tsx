// The notification outbox: every message the service "sent" to a recipient (signature
// requests and reminders), newest first, optionally for one document.
import { useQuery } from '@tanstack/react-query';
import { notificationsQuery } from '../../api/notifications.js';
import { Badge } from '../../components/Badge.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Pager, useCursorPager } from '../../components/Pager.js';
import { EmptyState, Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { Link, useLocation } from '../../router.js';
import { linkTo } from '../../paths.js';
import { useTitle } from '../../use-title.js';

const KIND = { signature_request: 'Signature request', reminder: 'Reminder' } as const;

export function NotificationsScreen() {
  useTitle('Notifications');
  const { search } = useLocation();
  const documentId = search.get('document_id') ?? undefined;
  return (
    <>
      <PageHeader title="Notifications">
        <p className="page-lede">
          The outbox: what the service sent to recipients (no email leaves this machine).
          {documentId && (
            <>
              {' '}
              Showing document <span className="mono">{documentId}</span> only. <Link to={linkTo.notifications()}>Show all</Link>
            </>
          )}
        </p>
      </PageHeader>
      <section className="card card-flush">
        <NotificationTable key={documentId ?? ''} documentId={documentId} />
      </section>
    </>
  );
}

function NotificationTable({ documentId }: { documentId?: string }) {
  const pager = useCursorPager();
  const list = useQuery(notificationsQuery({ document_id: documentId, starting_after: pager.cursor }));
  if (list.isPending) return <Loading what="notifications" />;
  if (list.isError) return <ErrorNotice error={list.error} title="The notifications could not be loaded." />;
  const { data, has_more } = list.data;
  if (data.length === 0 && !pager.hasPrev)
    return <EmptyState title="No notifications yet.">Sending a document or a reminder makes some.</EmptyState>;
  return (
    <>
      <DataTable caption="Notifications, newest first" columns={['Sent', 'Kind', 'Recipient', 'Document']}>
        {data.map((n) => (
          <tr key={n.id}>
            <td className="cell-muted nowrap">
              <Time iso={n.created_at} />
            </td>
            <td>
              <Badge tone={n.kind === 'reminder' ? 'warning' : 'info'}>{KIND[n.kind] ?? n.kind}</Badge>
            </td>
            <td>
              {n.name} <span className="subtle">&lt;{n.email}&gt;</span>
            </td>
            <td>
              <Link to={linkTo.document(n.document_id)}>{n.document_title ?? n.document_id}</Link>
              <span className="mono subtle cell-id">{n.document_id}</span>
            </td>
          </tr>
        ))}
      </DataTable>
      <Pager
        label="Notifications"
        page={pager.page}
        hasPrev={pager.hasPrev}
        hasMore={has_more}
        onPrev={pager.prev}
        onNext={() => pager.next(data[data.length - 1].id)}
      />
    </>
  );
}
