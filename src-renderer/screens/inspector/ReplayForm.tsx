// Replay a captured request to any URL: byte-exact (same method, headers and body; the
// original signature and timestamp kept), or with the body edited and signed again
// with a fresh timestamp (the inbox's secret unless another is given). The answer is
// shown as text. An inbox of this receiver is one click away as a target. A body edited
// into invalid JSON (when the captured one was JSON) is not sent: the editor says why.
import { useId, useRef, useState, type FormEvent } from 'react';
import { useReplay } from '../../api/inspector.js';
import { ApiRequestError } from '../../api/errors.js';
import type { Inbox } from '@shared/receiver-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { ReplayBodyEditor, jsonProblem } from './ReplayBodyEditor.js';
import { ReplayResult } from './ReplayResult.js';

const OTHER = '__other__';
type Mode = 'exact' | 'resign';

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
  const [mode, setMode] = useState<Mode>('exact');
  const [body, setBody] = useState(bodyText ?? '');
  const [secret, setSecret] = useState('');
  const replay = useReplay(captureId);
  const err = replay.error instanceof ApiRequestError ? replay.error : undefined;
  const wasJson = bodyText !== null && !jsonProblem(bodyText);
  const form = useRef<HTMLFormElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'resign' && wasJson && jsonProblem(body)) {
      form.current?.querySelector<HTMLElement>('.code-editor')?.focus();
      return;
    }
    const to = target === OTHER ? url.trim() : target;
    replay.mutate(
      mode === 'exact'
        ? { url: to, mode }
        : { url: to, mode, body: body !== bodyText ? body : undefined, secret: secret.trim() || undefined },
      { onSuccess: () => setTimeout(() => form.current?.querySelector<HTMLElement>('.replay-result')?.focus(), 0) },
    );
  };
  return (
    <form ref={form} className="replay" onSubmit={submit} aria-label="Replay this request" noValidate>
      <ReplayTarget
        inboxes={inboxes}
        fromInbox={fromInbox}
        target={target}
        setTarget={setTarget}
        url={url}
        setUrl={setUrl}
        urlError={err?.fieldMessage('url')}
      />
      <ReplayMode mode={mode} setMode={setMode} canResign={bodyText !== null} />
      {mode === 'resign' && (
        <>
          <ReplayBodyEditor value={body} onChange={setBody} json={wasJson} serverError={err?.fieldMessage('body')} />
          <ReplaySecret value={secret} onChange={setSecret} error={err?.fieldMessage('secret')} />
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
      {replay.data && <ReplayResult r={replay.data} />}
    </form>
  );
}

function ReplayTarget({
  inboxes,
  fromInbox,
  target,
  setTarget,
  url,
  setUrl,
  urlError,
}: {
  inboxes: Inbox[];
  fromInbox: string;
  target: string;
  setTarget: (value: string) => void;
  url: string;
  setUrl: (value: string) => void;
  urlError: string | undefined;
}) {
  return (
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
        <Field label="URL" error={urlError}>
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
  );
}

function ReplayMode({ mode, setMode, canResign }: { mode: Mode; setMode: (mode: Mode) => void; canResign: boolean }) {
  const modeName = useId();
  return (
    <fieldset className="fieldset">
      <legend>How</legend>
      <label className="radio">
        <input type="radio" name={modeName} checked={mode === 'exact'} onChange={() => setMode('exact')} />
        Byte-exact: same headers, body and signature (a receiver will call it stale after 5 minutes)
      </label>
      <label className="radio">
        <input type="radio" name={modeName} checked={mode === 'resign'} onChange={() => setMode('resign')} disabled={!canResign} />
        Edited and re-signed: fresh timestamp and signature, same webhook-id
      </label>
    </fieldset>
  );
}

function ReplaySecret({ value, onChange, error }: { value: string; onChange: (v: string) => void; error: string | undefined }) {
  return (
    <Field label="Secret (optional)" hint="Empty: the inbox's own secret, the one that verified this request." error={error}>
      <input
        type="password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="whsec_…"
        autoComplete="off"
        spellCheck={false}
      />
    </Field>
  );
}
