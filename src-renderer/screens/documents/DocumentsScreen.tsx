// Documents: filter by status, search, page through, open one, or make a new one
// (through the service's test helpers).
import { Truncated } from '../../components/Truncated.js';
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { documentListQuery } from '../../api/documents.js';
import { DOCUMENT_STATUSES, type DocumentStatus } from '@shared/api-types.js';
import { DocumentStatusBadge, documentStatusLabel } from '../../components/Badge.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Pager, useCursorPager } from '../../components/Pager.js';
import { EmptyState, Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { Link, useLocation, useSearchParamSetter } from '../../router.js';
import { linkTo } from '../../paths.js';
import { useTitle } from '../../use-title.js';
import { NewDocumentDialog } from './NewDocumentDialog.js';

function isStatus(s: string | null): s is DocumentStatus {
  return s !== null && (DOCUMENT_STATUSES as readonly string[]).includes(s);
}

export function DocumentsScreen() {
  useTitle('Documents');
  const { search } = useLocation();
  const setParams = useSearchParamSetter();
  const status = isStatus(search.get('status')) ? (search.get('status') as DocumentStatus) : undefined;
  const q = search.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const [creating, setCreating] = useState(false);

  // Typing updates the address (and so the list) after a short pause.
  useEffect(() => {
    if (draft === q) return;
    const t = setTimeout(() => setParams({ q: draft.trim() || undefined }), 250);
    return () => clearTimeout(t);
  }, [draft, q, setParams]);

  return (
    <>
      <PageHeader
        title="Documents"
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            New document
          </button>
        }
      />
      <div className="toolbar" role="search">
        <label className="toolbar-field">
          <span className="toolbar-label">Status</span>
          <select value={status ?? ''} onChange={(e) => setParams({ status: e.target.value || undefined })}>
            <option value="">All statuses</option>
            {DOCUMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {documentStatusLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="toolbar-field toolbar-grow">
          <span className="toolbar-label">Search</span>
          <input
            type="search"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="Title, document ID, recipient name or email"
          />
        </label>
      </div>
      <DocumentTable key={`${status ?? ''}|${q}`} status={status} q={q} onNew={() => setCreating(true)} />
      {creating && <NewDocumentDialog onClose={() => setCreating(false)} />}
    </>
  );
}

function DocumentTable({ status, q, onNew }: { status?: DocumentStatus; q: string; onNew: () => void }) {
  const pager = useCursorPager();
  const list = useQuery(documentListQuery({ status, q: q || undefined, starting_after: pager.cursor }));
  if (list.isPending) return <Loading what="documents" />;
  if (list.isError) return <ErrorNotice error={list.error} title="The documents could not be loaded." />;
  const { data, has_more } = list.data;
  if (data.length === 0) {
    return status || q ? (
      <EmptyState title="No documents match.">Try another status or search.</EmptyState>
    ) : (
      <EmptyState title="No documents yet.">
        <button type="button" className="btn" onClick={onNew}>
          New document
        </button>
      </EmptyState>
    );
  }
  return (
    <>
      <DataTable caption="Documents, newest first" columns={['Title', 'Status', 'Recipients', 'Updated', { label: 'ID', secondary: true }]}>
        {data.map((d) => {
          const signed = d.recipients.filter((r) => r.status === 'completed').length;
          return (
            <tr key={d.public_id}>
              <td className="cell-title">
                <Link to={linkTo.document(d.public_id)}>{d.title}</Link>
              </td>
              <td>
                <DocumentStatusBadge status={d.status} />
              </td>
              <td className="cell-muted">
                <Truncated text={d.recipients.map((r) => `${r.name} <${r.email}>`).join(', ')}>
                  {d.recipients.map((r) => r.name).join(', ')}
                </Truncated>
                <span className="subtle nowrap">
                  {' '}
                  · {signed}/{d.recipients.length} signed
                </span>
              </td>
              <td className="cell-muted nowrap">
                <Time iso={d.updated_at} />
              </td>
              <td className="mono cell-muted col-secondary">{d.public_id}</td>
            </tr>
          );
        })}
      </DataTable>
      <Pager
        label="Documents"
        page={pager.page}
        hasPrev={pager.hasPrev}
        hasMore={has_more}
        onPrev={pager.prev}
        onNext={() => pager.next(data[data.length - 1].public_id)}
      />
    </>
  );
}
