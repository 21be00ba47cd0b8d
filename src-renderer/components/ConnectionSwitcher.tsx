// The connection switcher in the frame: which service the console is working on, always
// visible (a badge and the frame's colour), so nobody deletes a real subscription thinking
// it is the local one. A remote's state (online, key refused, offline) is asked every
// 30 s and shown in words. Mounted with one line in the Layout.
import { useEffect, useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { connectionCheckQuery, connectionListQuery } from '../api/connections.js';
import { isRemote, LOCAL, reconcileConnections, switchConnection, useConnection } from '../api/connection.js';
import { linkTo } from '../paths.js';
import { Link, navigate, useLocation } from '../router.js';

const STATE_TEXT = { online: 'Online', unauthorized: 'Key refused', offline: 'Offline', error: 'Not working' } as const;
const STATE_TONE = { online: 'success', unauthorized: 'danger', offline: 'danger', error: 'warning' } as const;

function RemoteState({ id }: { id: string }) {
  const check = useQuery(connectionCheckQuery(id));
  if (check.isPending) return <p className="connection-state subtle">Checking…</p>;
  if (check.isError) return <p className="connection-state subtle">State unknown.</p>;
  const s = check.data;
  return (
    <p className={`connection-state connection-state-${STATE_TONE[s.state]}`} role="status" title={s.message}>
      <span className="connection-dot" aria-hidden="true" />
      {STATE_TEXT[s.state]}
      {s.state !== 'online' && <span className="connection-state-message">{s.message}</span>}
    </p>
  );
}

export function ConnectionSwitcher() {
  const id = useId();
  const list = useQuery(connectionListQuery());
  const active = useConnection();
  const location = useLocation();
  const remote = isRemote(active);
  const connections = list.data?.data ?? [];

  useEffect(() => {
    if (list.data) reconcileConnections(list.data.data);
  }, [list.data]);
  useEffect(() => {
    document.documentElement.dataset.connection = remote ? 'remote' : 'local';
  }, [remote]);

  const choose = (value: string) => {
    switchConnection(connections.find((c) => c.id === value) ?? LOCAL);
    // One item's page means nothing on another service: go to its list.
    if (/\/webhooks\/[^/]+$/.test(location.path) || location.search.has('d')) navigate(linkTo.webhooks());
  };

  return (
    <div className={remote ? 'connection connection-remote' : 'connection connection-local'}>
      <label htmlFor={id} className="connection-label">
        Connection
      </label>
      <select id={id} value={active.id} onChange={(e) => choose(e.target.value)}>
        <option value={LOCAL.id}>Local (built-in)</option>
        {connections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <p className="connection-current">
        {remote ? <span className="badge badge-warning">Remote</span> : <span className="badge badge-success">Local</span>}
        <span className="connection-host" title={remote ? active.base_url : undefined}>
          {remote ? new URL(active.base_url).host : 'on this machine'}
        </span>
      </p>
      {remote && <RemoteState id={active.id} />}
      <Link to={linkTo.connections()} className="connection-manage">
        Manage connections
      </Link>
    </div>
  );
}
