// A subscription's delivery log, newest first and paged; each delivery opens to show
// every attempt, and can be sent again. Updates live as attempts happen.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PAGE_SIZE } from '../../api/client.js';
import { deliveryPageQuery, useRedeliver } from '../../api/webhooks.js';
import type { Delivery } from '@shared/api-types.js';
import { DeliveryStatusBadge } from '../../components/Badge.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Pager, useCursorPager } from '../../components/Pager.js';
import { EmptyState, Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';
import { DeliveryAttempts } from './DeliveryAttempts.js';

export function DeliveryLog({ subscriptionId, openId }: { subscriptionId: string; openId?: string }) {
  const pager = useCursorPager();
  const page = useQuery(deliveryPageQuery(subscriptionId, { limit: PAGE_SIZE, starting_after: pager.cursor }));
  const [open, setOpen] = useState<Set<string>>(() => new Set(openId ? [openId] : []));
  const redeliver = useRedeliver();

  if (page.isPending) return <Loading what="deliveries" />;
  if (page.isError) return <ErrorNotice error={page.error} title="The delivery log could not be loaded." />;
  const { data, has_more } = page.data;
  if (data.length === 0 && !pager.hasPrev) {
    return <EmptyState title="No deliveries yet.">Deliveries appear here as events happen, or send a test event.</EmptyState>;
  }
  const toggle = (id: string) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  return (
    <>
      {redeliver.error != null && <ErrorNotice error={redeliver.error} title="The delivery was not sent again." />}
      <ul className="deliveries" aria-label="Deliveries, newest first">
        {data.map((d) => (
          <DeliveryItem
            key={d.id}
            d={d}
            subscriptionId={subscriptionId}
            open={open.has(d.id)}
            onToggle={() => toggle(d.id)}
            onRedeliver={() => redeliver.mutate({ subscriptionId, deliveryId: d.id })}
            busy={redeliver.isPending && redeliver.variables?.deliveryId === d.id}
          />
        ))}
      </ul>
      <Pager
        label="Deliveries"
        page={pager.page}
        hasPrev={pager.hasPrev}
        hasMore={has_more}
        onPrev={pager.prev}
        onNext={() => pager.next(data[data.length - 1].id)}
      />
    </>
  );
}

function DeliveryItem(props: {
  d: Delivery;
  subscriptionId: string;
  open: boolean;
  onToggle: () => void;
  onRedeliver: () => void;
  busy: boolean;
}) {
  const { d, open } = props;
  const panelId = `attempts-${d.id}`;
  return (
    <li className={`delivery${open ? ' delivery-open' : ''}`}>
      <div className="delivery-row">
        <button
          type="button"
          className="disclosure"
          aria-expanded={open}
          aria-controls={panelId}
          aria-label={`Attempts of ${d.event_type} (delivery ${d.id})`}
          onClick={props.onToggle}
        >
          <span className="disclosure-icon" aria-hidden="true">
            ▸
          </span>
          <span className="mono delivery-type">{d.event_type}</span>
        </button>
        <DeliveryStatusBadge status={d.status} attempts={d.attempts} code={d.last_status_code} />
        <span className="subtle delivery-attempts">
          {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
          {d.last_duration_ms != null ? ` · ${d.last_duration_ms} ms` : ''}
        </span>
        <span className="subtle delivery-time">
          <Time iso={d.last_attempt_at ?? d.created_at} />
        </span>
        {d.document_id && (
          <Link to={linkTo.document(d.document_id)} className="mono subtle delivery-doc" aria-label={`Document ${d.document_id}`}>
            {d.document_id}
          </Link>
        )}
        {d.status === 'pending' && d.next_attempt_at && (
          <span className="subtle">
            next <Time iso={d.next_attempt_at} tense="future" />
          </span>
        )}
        <button
          type="button"
          className="btn btn-small delivery-redeliver"
          onClick={props.onRedeliver}
          disabled={props.busy}
          aria-label={`Redeliver ${d.event_type} (${d.id})`}
        >
          {props.busy ? 'Sending…' : 'Redeliver'}
        </button>
      </div>
      {d.last_error && !open && <p className="delivery-error subtle">{d.last_error}</p>}
      {open && (
        <div id={panelId} className="delivery-panel">
          <DeliveryAttempts subscriptionId={props.subscriptionId} deliveryId={d.id} />
        </div>
      )}
    </li>
  );
}
