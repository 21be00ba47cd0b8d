// Subscriptions left on a URL that no longer reaches their inbox (an old public URL of
// the tunnel, an old local port), with the offer to move them all to the current one.
import { useState } from 'react';
import { useMoveSubscriptions } from '../../api/receiver.js';
import type { MovedSubscription } from '@shared/receiver-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';

export function StaleSubscriptions({
  stale,
  target,
}: {
  stale: { public_id: string; url: string; new_url: string; reason: string }[];
  target: string;
}) {
  const move = useMoveSubscriptions();
  const [moved, setMoved] = useState<MovedSubscription[] | null>(null);
  if (stale.length === 0 && !moved) return null;
  return (
    <div className="stale" role="region" aria-label="Subscriptions on an old URL">
      {stale.length > 0 && (
        <>
          <p className="notice notice-warning">
            {stale.length === 1 ? '1 subscription points' : `${stale.length} subscriptions point`} at an inbox through a URL that no longer
            reaches it. Move {stale.length === 1 ? 'it' : 'them'} to {target}?
          </p>
          <ul className="stale-list">
            {stale.map((s) => (
              <li key={s.public_id} className="mono">
                {s.public_id}: <span className="break">{s.url}</span> → <span className="break">{s.new_url}</span>
                <span className="subtle"> ({s.reason === 'old_public_url' ? 'old public URL' : 'old local port'})</span>
              </li>
            ))}
          </ul>
          <div className="inline-form-actions">
            <button
              type="button"
              className="btn btn-primary btn-small"
              disabled={move.isPending}
              onClick={() => move.mutate(undefined, { onSuccess: (r) => setMoved(r.moved) })}
            >
              {move.isPending ? 'Moving…' : `Move ${stale.length === 1 ? 'it' : `all ${stale.length}`}`}
            </button>
            <span className="subtle">
              Each is made again at the new URL with the same type and secret, then the old one is deleted (its id changes).
            </span>
          </div>
          {move.error != null && <ErrorNotice error={move.error} title="Not moved." />}
        </>
      )}
      {moved && moved.length > 0 && (
        <p className="action-result" role="status">
          Moved {moved.length}: {moved.map((m) => `${m.from_id} → ${m.to_id}`).join(', ')}.
        </p>
      )}
    </div>
  );
}
