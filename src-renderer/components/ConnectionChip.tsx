// The current remote connection in the frame's header, at every width (under 1000 px the
// sidebar with the switcher folds into a drawer): "Remote · Staging · Offline". Nothing
// on the built-in service, so the header stays as the layout wants it there.
import { useQuery } from '@tanstack/react-query';
import { connectionCheckQuery } from '../api/connections.js';
import { isRemote, useConnection } from '../api/connection.js';

const WORD = { online: 'online', unauthorized: 'key refused', offline: 'offline', error: 'not working' } as const;

export function ConnectionChip() {
  const c = useConnection();
  const remote = isRemote(c);
  const check = useQuery({ ...connectionCheckQuery(c.id), enabled: remote });
  if (!remote) return null;
  const state = check.data?.state;
  return (
    <p className={`connection-chip${state && state !== 'online' ? ' connection-chip-down' : ''}`} title={check.data?.message}>
      <span className="badge">Remote</span>
      <span className="connection-chip-name">{c.name}</span>
      {state && <span className="connection-chip-state">{WORD[state]}</span>}
    </p>
  );
}
