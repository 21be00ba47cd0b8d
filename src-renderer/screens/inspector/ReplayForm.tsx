// Replay a captured request to any URL: byte-exact (same method, headers and body; the
// original signature and timestamp kept), or with the body edited and signed again
// with a fresh timestamp (the inbox's secret unless another is given). The answer is
// shown as text. An inbox of this receiver is one click away as a target.
import { useId, useState, type FormEvent } from 'react';
import { useReplay } from '../../api/inspector.js';
import { ApiRequestError } from '../../api/errors.js';
import type { Inbox } from '@shared/receiver-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { BodyView } from './BodyView.js';

const OTHER = '__other__';

export function ReplayForm({
  captureId,
  bodyText,
  inboxes,
  fromInbox,
  onClose,
}: {
  captureId: string;
  bodyText: string | null;
  inboxes: Inbox[];
  fromInbox: string;
  onClose: () => void;
}) {
  const others = inboxes.filter((i) => i.id !== fromInbox);
  const [target, setTarget] = useState<string>(others[0]?.local_url ?? OTHER);
  const [url, setUrl] = useState('');
  const [mode, setMode] = useState<'exact' | 'resign'>('exact');
  const [body, setBody] = useState(bodyText ?? '');
  const [secret, setSecret] = useState('');
  const replay = useReplay(captureId);
  const modeName = useId();
  const err = replay.error instanceof ApiRequestError ? replay.error : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const to = target === OTHER ? url.trim() : target;
    replay.mutate(
      mode === 'exact'
        ? { url: to, mode }
        : { url: to, mode, body: body !== bodyText ? body : undefined, secret: secret.trim() || undefined },
    );
  };
  const r = replay.data;
  return (
    <form className="replay" onSubmit={submit} aria-label="Replay this request" noValidate>
      <div className="replay-row">
        <Field label="Send to">
          <select value={target} onChange={(e) => setTarget(e.target.value)}>
            {inboxes.map((i) => (
              <option key={i.id} value={i.local_url}>
                {i.name}
                {i.id === fromInbox ? ' (this inbox)' : ''} · {i.local_url}
              </option>
            ))}
            <option value={OTHER}>Another URL…</option>
          </select>
        </Field>
        {target === OTHER && (
          <Field label="URL" error={err?.fieldMessage('url')}>
            <input
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="http://127.0.0.1:3000/webhooks"
              spellCheck={false}
              autoComplete="off"
            />
          </Field>
        )}
      </div>
      <fieldset className="fieldset">
        <legend>How</legend>
        <label className="radio">
          <input type="radio" name={modeName} checked={mode === 'exact'} onChange={() => setMode('exact')} />
          Byte-exact: same headers, body and signature (a receiver will call it stale after 5 minutes)
        </label>
        <label className="radio">
          <input type="radio" name={modeName} checked={mode === 'resign'} onChange={() => setMode('resign')} disabled={bodyText === null} />
          Edited and re-signed: fresh timestamp and signature, same webhook-id
        </label>
      </fieldset>
      {mode === 'resign' && (
        <>
          <Field label="Body" error={err?.fieldMessage('body')}>
            <textarea className="code-input" rows={8} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} />
          </Field>
          <Field
            label="Secret (optional)"
            hint="Empty: the inbox's own secret, the one that verified this request."
            error={err?.fieldMessage('secret')}
          >
            <input
              type="password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              placeholder="whsec_…"
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
        </>
      )}
      {replay.error != null && !err?.fields.length && <ErrorNotice error={replay.error} title="Not replayed." />}
      <div className="inline-form-actions">
        <button type="submit" className="btn btn-small btn-primary" disabled={replay.isPending}>
          {replay.isPending ? 'Sending…' : 'Send'}
        </button>
        <button type="button" className="btn btn-small btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      {r && (
        <div className="replay-result" role="status">
          <p>
            {r.response ? (
              <span className={`badge badge-${r.response.status < 300 ? 'success' : 'danger'}`}>HTTP {r.response.status}</span>
            ) : (
              <span className="badge badge-danger">no answer</span>
            )}{' '}
            <span className="mono break">{r.url}</span> <span className="subtle">· {r.duration_ms} ms</span>
            {r.request.secret_fingerprint && <span className="subtle"> · signed with {r.request.secret_fingerprint}</span>}
          </p>
          {r.error && <p className="attempt-error">{r.error}</p>}
          {r.response && <BodyView label="Answer" text={r.response.body} note={r.response.truncated ? 'first 64 KiB' : undefined} />}
        </div>
      )}
    </form>
  );
}
