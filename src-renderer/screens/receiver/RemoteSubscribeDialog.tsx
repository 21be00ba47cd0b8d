// "Subscribe this inbox" on a remote connection: the subscription is made on the remote
// (through the backend), at the inbox's public URL, since a real service reaches this
// machine only through the tunnel. Countersign remembers it, pastes its secret on the
// inbox (so verdicts verify), and offers to move it when the tunnel's URL changes.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CreatedSubscription, SubscriptionType } from '@shared/api-types.js';
import type { Inbox } from '@shared/receiver-types.js';
import type { Connection } from '@shared/connection-types.js';
import { receiverKeys } from '../../api/keys.js';
import { useCreateSubscription } from '../../api/webhooks.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { Modal } from '../../components/Modal.js';
import { SubscriptionTypeSelect } from '../../components/SubscriptionTypeSelect.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';

export function RemoteSubscribeDialog({ inbox, connection, onClose }: { inbox: Inbox; connection: Connection; onClose: () => void }) {
  const [type, setType] = useState<SubscriptionType>('all');
  const [done, setDone] = useState<CreatedSubscription | null>(null);
  const create = useCreateSubscription();
  const qc = useQueryClient();
  const url = inbox.public_url;
  const subscribe = () =>
    url &&
    create.mutate(
      { url, type },
      {
        onSuccess: async (s) => {
          await qc.invalidateQueries({ queryKey: receiverKeys.all });
          setDone(s);
        },
      },
    );
  return (
    <Modal
      title={`Subscribe ${inbox.name} on ${connection.name}`}
      description={
        done
          ? undefined
          : url
            ? `Creates a subscription on ${connection.name} to ${url} (the public URL: the tunnel is online).`
            : `${connection.name} can reach this inbox only through the tunnel, and the tunnel is not online: start it first.`
      }
      onClose={onClose}
      actions={
        done || !url ? (
          <button type="button" className="btn btn-primary" onClick={onClose} data-autofocus>
            {done ? 'Done' : 'Close'}
          </button>
        ) : (
          <>
            <button type="button" className="btn" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="btn btn-primary" disabled={create.isPending} onClick={subscribe}>
              {create.isPending ? 'Subscribing…' : 'Subscribe'}
            </button>
          </>
        )
      }
    >
      {done ? (
        <div className="subscribed" role="status">
          <p>
            Subscription{' '}
            <Link to={linkTo.subscription(done.public_id)} className="mono">
              {done.public_id}
            </Link>{' '}
            made on {connection.name} for <span className="mono">{done.type}</span> events.
          </p>
          <p className="mono break">{done.url}</p>
          <p className="subtle">
            Its secret is pasted on this inbox (unless one was there already), so the inbox verifies the deliveries. If the tunnel's address
            changes, Settings → Connections offers to move it.
          </p>
        </div>
      ) : (
        url && (
          <>
            <Field label="Subscription type" hint="Which events it receives.">
              <SubscriptionTypeSelect value={type} onChange={setType} data-autofocus />
            </Field>
            {create.error != null && <ErrorNotice error={create.error} title="Not subscribed." />}
          </>
        )
      )}
    </Modal>
  );
}
