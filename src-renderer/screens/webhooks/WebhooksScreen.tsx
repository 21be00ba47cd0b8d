// Settings → Integrations → Webhooks: the company's subscriptions (URL, type, status,
// created, last delivery outcome), the creation form, and the secret shown once.
import { Truncated } from '../../components/Truncated.js';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { PAGE_SIZE } from '../../api/client.js';
import { inboxListQuery } from '../../api/receiver.js';
import { deliveryPageQuery, subscriptionListQuery } from '../../api/webhooks.js';
import type { Subscription } from '@shared/api-types.js';
import { DeliveryStatusBadge, SubscriptionStatusBadge } from '../../components/Badge.js';
import { Card } from '../../components/Card.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { PageHeader } from '../../components/PageHeader.js';
import { Pager, useCursorPager } from '../../components/Pager.js';
import { EmptyState, Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';
import { useTitle } from '../../use-title.js';
import { isRemote, useConnection } from '../../api/connection.js';
import { CreateSubscriptionForm, type Created } from './CreateSubscriptionForm.js';
import { fingerprintFor } from './fingerprint.js';
import { SecretDialog } from './SecretDialog.js';

export function WebhooksScreen() {
  useTitle('Webhooks');
  const [created, setCreated] = useState<Created | null>(null);
  const inboxes = useQuery({ ...inboxListQuery(), retry: false });
  const connection = useConnection();
  const remote = isRemote(connection);
  // A remote service reaches an inbox only through the tunnel; the built-in one at its loopback URL.
  const suggestion = (remote ? inboxes.data?.[0]?.public_url : inboxes.data?.[0]?.local_url) ?? undefined;
  return (
    <>
      <PageHeader title="Webhooks">
        <p className="page-lede">
          Subscriptions{remote ? ` on ${connection.name}` : ''} receive a signed POST for each document event they want.
        </p>
      </PageHeader>
      <Card title="New subscription">
        <CreateSubscriptionForm
          onCreated={setCreated}
          suggestion={suggestion}
          suggestionLabel={remote ? 'Use your receiver (through the tunnel)' : undefined}
        />
      </Card>
      <Card title="Subscriptions" flush>
        <SubscriptionTable />
      </Card>
      {created && <SecretDialog subscription={created.subscription} fingerprint={created.fingerprint} onClose={() => setCreated(null)} />}
    </>
  );
}

function SubscriptionTable() {
  const pager = useCursorPager();
  const list = useQuery(subscriptionListQuery({ limit: PAGE_SIZE, starting_after: pager.cursor }));
  if (list.isPending) return <Loading what="subscriptions" />;
  if (list.isError) return <ErrorNotice error={list.error} title="The subscriptions could not be loaded." />;
  const { data, has_more } = list.data;
  if (data.length === 0 && !pager.hasPrev) {
    return <EmptyState title="No subscriptions yet.">Create one above to start receiving deliveries.</EmptyState>;
  }
  const disabled = data.filter((s) => s.status === 'disabled');
  return (
    <>
      {disabled.length > 0 && (
        <div role="status" className="notice notice-warning">
          {disabled.map((s) => (
            <p key={s.public_id}>
              <Link to={linkTo.subscription(s.public_id)} className="mono">
                {s.public_id}
              </Link>{' '}
              is disabled: {s.disabled_reason} Its deliveries are kept as skipped until it is enabled and recovered.
            </p>
          ))}
        </div>
      )}
      <DataTable
        caption="Webhook subscriptions, oldest first"
        columns={[
          'Endpoint URL',
          'Type',
          'Status',
          { label: 'Secret', secondary: true },
          { label: 'Created', secondary: true },
          'Last delivery',
        ]}
      >
        {data.map((s) => (
          <SubscriptionRow key={s.public_id} sub={s} />
        ))}
      </DataTable>
      <Pager
        label="Subscriptions"
        page={pager.page}
        hasPrev={pager.hasPrev}
        hasMore={has_more}
        onPrev={pager.prev}
        onNext={() => pager.next(data[data.length - 1].public_id)}
      />
    </>
  );
}

function SubscriptionRow({ sub }: { sub: Subscription }) {
  const last = useQuery(deliveryPageQuery(sub.public_id, { limit: 1 }));
  const latest = last.data?.data[0];
  const fp = fingerprintFor(sub.public_id);
  return (
    <tr>
      <td className="cell-title">
        <Link to={linkTo.subscription(sub.public_id)} className="mono">
          <Truncated text={sub.url} className="truncated-wide" />
        </Link>
        {/* Several subscriptions may share a URL: the id (and the Type column) tell them apart. */}
        <span className="cell-id mono subtle">{sub.public_id}</span>
      </td>
      <td className="mono cell-muted">{sub.type}</td>
      <td>
        <SubscriptionStatusBadge status={sub.status} />
      </td>
      <td
        className="mono cell-muted col-secondary"
        title={fp ? 'Fingerprint: first 8 hex of sha256 of the secret' : 'Created elsewhere: this browser kept no fingerprint'}
      >
        {fp ?? '—'}
      </td>
      <td className="cell-muted nowrap col-secondary">
        <Time iso={sub.created_at} />
      </td>
      <td>
        {latest ? (
          <span className="last-delivery">
            <DeliveryStatusBadge status={latest.status} attempts={latest.attempts} code={latest.last_status_code} />
            <span className="subtle">
              <Time iso={latest.last_attempt_at ?? latest.created_at} />
            </span>
          </span>
        ) : last.isPending ? (
          <span className="subtle">…</span>
        ) : (
          <span className="subtle">None yet</span>
        )}
      </td>
    </tr>
  );
}
