// One subscription: what it is, "Send test event", "Delete" (confirmed), and its
// delivery log with every attempt. Opened from the list or from a document's timeline
// (?delivery=<id> opens that delivery).
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { subscriptionQuery, useDeleteSubscription, useSendTestEvent } from '../../api/webhooks.js';
import { ApiRequestError } from '../../api/errors.js';
import { isRemote, useConnection } from '../../api/connection.js';
import { SubscriptionStatusBadge } from '../../components/Badge.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Fact } from '../../components/Fact.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { Link, navigate, useLocation } from '../../router.js';
import { linkTo } from '../../paths.js';
import { useTitle } from '../../use-title.js';
import { DeliveryLog } from './DeliveryLog.js';
import { HealthCard } from './HealthCard.js';
import { SecretsCard } from './SecretsCard.js';
import { FaultsCard } from './FaultsCard.js';
import { forgetFingerprint } from './fingerprint.js';
import type { Subscription } from '@shared/api-types.js';

export function SubscriptionScreen({ id }: { id: string }) {
  const sub = useQuery(subscriptionQuery(id));
  const { search } = useLocation();
  const test = useSendTestEvent(id);
  const [confirming, setConfirming] = useState(false);
  // Health, recovery and rotation are the emulator's test helpers: a real deployment has none.
  const remote = isRemote(useConnection());
  useTitle(sub.data ? `Webhook ${sub.data.url}` : 'Webhook');

  if (sub.isPending) return <Loading what="the subscription" />;
  if (sub.isError) return <SubscriptionNotLoaded error={sub.error} />;
  const s = sub.data;
  return (
    <>
      <PageHeader
        title={<span className="mono break title-url">{s.url}</span>}
        actions={
          <>
            <button type="button" className="btn" onClick={() => test.mutate()} disabled={test.isPending}>
              {test.isPending ? 'Sending…' : 'Send test event'}
            </button>
            <button type="button" className="btn btn-ghost-danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          </>
        }
      >
        <SubscriptionFacts s={s} />
      </PageHeader>
      {test.isSuccess && (
        <p role="status" className="notice notice-info">
          Test event queued (delivery <span className="mono">{test.data.delivery_id}</span>). It appears in the log below.
        </p>
      )}
      {test.error != null && <ErrorNotice error={test.error} title="The test event was not sent." />}
      {remote ? (
        <p className="subtle">Health, recovery and secret rotation are test helpers of the built-in service: not offered on a remote.</p>
      ) : (
        <div className="card-pair">
          <HealthCard sub={s} />
          <SecretsCard subscriptionId={s.public_id} />
        </div>
      )}
      {!remote && <FaultsCard subscriptionId={s.public_id} />}
      <section className="card card-flush" aria-labelledby="log">
        <h2 id="log" className="card-title card-title-pad">
          Delivery log
        </h2>
        <DeliveryLog subscriptionId={s.public_id} openId={search.get('delivery') ?? undefined} />
      </section>
      {confirming && <DeleteDialog s={s} onClose={() => setConfirming(false)} />}
    </>
  );
}

function SubscriptionNotLoaded({ error }: { error: Error }) {
  const gone = error instanceof ApiRequestError && error.status === 404;
  return (
    <>
      <PageHeader title="Subscription" />
      {gone ? (
        <EmptyState title="This subscription does not exist (any more).">
          <Link to={linkTo.webhooks()}>All subscriptions</Link>
        </EmptyState>
      ) : (
        <ErrorNotice error={error} title="The subscription could not be loaded." />
      )}
    </>
  );
}

function SubscriptionFacts({ s }: { s: Subscription }) {
  return (
    <dl className="meta-list">
      <Fact label="ID">
        <span className="mono">{s.public_id}</span> <CopyButton value={s.public_id} what="subscription ID" />
      </Fact>
      <Fact label="Type" className="mono">
        {s.type}
      </Fact>
      <Fact label="Status">
        <SubscriptionStatusBadge status={s.status} />
        {s.disabled_reason && <span className="subtle"> {s.disabled_reason}</span>}
      </Fact>
      <Fact label="Created">
        <Time iso={s.created_at} mode="exact" />
      </Fact>
    </dl>
  );
}

/** "Delete" asks first; once deleted, back to the list. */
function DeleteDialog({ s, onClose }: { s: Subscription; onClose: () => void }) {
  const del = useDeleteSubscription();
  return (
    <ConfirmDialog
      title="Delete this subscription?"
      confirmLabel="Delete subscription"
      busy={del.isPending}
      error={del.error}
      onCancel={() => {
        onClose();
        del.reset();
      }}
      onConfirm={() =>
        del.mutate(s.public_id, {
          onSuccess: () => {
            forgetFingerprint(s.public_id);
            navigate(linkTo.webhooks());
          },
        })
      }
    >
      <p>
        No new deliveries will be made to <span className="mono break">{s.url}</span>, and its pending retries are cancelled. This cannot be
        undone.
      </p>
    </ConfirmDialog>
  );
}
