// The receiver: the tunnel, and the inboxes (each at its own URL, local and public,
// with its secret by fingerprint and how it answers), with create, edit, delete and
// "subscribe this inbox". What each inbox received is in the inspector.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { inboxListQuery, useDeleteInbox } from '../../api/receiver.js';
import type { Inbox } from '@shared/receiver-types.js';
import { Card } from '../../components/Card.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Fact } from '../../components/Fact.js';
import { Modal } from '../../components/Modal.js';
import { PageHeader } from '../../components/PageHeader.js';
import { EmptyState, Loading } from '../../components/States.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';
import { useTitle } from '../../use-title.js';
import { ImportedMode } from './ImportedMode.js';
import { InboxForm } from './InboxForm.js';
import { InboxSubscriptions } from './InboxSubscriptions.js';
import { SecretState } from './SecretState.js';
import { SubscribeDialog } from './SubscribeDialog.js';
import { TunnelPanel } from './TunnelPanel.js';

function InboxItem({
  inbox,
  onEdit,
  onSubscribe,
  onDelete,
}: {
  inbox: Inbox;
  onEdit: () => void;
  onSubscribe: () => void;
  onDelete: () => void;
}) {
  return (
    <li className="inbox" aria-label={`Inbox ${inbox.name}`}>
      <div className="inbox-top">
        <span className="inbox-name">{inbox.name}</span>
        <span className="mono subtle">{inbox.id}</span>
        <span className="inbox-actions">
          <Link to={linkTo.inspector({ inbox: inbox.id })} className="btn btn-small btn-ghost">
            {inbox.capture_count.toLocaleString()} {inbox.capture_count === 1 ? 'request' : 'requests'} →
          </Link>
          <button type="button" className="btn btn-small" onClick={onSubscribe}>
            Subscribe this inbox
          </button>
          <button type="button" className="btn btn-small" onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="btn btn-small btn-ghost-danger" onClick={onDelete}>
            Delete
          </button>
        </span>
      </div>
      <dl className="inbox-facts">
        <Fact label="Local URL">
          <span className="mono inbox-url">{inbox.local_url}</span>{' '}
          <CopyButton value={inbox.local_url} what={`local URL of ${inbox.name}`} />
        </Fact>
        <Fact label="Public URL">
          {inbox.public_url ? (
            <>
              <span className="mono inbox-url">{inbox.public_url}</span>{' '}
              <CopyButton value={inbox.public_url} what={`public URL of ${inbox.name}`} />
            </>
          ) : (
            <span className="subtle">none: the tunnel is not online</span>
          )}
        </Fact>
        <Fact label="Verifies with">
          <SecretState inbox={inbox} />
        </Fact>
        <Fact label="Subscriptions">
          <InboxSubscriptions inboxId={inbox.id} />
        </Fact>
        <Fact label="Answers">
          <span className="inbox-answers">
            <span>{inbox.response_description}</span>
            <ImportedMode inbox={inbox} />
          </span>
        </Fact>
      </dl>
    </li>
  );
}

export function ReceiverScreen() {
  useTitle('Receiver');
  const inboxes = useQuery(inboxListQuery());
  const [editing, setEditing] = useState<Inbox | null>(null);
  const [subscribing, setSubscribing] = useState<Inbox | null>(null);
  const [deleting, setDeleting] = useState<Inbox | null>(null);
  const [made, setMade] = useState<Inbox | null>(null);
  const remove = useDeleteInbox();

  return (
    <>
      <PageHeader title="Receiver">
        <p className="page-lede">
          Inboxes that capture every request byte for byte, verify its signature, and answer the way you tell them to.
        </p>
      </PageHeader>
      <Card title="Tunnel">
        <TunnelPanel />
      </Card>
      <Card title="Inboxes" flush>
        {inboxes.isPending ? (
          <Loading what="inboxes" />
        ) : inboxes.isError ? (
          <ErrorNotice error={inboxes.error} title="The inboxes could not be loaded." />
        ) : inboxes.data.length === 0 ? (
          <EmptyState title="No inbox yet.">Make one below: it gets its own URL at once.</EmptyState>
        ) : (
          <ul className="inboxes">
            {inboxes.data.map((i) => (
              <InboxItem
                key={i.id}
                inbox={i}
                onEdit={() => setEditing(i)}
                onSubscribe={() => setSubscribing(i)}
                onDelete={() => setDeleting(i)}
              />
            ))}
          </ul>
        )}
      </Card>
      <Card title="New inbox">
        <InboxForm onDone={setMade} />
        {made && (
          <p className="action-result" role="status">
            Made {made.name}: <span className="mono">{made.local_url}</span>
          </p>
        )}
      </Card>
      {editing && (
        <Modal title={`Edit ${editing.name}`} onClose={() => setEditing(null)} wide>
          <InboxForm inbox={editing} onDone={() => setEditing(null)} onCancel={() => setEditing(null)} />
        </Modal>
      )}
      {subscribing && <SubscribeDialog inbox={subscribing} onClose={() => setSubscribing(null)} />}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete inbox"
          busy={remove.isPending}
          error={remove.error}
          onCancel={() => {
            remove.reset();
            setDeleting(null);
          }}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        >
          Its {deleting.capture_count.toLocaleString()} captured requests are deleted with it. Subscriptions pointing at it stay, and their
          deliveries will fail with 404.
        </ConfirmDialog>
      )}
    </>
  );
}
