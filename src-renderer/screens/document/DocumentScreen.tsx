// One document, opened by {app_url}/documents?d=<public_id> (deep link, reload-safe):
// title, status, recipients, the actions its status allows, metadata, its URL and the
// timeline of events with their deliveries. Everything refreshes live. On a remote
// connection: the document as that service has it, its title, metadata and reminder;
// the timeline and lifecycle actions are the built-in service's only, and say so.
import { useQuery } from '@tanstack/react-query';
import { actionsQuery, documentQuery } from '../../api/documents.js';
import { ApiRequestError } from '../../api/errors.js';
import { DocumentStatusBadge } from '../../components/Badge.js';
import { Card } from '../../components/Card.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';
import { useTitle } from '../../use-title.js';
import { isRemote, remoteDocumentUrl, useConnection, type ActiveConnection } from '../../api/connection.js';
import type { Document } from '@shared/api-types.js';
import { DocumentActions } from './DocumentActions.js';
import { MetadataEditor } from './MetadataEditor.js';
import { RecipientsTable } from './RecipientsTable.js';
import { Timeline } from './Timeline.js';
import { TitleForm } from './TitleForm.js';

/** The title, the document's URL, and on a remote its link in that service's web app. */
function DetailsCard({ doc: d, connection }: { doc: Document; connection: ActiveConnection }) {
  const appLink = remoteDocumentUrl(connection, d.public_id);
  return (
    <Card title="Details">
      <TitleForm doc={d} />
      <div className="kv">
        <span className="kv-key">Document URL</span>
        <span className="kv-value">
          <code className="url-text">{d.url}</code>
          <CopyButton value={d.url} what="document URL" />
        </span>
      </div>
      {appLink && (
        <div className="kv">
          <span className="kv-key">In {connection.name}</span>
          <span className="kv-value">
            <a href={appLink} target="_blank" rel="noopener noreferrer">
              Open in its web app
            </a>
          </span>
        </div>
      )}
    </Card>
  );
}

export function DocumentScreen({ id }: { id: string }) {
  const connection = useConnection();
  const remote = isRemote(connection);
  const doc = useQuery(documentQuery(id));
  const allowed = useQuery({ ...actionsQuery(id), enabled: !remote });
  useTitle(doc.data?.title ?? 'Document');

  if (doc.isPending) return <Loading what="the document" />;
  if (doc.isError) {
    const missing = doc.error instanceof ApiRequestError && doc.error.status === 404;
    return (
      <>
        <PageHeader title="Document" />
        {missing ? (
          <EmptyState title="No such document.">
            <p>
              There is no document <span className="mono">{id}</span> in this company{remote ? ` on ${connection.name}` : ''}.{' '}
              <Link to={linkTo.documents()}>{remote ? 'Open another' : 'All documents'}</Link>
            </p>
          </EmptyState>
        ) : (
          <ErrorNotice error={doc.error} title="The document could not be loaded." />
        )}
      </>
    );
  }
  const d = doc.data;
  return (
    <>
      <PageHeader title={<span className="title-text">{d.title}</span>}>
        <div className="page-meta">
          <DocumentStatusBadge status={d.status} />
          <span className="mono subtle">{d.public_id}</span>
          <span className="subtle">
            Created <Time iso={d.created_at} /> · updated <Time iso={d.updated_at} />
          </span>
        </div>
      </PageHeader>

      <div className="grid-2">
        <DetailsCard doc={d} connection={connection} />

        <Card title="Actions">
          <DocumentActions doc={d} allowed={remote ? undefined : allowed.data} />
          {remote && (
            <p className="subtle">Sending, expiring, voiding and signing as a recipient are test helpers of the built-in service only.</p>
          )}
          {allowed.isError && !remote && <ErrorNotice error={allowed.error} />}
        </Card>
      </div>

      <Card title="Recipients">
        <RecipientsTable doc={d} allowed={remote ? undefined : allowed.data} />
      </Card>

      <div className="grid-2 grid-wide-left">
        <Card title="Timeline">
          {remote ? (
            <p className="subtle">The timeline is the built-in service's record of events; {connection.name} does not offer one.</p>
          ) : (
            <Timeline documentId={d.public_id} />
          )}
        </Card>
        <Card title="Metadata">
          <MetadataEditor key={d.public_id} doc={d} />
        </Card>
      </div>
    </>
  );
}
