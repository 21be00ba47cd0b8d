// "Subscribe this inbox": a subscription of the console's company pointing at the inbox
// (its public URL when the tunnel is online, else its local URL), whose secret the
// inbox then verifies with. Its secret is shown once, like the webhooks form's, then
// only its fingerprint (kept in this browser, like the form's). On a remote connection
// the subscription is made there instead (RemoteSubscribeDialog.tsx).
import { useState } from 'react';
import { SecretReveal } from '../../components/SecretReveal.js';
import { rememberFingerprint } from '../webhooks/fingerprint.js';
import type { SubscriptionType } from '@shared/api-types.js';
import { useSubscribeInbox } from '../../api/receiver.js';
import type { Inbox, SubscribeResult } from '@shared/receiver-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { Modal } from '../../components/Modal.js';
import { SubscriptionTypeSelect } from '../../components/SubscriptionTypeSelect.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';
import { isRemote, useConnection } from '../../api/connection.js';
import { RemoteSubscribeDialog } from './RemoteSubscribeDialog.js';

export function SubscribeDialog({ inbox, onClose }: { inbox: Inbox; onClose: () => void }) {
  const connection = useConnection();
  if (isRemote(connection)) return <RemoteSubscribeDialog inbox={inbox} connection={connection} onClose={onClose} />;
  return <LocalSubscribeDialog inbox={inbox} onClose={onClose} />;
}

function LocalSubscribeDialog({ inbox, onClose }: { inbox: Inbox; onClose: () => void }) {
  const [type, setType] = useState<SubscriptionType>('all');
  const [done, setDone] = useState<SubscribeResult | null>(null);
  const subscribe = useSubscribeInbox();
  const url = inbox.public_url ?? inbox.local_url;
  return (
    <Modal
      title={`Subscribe ${inbox.name}`}
      wide={done !== null}
      description={
        done
          ? undefined
          : `Creates a subscription to ${url}${inbox.public_url ? ' (the public URL: the tunnel is online)' : ' (the local URL)'}.`
      }
      onClose={onClose}
      actions={
        done ? (
          <button type="button" className="btn btn-primary" onClick={onClose} data-autofocus>
            Done
          </button>
        ) : (
          <>
            <button type="button" className="btn" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-primary"
              disabled={subscribe.isPending}
              onClick={() =>
                subscribe.mutate(
                  { id: inbox.id, type },
                  {
                    onSuccess: (r) => {
                      rememberFingerprint(r.subscription.public_id, r.subscription.secret_fingerprint);
                      setDone(r);
                    },
                  },
                )
              }
            >
              {subscribe.isPending ? 'Subscribing…' : 'Subscribe'}
            </button>
          </>
        )
      }
    >
      {done ? (
        <Subscribed done={done} />
      ) : (
        <>
          <Field label="Subscription type" hint="Which events it receives.">
            <SubscriptionTypeSelect value={type} onChange={setType} data-autofocus />
          </Field>
          {subscribe.error != null && <ErrorNotice error={subscribe.error} title="Not subscribed." />}
        </>
      )}
    </Modal>
  );
}

/** What was made: the subscription, its secret once, and how the inbox verifies with it. */
function Subscribed({ done }: { done: SubscribeResult }) {
  return (
    <div className="subscribed" role="status">
      <p>
        Subscription{' '}
        <Link to={linkTo.subscription(done.subscription.public_id)} className="mono">
          {done.subscription.public_id}
        </Link>{' '}
        made for <span className="mono">{done.subscription.type}</span> events.
      </p>
      <p className="mono break">{done.subscription.url}</p>
      <SecretReveal
        value={done.subscription.secret_key}
        what="signing secret"
        kept="Your endpoint verifies deliveries with it; this inbox already does."
      />
      {done.inbox.secret.source === 'pasted' ? (
        <p className="notice notice-warning">
          This inbox has a pasted secret, which takes precedence over the subscription’s (fingerprint{' '}
          <span className="mono">{done.subscription.secret_fingerprint}</span>): its deliveries will say “signed with a different secret”
          until the pasted one is removed (Edit).
        </p>
      ) : (
        <p className="subtle">
          Its secret (fingerprint <span className="mono">{done.subscription.secret_fingerprint}</span>) is linked: this inbox verifies its
          deliveries with it.
        </p>
      )}
    </div>
  );
}
