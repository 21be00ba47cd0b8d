// One document, opened by {app_url}/documents?d=<public_id> (deep link, reload-safe):
// title, status, recipients, the actions its status allows, metadata, its URL and the
// timeline of events with their deliveries. Everything refreshes live.
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
import { DocumentActions } from './DocumentActions.js';
import { MetadataEditor } from './MetadataEditor.js';
import { RecipientsTable } from './RecipientsTable.js';
import { Timeline } from './Timeline.js';
import { TitleForm } from './TitleForm.js';

export function DocumentScreen({ id }: { id: string }) {
  const doc = useQuery(documentQuery(id));
  const allowed = useQuery(actionsQuery(id));
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
              There is no document <span className="mono">{id}</span> in this company. <Link to={linkTo.documents()}>All documents</Link>
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
        <Card title="Details">
          <TitleForm doc={d} />
          <div className="kv">
            <span className="kv-key">Document URL</span>
            <span className="kv-value">
              <code className="url-text">{d.url}</code>
              <CopyButton value={d.url} what="document URL" />
            </span>
          </div>
        </Card>

        <Card title="Actions">
          <DocumentActions doc={d} allowed={allowed.data} />
          {allowed.isError && <ErrorNotice error={allowed.error} />}
        </Card>
      </div>

      <Card title="Recipients">
        <RecipientsTable doc={d} allowed={allowed.data} />
      </Card>

      <div className="grid-2 grid-wide-left">
        <Card title="Timeline">
          <Timeline documentId={d.public_id} />
        </Card>
        <Card title="Metadata">
          <MetadataEditor key={d.public_id} doc={d} />
        </Card>
      </div>
    </>
  );
}
