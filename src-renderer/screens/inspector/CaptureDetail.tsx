// One received request in full: the verdict in words, the duplicate flag, what arrived
// (method, path, headers in order and case, the body formatted or raw), what the inbox
// answered (for a forwarding inbox: the app's answer), and the actions: replay to any URL, copy as curl, compare with what the
// local service sent. Everything received is shown as text.
import { useState } from 'react';
import type { CaptureDetail as CaptureDetailView } from '@shared/inspector-types.js';
import { useQuery } from '@tanstack/react-query';
import { captureCurl, captureDetailQuery } from '../../api/inspector.js';
import { inboxListQuery } from '../../api/receiver.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Fact } from '../../components/Fact.js';
import { Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { Link } from '../../router.js';
import { linkTo } from '../../paths.js';
import { BodyView } from './BodyView.js';
import { CurlButton } from './CurlButton.js';
import { HeadersTable } from './HeadersTable.js';
import { CaptureAnswer, answerText } from './CaptureAnswer.js';
import { ReplayForm } from './ReplayForm.js';
import { VerdictPanel } from './VerdictPanel.js';

type Detail = CaptureDetailView;

function CaptureFacts({
  capture: c,
  inbox,
  delivery,
}: {
  capture: Detail['capture'];
  inbox: Detail['inbox'];
  delivery: Detail['delivery'];
}) {
  return (
    <dl className="detail-facts">
      <Fact label="Received">
        <Time iso={c.received_at} mode="exact" />
      </Fact>
      <Fact label="Inbox">
        <Link to={linkTo.receiver()}>{inbox.name ?? inbox.id}</Link>
      </Fact>
      <Fact label="Answered">{answerText(c.response, c.forward)}</Fact>
      <Fact label="Size">
        {c.size} bytes{c.body_truncated ? ' (over the limit: only the start was kept)' : ''}
      </Fact>
      {c.webhook_id && (
        <Fact label="webhook-id" className="mono">
          {c.webhook_id} <CopyButton value={c.webhook_id} what="webhook-id" />
          {c.attempt_for_id > 1 && <span className="subtle"> · request {c.attempt_for_id} with it</span>}
        </Fact>
      )}
      {delivery && (
        <Fact label="Sent by" className="mono">
          delivery {delivery.id}
          {delivery.document_id && (
            <>
              {' · '}
              <Link to={linkTo.document(delivery.document_id)}>{delivery.document_id}</Link>
            </>
          )}
        </Fact>
      )}
      {c.remote_address && (
        <Fact label="From" className="mono">
          {c.remote_address}
        </Fact>
      )}
    </dl>
  );
}

export function CaptureDetail({ id, onCompare }: { id: string; onCompare: (captureId: string) => void }) {
  const q = useQuery(captureDetailQuery(id));
  const inboxes = useQuery(inboxListQuery());
  const [replaying, setReplaying] = useState(false);
  if (q.isPending) return <Loading what="the request" />;
  if (q.isError) return <ErrorNotice error={q.error} title="The request could not be loaded." />;
  const { capture: c, inbox, delivery } = q.data;
  return (
    <div className="detail">
      <header className="detail-head">
        <p className="detail-kind">Received · {inbox.name ?? inbox.id}</p>
        <h2 className="detail-title mono break">
          {c.method} {c.path}
        </h2>
        {c.event_type && <p className="mono subtle">{c.event_type}</p>}
      </header>
      <VerdictPanel verdict={c.verdict} duplicate={c.duplicate} attemptForId={c.attempt_for_id} />
      <div className="detail-actions">
        <button type="button" className="btn btn-small btn-primary" onClick={() => setReplaying((v) => !v)} aria-expanded={replaying}>
          Replay…
        </button>
        <CurlButton load={() => captureCurl(c.id)} />
        {delivery && (
          <button type="button" className="btn btn-small" onClick={() => onCompare(c.id)}>
            Compare sent and received
          </button>
        )}
      </div>
      {replaying && (
        <ReplayForm
          captureId={c.id}
          bodyText={c.body_text}
          inboxes={inboxes.data ?? []}
          fromInbox={c.inbox_id}
          onClose={() => setReplaying(false)}
        />
      )}
      <CaptureFacts capture={c} inbox={inbox} delivery={delivery} />
      <section className="detail-section" aria-label="Request headers">
        <h3 className="detail-h">Headers</h3>
        <HeadersTable headers={c.headers} label="Request headers as received" />
      </section>
      <section className="detail-section" aria-label="Request body">
        <BodyView label="Body" text={c.body_text} base64={c.body_base64} />
      </section>
      <CaptureAnswer capture={c} />
    </div>
  );
}
