// Subscriptions this Countersign made on a remote for its inboxes that still point at an
// old tunnel address: listed, and moved after one confirmation (docs/connections.md).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { tunnelMovesQuery, useMoveTunnelSubscriptions } from '../../api/connections.js';
import type { Connection } from '@shared/connection-types.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';

export function TunnelMoves({ connection }: { connection: Connection }) {
  const moves = useQuery(tunnelMovesQuery(connection.id));
  const move = useMoveTunnelSubscriptions(connection.id);
  const [confirming, setConfirming] = useState(false);
  const result = move.data;
  const pending = moves.data?.data ?? [];

  if (result && pending.length === 0)
    return (
      <p role="status" className="action-result">
        Moved {result.moved.length} subscription{result.moved.length === 1 ? '' : 's'} on {connection.name} to the tunnel's new address.
        {result.failed.map((f) => ` ${f.subscription_id}: ${f.message}`).join('')}
      </p>
    );
  if (!moves.data || pending.length === 0) return null;
  const n = pending.length;
  return (
    <div className="notice notice-warning tunnel-moves">
      <span className="notice-message">
        {n} subscription{n === 1 ? '' : 's'} on {connection.name} still point{n === 1 ? 's' : ''} at an old tunnel address (
        <span className="mono">{new URL(pending[0].url).host}</span>).
        {moves.data.public_url ? '' : ' The tunnel is not online: start it to move them.'}
      </span>
      {moves.data.public_url && (
        <button type="button" className="btn btn-small" onClick={() => setConfirming(true)}>
          Move {n === 1 ? 'it' : 'them'}
        </button>
      )}
      {confirming && (
        <ConfirmDialog
          title={`Move ${n} subscription${n === 1 ? '' : 's'} on ${connection.name}?`}
          confirmLabel="Move"
          danger={false}
          busy={move.isPending}
          error={move.error}
          onCancel={() => setConfirming(false)}
          onConfirm={() => move.mutate(undefined, { onSuccess: () => setConfirming(false) })}
        >
          Each is made again on {connection.name} at {moves.data.public_url} with the same event type and secret, then the old one is
          deleted.
        </ConfirmDialog>
      )}
      {move.error != null && !confirming && <ErrorNotice error={move.error} />}
    </div>
  );
}
