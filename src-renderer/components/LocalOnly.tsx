// What only the built-in service has (test helpers, lifecycle actions, the notification
// outbox, the sender side of the inspector, API keys): on a remote connection the screen
// says so in words, with a way back to the local service, instead of failing.
import type { ReactNode } from 'react';
import { isRemote, LOCAL, switchConnection, useConnection } from '../api/connection.js';
import { PageHeader } from './PageHeader.js';
import { EmptyState } from './States.js';

export function LocalOnly({ title, why, children }: { title: string; why: string; children: ReactNode }) {
  const c = useConnection();
  if (!isRemote(c)) return children;
  return (
    <>
      <PageHeader title={title} />
      <EmptyState title={`${title}: only on the built-in service`}>
        <p>
          {why} You are working on <strong>{c.name}</strong>.
        </p>
        <p className="local-only-actions">
          <button type="button" className="btn" onClick={() => switchConnection(LOCAL)}>
            Switch to Local
          </button>
        </p>
      </EmptyState>
    </>
  );
}

/** A line above a screen that works on a remote only in part. */
export function RemoteNote({ children }: { children: (name: string) => ReactNode }) {
  const c = useConnection();
  if (!isRemote(c)) return null;
  return <div className="notice notice-info">{children(c.name)}</div>;
}

/** One screen on the built-in service, another on a remote. */
export function ByConnection({ local, remote }: { local: ReactNode; remote: ReactNode }) {
  return isRemote(useConnection()) ? remote : local;
}

/** A frame tool of the built-in service only (the test clock): on a remote, one line saying so. */
export function LocalOnlyTool({ what, children }: { what: string; children: ReactNode }) {
  const c = useConnection();
  if (!isRemote(c)) return children;
  return (
    <p className="subtle local-only-tool">
      {what}: only on the built-in service, not on {c.name}.
    </p>
  );
}
