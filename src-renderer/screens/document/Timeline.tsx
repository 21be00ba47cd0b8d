// The document's events, newest first, each with the deliveries it caused (one per
// subscription that wanted it) and how they went. Updates live.
import { useQuery } from '@tanstack/react-query';
import { timelineQuery } from '../../api/documents.js';
import { DeliveryStatusBadge } from '../../components/Badge.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { EmptyState, Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';

export function Timeline({ documentId }: { documentId: string }) {
  const timeline = useQuery(timelineQuery(documentId));
  if (timeline.isPending) return <Loading what="the timeline" />;
  if (timeline.isError) return <ErrorNotice error={timeline.error} title="The timeline could not be loaded." />;
  const events = [...timeline.data].reverse();
  if (events.length === 0) return <EmptyState title="No events yet." />;
  return (
    <ol className="timeline">
      {events.map((e) => (
        <li key={e.id} className="timeline-item">
          <div className="timeline-head">
            <span className="mono timeline-type">{e.type}</span>
            <span className="subtle">
              <Time iso={e.timestamp} />
            </span>
            <span className="mono subtle timeline-id">{e.id}</span>
          </div>
          {e.deliveries.length === 0 ? (
            <p className="subtle timeline-none">No subscription wanted this event.</p>
          ) : (
            <ul className="timeline-deliveries" aria-label={`Deliveries of ${e.type}`}>
              {e.deliveries.map((d) => (
                <li key={d.id} className="timeline-delivery">
                  <DeliveryStatusBadge status={d.status} attempts={d.attempts} code={d.last_status_code} />
                  <Link to={linkTo.subscription(d.subscription_id, d.id)} className="truncate mono">
                    {d.url}
                  </Link>
                  <span className="subtle">
                    {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
                    {d.last_duration_ms != null ? ` · ${d.last_duration_ms} ms` : ''}
                  </span>
                  {d.last_error && <span className="subtle truncate">{d.last_error}</span>}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}
