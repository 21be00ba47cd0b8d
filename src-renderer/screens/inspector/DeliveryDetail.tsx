// One delivery in full: where it went, its outcome, every attempt (request and response
// headers and bodies, timing, the error), where it landed among the local inboxes (with
// "compare sent and received"), and the actions: redeliver and copy as curl.
import { useQuery } from '@tanstack/react-query';
import { deliveryDetailQuery } from '../../api/inspector.js';
import { useRedeliver } from '../../api/webhooks.js';
import { LOCAL_CONNECTION } from '@shared/connection-types.js';
import type { Attempt } from '@shared/api-types.js';
import { curlCommand } from '@shared/curl.js';
import type { DeliveryDetail as Detail } from '@shared/inspector-types.js';
import { AttemptFacts } from '../../components/AttemptFacts.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Fact } from '../../components/Fact.js';
import { Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';
import { BodyView } from './BodyView.js';
import { CurlButton } from './CurlButton.js';
import { LiveSecrets } from '../webhooks/LiveSecrets.js';
import { ImportedBadge, OutcomeBadge } from './FeedList.js';
import { HeadersTable, headerPairs } from './HeadersTable.js';
import { verdictWords } from './verdict-text.js';
import { TunnelOfflineNotice } from './TunnelOffline.js';

/** "Copy as curl" of an attempt, from its logged request (a capture's command comes from the receiver's route). */
function curlOfAttempt({ method, url, headers, body }: Attempt['request']): string {
  return curlCommand({ method, url, headers: Object.entries(headers), body: { text: body } });
}

function AttemptItem({ a, open }: { a: Attempt; open: boolean }) {
  return (
    <li>
      <details className={`attempt ${a.succeeded ? 'attempt-ok' : 'attempt-failed'}`} open={open}>
        <summary className="attempt-head">
          <AttemptFacts a={a} />
        </summary>
        <div className="attempt-body">
          {a.error && <p className="attempt-error">{a.error}</p>}
          {a.tunnel_offline && <p className="attempt-error">The tunnel was offline when this attempt was made.</p>}
          <h4 className="detail-sub">Request</h4>
          <p className="mono break subtle">
            {a.request.method} {a.request.url}
          </p>
          <HeadersTable headers={headerPairs(a.request.headers)} label={`Attempt ${a.attempt} request headers`} />
          <BodyView label="Request body" text={a.request.body} />
          {a.response && (
            <>
              <h4 className="detail-sub">Response {a.response.status}</h4>
              <HeadersTable headers={headerPairs(a.response.headers)} label={`Attempt ${a.attempt} response headers`} />
              <BodyView label="Response body" text={a.response.body} note={a.response.truncated ? 'first 4 KiB' : undefined} />
            </>
          )}
        </div>
      </details>
    </li>
  );
}

function Landed({ detail, onCompare }: { detail: Detail; onCompare: (captureId: string) => void }) {
  if (detail.landed.length === 0) {
    return (
      <p className="subtle">
        {detail.row.inbox_id ? 'Not received by the inbox yet.' : 'Sent to a URL outside this receiver: nothing to compare with.'}
      </p>
    );
  }
  return (
    <ul className="landed">
      {detail.landed.map((c) => {
        const w = verdictWords(c.verdict);
        return (
          <li key={c.id} className="landed-item">
            <span>{c.inbox_name ?? c.inbox_id}</span>
            <span className={`badge badge-${w.tone}`}>{w.short}</span>
            {c.duplicate && <span className="badge badge-warning">duplicate</span>}
            <span className="subtle">
              <Time iso={c.received_at} />
            </span>
            <button type="button" className="btn btn-small" onClick={() => onCompare(c.id)}>
              Compare sent and received
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function DeliveryDetail({ id, onCompare }: { id: string; onCompare: (captureId: string) => void }) {
  const q = useQuery(deliveryDetailQuery(id));
  if (q.isPending) return <Loading what="the delivery" />;
  if (q.isError) return <ErrorNotice error={q.error} title="The delivery could not be loaded." />;
  const d = q.data;
  return (
    <div className="detail">
      <DeliveryHead d={d} />
      <DeliveryActions d={d} />
      {d.delivery.last_error && <p className="notice notice-error">{d.delivery.last_error}</p>}
      {d.row.tunnel_offline && <TunnelOfflineNotice />}
      {d.row.imported && (
        <p className="notice notice-info">
          Imported from a file: a record of deliveries made elsewhere. It is never attempted or sent again here.
        </p>
      )}
      <DeliveryFacts d={d} />
      <section className="detail-section" aria-label="Where it landed">
        <h3 className="detail-h">Received by</h3>
        <Landed detail={d} onCompare={onCompare} />
      </section>
      <AttemptsSection d={d} />
      {d.attempts.length === 0 && d.event_body && <BodyView label="Body to send" text={d.event_body} />}
    </div>
  );
}

function DeliveryHead({ d }: { d: Detail }) {
  return (
    <header className="detail-head">
      <p className="detail-kind">Sent · delivery</p>
      <h2 className="detail-title mono">{d.delivery.event_type}</h2>
      <div className="detail-badges">
        <OutcomeBadge row={d.row} />
        {d.row.imported && <ImportedBadge />}
        {d.delivery.last_status_code !== null && <span className="badge badge-neutral">HTTP {d.delivery.last_status_code}</span>}
        <span className="subtle">
          {d.delivery.attempts} {d.delivery.attempts === 1 ? 'attempt' : 'attempts'}
        </span>
      </div>
    </header>
  );
}

/** Why it cannot be sent again, or null when it can. */
function noRedeliverReason(d: Detail): string | null {
  if (d.row.imported) return 'Imported from a file: a record only, never sent from here.';
  if (d.subscription) return null;
  // Sent by the conformance scorecard: its subscription_id is the check's chk_ id.
  return d.row.origin === 'check'
    ? 'Sent by an endpoint check: a check sends each request once.'
    : 'Its subscription no longer exists, so it cannot be sent again.';
}

function DeliveryActions({ d }: { d: Detail }) {
  // The inspector shows the built-in service's deliveries, whatever the connection.
  const redeliver = useRedeliver(LOCAL_CONNECTION);
  const last = d.attempts[d.attempts.length - 1];
  const reason = noRedeliverReason(d);
  return (
    <>
      <div className="detail-actions">
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={reason !== null || redeliver.isPending}
          title={reason ?? 'Send it again: same webhook-id, new attempt'}
          onClick={() => redeliver.mutate({ subscriptionId: d.delivery.subscription_id, deliveryId: d.delivery.id })}
        >
          {redeliver.isPending ? 'Redelivering…' : 'Redeliver'}
        </button>
        {last && <CurlButton load={async () => curlOfAttempt(last.request)} />}
        {redeliver.isSuccess && <span className="action-result">Queued again.</span>}
        {reason && <span className="action-reason">{reason}</span>}
      </div>
      {redeliver.error != null && <ErrorNotice error={redeliver.error} title="Not redelivered." />}
    </>
  );
}

function SubscriptionFact({ d }: { d: Detail }) {
  if (d.row.origin === 'check') {
    return (
      <Fact label="Endpoint check" className="mono">
        <Link to={linkTo.inspector({ origin: 'check', subscription: d.delivery.subscription_id })}>{d.delivery.subscription_id}</Link>
      </Fact>
    );
  }
  const missing = d.row.imported ? '(not on this machine)' : '(deleted)';
  return (
    <Fact label="Subscription" className="mono">
      {d.subscription ? (
        <Link to={linkTo.subscription(d.subscription.public_id)}>{d.subscription.public_id}</Link>
      ) : (
        `${d.delivery.subscription_id} ${missing}`
      )}
    </Fact>
  );
}

function DeliveryFacts({ d }: { d: Detail }) {
  const fromCheck = d.row.origin === 'check';
  return (
    <dl className="detail-facts">
      <Fact label="webhook-id" className="mono">
        {d.delivery.id} <CopyButton value={d.delivery.id} what="webhook-id" />
      </Fact>
      <Fact label="URL" className="mono break">
        {d.delivery.url}
      </Fact>
      <SubscriptionFact d={d} />
      {d.subscription && (
        <Fact label="Live secrets">
          <LiveSecrets subscriptionId={d.subscription.public_id} />
        </Fact>
      )}
      {d.delivery.document_id && (
        <Fact label="Document" className="mono">
          {/* A check's documents are made up for its events: there is no page to open. */}
          {fromCheck ? d.delivery.document_id : <Link to={linkTo.document(d.delivery.document_id)}>{d.delivery.document_id}</Link>}
        </Fact>
      )}
      <Fact label="Event" className="mono">
        {d.delivery.event_id}
      </Fact>
      <Fact label="Created">
        <Time iso={d.delivery.created_at} mode="exact" />
      </Fact>
      {/* An imported delivery is never attempted here: its file's next attempt is not one. */}
      {d.delivery.next_attempt_at && !d.row.imported && (
        <Fact label="Next attempt">
          <Time iso={d.delivery.next_attempt_at} tense="future" />
        </Fact>
      )}
    </dl>
  );
}

function AttemptsSection({ d }: { d: Detail }) {
  return (
    <section className="detail-section" aria-label="Attempts">
      <h3 className="detail-h">Attempts</h3>
      {d.attempts.length === 0 ? (
        <p className="subtle">
          {d.delivery.attempts > 0
            ? 'Its attempts are not in the log (imported without them, or dropped by retention).'
            : 'No attempt made yet.'}
        </p>
      ) : (
        <ol className="attempt-list">
          {[...d.attempts].reverse().map((a, i) => (
            <AttemptItem key={a.attempt} a={a} open={i === 0} />
          ))}
        </ol>
      )}
    </section>
  );
}
