// Webhooks → Event catalog: every event type the service sends, its payload schema and
// an example, from the service's OpenAPI document; "Send example" sends the example to
// one subscription as a real signed delivery, to see an endpoint handle each type.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { eventCatalogQuery, useSendExample, type CatalogEvent } from '../../api/events.js';
import { allSubscriptionsQuery } from '../../api/webhooks.js';
import { Card } from '../../components/Card.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Loading } from '../../components/States.js';
import { linkTo } from '../../paths.js';
import { Link } from '../../router.js';
import { useTitle } from '../../use-title.js';

export function EventCatalogScreen() {
  useTitle('Event catalog');
  const catalog = useQuery(eventCatalogQuery());
  const [selected, setSelected] = useState<string | null>(null);
  const events = catalog.data ?? [];
  const current = events.find((e) => e.type === selected) ?? events[0];
  return (
    <>
      <PageHeader title="Event catalog">
        <p className="page-lede">
          Every event the service sends, with its payload schema and an example, from the service&apos;s own OpenAPI document (
          <span className="mono">/openapi.json</span>).
        </p>
      </PageHeader>
      {catalog.error != null && <ErrorNotice error={catalog.error} title="The catalog could not be read." />}
      {catalog.isPending && <Loading what="the catalog" />}
      {current && (
        <div className="catalog">
          <nav className="catalog-types" aria-label="Event types">
            {events.map((e) => (
              <button
                key={e.type}
                type="button"
                className={`catalog-type mono${e.type === current.type ? ' is-selected' : ''}`}
                aria-current={e.type === current.type ? 'true' : undefined}
                onClick={() => setSelected(e.type)}
              >
                {e.type}
              </button>
            ))}
          </nav>
          <EventDetail event={current} />
        </div>
      )}
    </>
  );
}

function EventDetail({ event }: { event: CatalogEvent }) {
  return (
    <div className="catalog-detail">
      <Card title={event.type}>
        <p>{event.summary}</p>
        <SendExample type={event.type} />
      </Card>
      <Card title="Example">
        <pre className="code-block" tabIndex={0} aria-label={`Example of ${event.type}`}>
          {JSON.stringify(event.example, null, 2)}
        </pre>
      </Card>
      <Card title="Payload schema">
        <pre className="code-block" tabIndex={0} aria-label={`Schema of ${event.type}`}>
          {JSON.stringify(event.schema, null, 2)}
        </pre>
      </Card>
    </div>
  );
}

function SendExample({ type }: { type: string }) {
  const subs = useQuery(allSubscriptionsQuery());
  const send = useSendExample();
  const [chosen, setChosen] = useState('');
  const target = chosen || subs.data?.[0]?.public_id || '';
  if (subs.data && subs.data.length === 0)
    return (
      <p className="subtle">
        To send an example, <Link to={linkTo.webhooks()}>add a subscription</Link> first.
      </p>
    );
  return (
    <div className="catalog-send">
      <label>
        Subscription{' '}
        <select value={target} onChange={(e) => setChosen(e.target.value)}>
          {subs.data?.map((s) => (
            <option key={s.public_id} value={s.public_id}>
              {s.public_id} · {s.url}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="btn"
        disabled={!target || send.isPending}
        onClick={() => send.mutate({ subscription: target, type })}
      >
        {send.isPending ? 'Sending…' : 'Send example'}
      </button>
      {send.data && send.variables?.type === type && (
        <p role="status" className="subtle">
          Sent as <span className="mono">{send.data.delivery_id}</span> ·{' '}
          <Link to={linkTo.subscription(send.data.subscription_id, send.data.delivery_id)}>see the delivery</Link>
        </p>
      )}
      {send.error != null && <ErrorNotice error={send.error} title="The example could not be sent." />}
    </div>
  );
}
