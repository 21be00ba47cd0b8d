// The ngrok tunnel: its state said plainly (off, connecting, online with the public URL,
// an error in words with ngrok's own text in small print, offline), start with an
// authtoken or clear a bad one, stop, and, when the public URL has changed, the offer to
// move the subscriptions left on an old one. The authtoken is never shown again: the
// desktop keeps it in the OS keychain (through window.countersign), the browser console
// only hands it to the local service.
import { useQuery } from '@tanstack/react-query';
import { tunnelQuery, useStopTunnel } from '../../api/receiver.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Fact } from '../../components/Fact.js';
import { Loading } from '../../components/States.js';
import { tunnelText } from './inbox-text.js';
import { StaleSubscriptions } from './StaleSubscriptions.js';
import { TunnelStartForm } from './TunnelStartForm.js';
import { tunnelErrorWords } from './tunnel-error.js';

export function TunnelPanel() {
  const q = useQuery(tunnelQuery());
  const stop = useStopTunnel();
  if (q.isPending) return <Loading what="the tunnel" />;
  if (q.isError) return <ErrorNotice error={q.error} title="The tunnel's state could not be loaded." />;
  const t = q.data;
  const words = tunnelText(t);
  const running = t.status === 'online' || t.status === 'connecting';
  const failed = t.status === 'error';

  return (
    <div className="tunnel">
      <div className="tunnel-state">
        <span className={`badge badge-${words.tone}`}>{words.title}</span>
        <span className="tunnel-detail" role="status" aria-live="polite">
          {words.detail}
        </span>
      </div>
      {failed && t.message && (
        <p className="tunnel-ngrok-text">
          <small>
            ngrok said: <span className="mono break">{t.message}</span>
          </small>
        </p>
      )}
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
        <TunnelStartForm t={t} badToken={failed && tunnelErrorWords(t.message).badToken} />
      )}
      {stop.error != null && <ErrorNotice error={stop.error} title="The tunnel did not stop." />}
      <StaleSubscriptions stale={t.stale_subscriptions} target={t.public_url ?? t.local_url} />
    </div>
  );
}
