// Settings → Connections: the real deployments this console can work on, besides the
// built-in service: each one's addresses, where its key is, whether it answers; adding
// one, deleting one (confirmed), and moving its tunnel subscriptions.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { connectionCheckQuery, connectionListQuery, useDeleteConnection } from '../../api/connections.js';
import { switchConnection, useConnection } from '../../api/connection.js';
import type { Connection } from '@shared/connection-types.js';
import { Badge } from '../../components/Badge.js';
import { Card } from '../../components/Card.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, Loading } from '../../components/States.js';
import { useTitle } from '../../use-title.js';
import { NewConnectionForm } from './NewConnectionForm.js';
import { TunnelMoves } from './TunnelMoves.js';

const keyText = (c: Connection) =>
  c.key_source === 'keychain' ? 'OS keychain' : c.key_source === 'env' ? `variable ${c.key_ref}` : `file ${c.key_ref}`;

function State({ id }: { id: string }) {
  const check = useQuery(connectionCheckQuery(id));
  if (!check.data) return <span className="subtle">{check.isError ? 'unknown' : 'checking…'}</span>;
  const tone = check.data.state === 'online' ? 'success' : check.data.state === 'error' ? 'warning' : 'danger';
  return (
    <span title={check.data.message}>
      <Badge tone={tone}>{check.data.state}</Badge>
    </span>
  );
}

export function ConnectionsScreen() {
  useTitle('Connections');
  const list = useQuery(connectionListQuery());
  const active = useConnection();
  const [deleting, setDeleting] = useState<Connection | null>(null);
  const del = useDeleteConnection();
  const connections = list.data?.data ?? [];
  return (
    <>
      <PageHeader title="Connections">
        <p className="page-lede">
          Real deployments of the service this console can work on, besides the built-in one. Calls go through Countersign, which holds the
          key; this page never sees it.
        </p>
      </PageHeader>
      {connections.map((c) => (
        <TunnelMoves key={c.id} connection={c} />
      ))}
      <Card title="Connections" flush>
        {list.isPending ? (
          <Loading what="connections" />
        ) : list.isError ? (
          <ErrorNotice error={list.error} title="The connections could not be loaded." />
        ) : connections.length === 0 ? (
          <EmptyState title="No connections yet.">Add one below to manage a real deployment's webhooks from here.</EmptyState>
        ) : (
          <DataTable caption="Connections" columns={['Name', 'Addresses', 'Key', 'State']} actions>
            {connections.map((c) => (
              <tr key={c.id}>
                <td>
                  {c.name} {c.id === active.id && <Badge tone="warning">in use</Badge>}
                </td>
                <td className="connection-addresses">
                  <span className="mono break">API {c.base_url}</span>
                  <span className="mono break subtle">App {c.app_url}</span>
                </td>
                <td>{keyText(c)}</td>
                <td>
                  <State id={c.id} />
                </td>
                <td className="cell-actions">
                  {c.id !== active.id && (
                    <button type="button" className="btn btn-small" onClick={() => switchConnection(c)} aria-label={`Use ${c.name}`}>
                      Use
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-small btn-ghost-danger"
                    onClick={() => setDeleting(c)}
                    aria-label={`Delete ${c.name}`}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>
      <Card title="Add a connection">{list.data && <NewConnectionForm storage={list.data.key_storage} />}</Card>
      {deleting && (
        <ConfirmDialog
          title={`Delete the connection “${deleting.name}”?`}
          confirmLabel="Delete connection"
          busy={del.isPending}
          error={del.error}
          onCancel={() => {
            setDeleting(null);
            del.reset();
          }}
          onConfirm={() => del.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        >
          Countersign forgets it{deleting.key_source === 'keychain' ? ' and removes its key from the OS keychain' : ''}. Nothing changes on{' '}
          {deleting.name} itself.
        </ConfirmDialog>
      )}
    </>
  );
}
