// The one-line facts of a delivery attempt, the same in the webhook's delivery log and
// in the inspector: its number, the answer (or none), how long it took, when it started
// and, when another was due, when the retry comes (or came); which delivery rule applied;
// a deliberate fault it carried is marked as such, so nobody mistakes it for a bug.
import type { Attempt } from '@shared/api-types.js';
import { useServiceNow } from '../now.js';
import { Time } from './Time.js';

export function AttemptFacts({ a }: { a: Attempt }) {
  const now = useServiceNow(5000);
  const retried = a.next_attempt_at !== null && a.next_attempt_at !== undefined && Date.parse(a.next_attempt_at) <= now;
  return (
    <>
      <strong>Attempt {a.attempt}</strong>
      {a.faults?.map((f) => (
        <span key={f} className="badge badge-warning" title="A deliberate fault set on this subscription (test helpers), not a bug">
          fault: {f.replace(/_/g, ' ')}
        </span>
      ))}
      <span>{a.response ? `HTTP ${a.response.status}` : 'No response'}</span>
      <span className="subtle">{a.duration_ms} ms</span>
      <span className="subtle">
        <Time iso={a.started_at} mode="exact" />
      </span>
      {a.next_attempt_at && (
        <span className="subtle">
          {retried ? (
            <>
              retried <Time iso={a.next_attempt_at} />
            </>
          ) : (
            <>
              retry <Time iso={a.next_attempt_at} tense="future" />
            </>
          )}
        </span>
      )}
      {a.slowed_down && <span className="badge badge-warning">slowed down</span>}
      {a.tunnel_offline && (
        <span className="badge badge-warning" title="Sent to a tunnel URL of this receiver while the tunnel was not online">
          tunnel down
        </span>
      )}
      {a.rule_detail && <span className="attempt-rule">{a.rule_detail}</span>}
    </>
  );
}
