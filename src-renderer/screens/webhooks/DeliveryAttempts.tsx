// Every attempt of one delivery: when, how long, the response status (or the network
// error) and an excerpt of the response body, with the request's body and headers on
// demand, and a link to the same delivery in the inspector.
// Bodies and headers come from other programs: shown as text only.
import { useQuery } from '@tanstack/react-query';
import { deliveryQuery } from '../../api/webhooks.js';
import type { Attempt } from '@shared/api-types.js';
import { AttemptFacts } from '../../components/AttemptFacts.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Loading } from '../../components/States.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';

const EXCERPT = 2000;

export function DeliveryAttempts({ subscriptionId, deliveryId }: { subscriptionId: string; deliveryId: string }) {
  const q = useQuery(deliveryQuery(subscriptionId, deliveryId));
  if (q.isPending) return <Loading what="attempts" />;
  if (q.isError) return <ErrorNotice error={q.error} />;
  const attempts = q.data.attempt_log;
  return (
    <div className="attempts">
      <p className="subtle">
        Delivery <span className="mono">{q.data.id}</span> (the <span className="mono">webhook-id</span>) of event{' '}
        <span className="mono">{q.data.event_id}</span> ·{' '}
        <Link to={linkTo.inspector({ row: `d:${q.data.id}` })}>Open in the inspector</Link>
      </p>
      {attempts.length === 0 ? (
        <p className="subtle">No attempt made yet.</p>
      ) : (
        <ol className="attempt-list">
          {attempts.map((a) => (
            <AttemptItem key={a.attempt} a={a} />
          ))}
        </ol>
      )}
    </div>
  );
}

function AttemptItem({ a }: { a: Attempt }) {
  const body = a.response?.body ?? '';
  const cut = body.length > EXCERPT;
  return (
    <li className={`attempt ${a.succeeded ? 'attempt-ok' : 'attempt-failed'}`}>
      <div className="attempt-head">
        <AttemptFacts a={a} />
      </div>
      {a.error && <p className="attempt-error">{a.error}</p>}
      {a.response && (
        <>
          <p className="attempt-label">Response body{a.response.truncated || cut ? ' (excerpt)' : ''}</p>
          <pre className="code-block">{body === '' ? '(empty)' : cut ? `${body.slice(0, EXCERPT)}…` : body}</pre>
        </>
      )}
      <details className="attempt-details">
        <summary>Request body</summary>
        <pre className="code-block">{a.request.body === '' ? '(empty)' : a.request.body}</pre>
      </details>
      <details className="attempt-details">
        <summary>Request headers</summary>
        <pre className="code-block">
          {Object.entries(a.request.headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n')}
        </pre>
      </details>
    </li>
  );
}
