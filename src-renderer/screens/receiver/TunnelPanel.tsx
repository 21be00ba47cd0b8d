// The ngrok tunnel: its state said plainly (off, connecting, online with the public URL,
// error with ngrok's own message, offline), start with an authtoken, stop, and, when the
// public URL has changed, the offer to move the subscriptions left on an old one. The
// authtoken is never shown again: the desktop keeps it in the OS keychain (through
// window.countersign), the browser console only hands it to the local service.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { NGROK_AUTHTOKEN_SECRET } from '@shared/ipc-contract.js';
import { tunnelQuery, useMoveSubscriptions, useStartTunnel, useStopTunnel } from '../../api/receiver.js';
import type { MovedSubscription } from '@shared/receiver-types.js';
import { messageOf } from '../../api/errors.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Fact } from '../../components/Fact.js';
import { Field } from '../../components/Field.js';
import { Loading } from '../../components/States.js';
import { desktopBridge } from '../../platform.js';
import { tunnelText } from './inbox-text.js';

function StaleSubscriptions({
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

export function TunnelPanel() {
  const q = useQuery(tunnelQuery());
  const start = useStartTunnel();
  const stop = useStopTunnel();
  const [token, setToken] = useState('');
  const [kept, setKept] = useState<string | null>(null);
  if (q.isPending) return <Loading what="the tunnel" />;
  if (q.isError) return <ErrorNotice error={q.error} title="The tunnel's state could not be loaded." />;
  const t = q.data;
  const words = tunnelText(start.isPending ? { status: 'connecting' } : t);
  const running = t.status === 'online' || t.status === 'connecting';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = token.trim() || undefined;
    setKept(null);
    const bridge = desktopBridge();
    if (value && bridge) {
      try {
        const info = await bridge.setSecret(NGROK_AUTHTOKEN_SECRET, value);
        setKept(
          info.protectedByKeychain
            ? 'The authtoken is kept in the OS keychain for the next start.'
            : `The authtoken is kept for the next start. ${info.note}`,
        );
      } catch (err) {
        setKept(`The authtoken is used for this run only: it could not be kept (${messageOf(err)}).`);
      }
    }
    start.mutate(value, { onSuccess: () => setToken('') });
  };

  return (
    <div className="tunnel">
      <div className="tunnel-state">
        <span className={`badge badge-${words.tone}`}>{words.title}</span>
        <span className="tunnel-detail" role="status" aria-live="polite">
          {words.detail}
        </span>
      </div>
      <dl className="detail-facts tunnel-urls">
        <Fact label="Local URL" className="mono">
          {t.local_url} <CopyButton value={t.local_url} what="local URL" />
        </Fact>
        {t.public_url && (
          <Fact label="Public URL" className="mono">
            {t.public_url} <CopyButton value={t.public_url} what="public URL" />
          </Fact>
        )}
      </dl>
      {running ? (
        <div className="inline-form-actions">
          <button type="button" className="btn btn-small" onClick={() => stop.mutate()} disabled={stop.isPending}>
            {stop.isPending ? 'Stopping…' : 'Stop tunnel'}
          </button>
        </div>
      ) : (
        <form className="tunnel-form" onSubmit={submit} aria-label="Start the tunnel">
          <Field
            label="ngrok authtoken"
            hint={t.status === 'offline' ? 'From dashboard.ngrok.com. Never shown again.' : 'Empty: use the authtoken already set.'}
          >
            <input
              type="password"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              placeholder={t.status === 'offline' ? '2abc…' : '(set)'}
            />
          </Field>
          <button type="submit" className="btn btn-primary" disabled={start.isPending || (t.status === 'offline' && token.trim() === '')}>
            {start.isPending ? 'Connecting…' : 'Start tunnel'}
          </button>
        </form>
      )}
      {kept && <p className="subtle">{kept}</p>}
      {start.error != null && <ErrorNotice error={start.error} title="The tunnel did not start." />}
      {stop.error != null && <ErrorNotice error={stop.error} title="The tunnel did not stop." />}
      <StaleSubscriptions stale={t.stale_subscriptions} target={t.public_url ?? t.local_url} />
    </div>
  );
}
