// Create or edit an inbox: its name, a pasted secret (for deliveries from the real
// service; shown afterwards only as a fingerprint, never as itself), and how it
// answers. The API's validation errors appear beside the field they name.
import { useState, type FormEvent } from 'react';
import { ApiRequestError } from '../../api/errors.js';
import { useCreateInbox, useUpdateInbox } from '../../api/receiver.js';
import type { Inbox, InboxInput } from '@shared/receiver-types.js';
import { DEFAULT_MODE } from './inbox-text.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { draftOf, modeOf, ResponseModeEditor } from './ResponseModeEditor.js';
import { SecretState } from './SecretState.js';

// Errors of fields shown beside a control; anything else goes in the notice below.
const SHOWN_FIELDS = new Set([
  'name',
  'secret',
  'response.mode',
  'response.status',
  'response.fail_first_n',
  'response.fail_status',
  'response.retry_after',
  'response.delay_ms',
]);

// The inbox's secret as it stands, and (for a pasted one) the choice to remove it; that
// choice is off while a replacement is typed.
function SecretNow({
  inbox,
  clear,
  onClear,
  replacing,
}: {
  inbox: Inbox;
  clear: boolean;
  onClear: (v: boolean) => void;
  replacing: boolean;
}) {
  return (
    <div className="inbox-secret-now">
      <SecretState inbox={inbox} />
      {inbox.secret.source === 'pasted' && (
        <label className="checkbox">
          <input type="checkbox" checked={clear} onChange={(e) => onClear(e.target.checked)} disabled={replacing} />
          Remove the pasted secret (verify with linked subscriptions instead)
        </label>
      )}
    </div>
  );
}

export function InboxForm({ inbox, onDone, onCancel }: { inbox?: Inbox; onDone: (saved: Inbox) => void; onCancel?: () => void }) {
  const [name, setName] = useState(inbox?.name ?? '');
  const [secret, setSecret] = useState('');
  const [clearSecret, setClearSecret] = useState(false);
  const [mode, setMode] = useState(draftOf(inbox?.response ?? DEFAULT_MODE));
  const create = useCreateInbox();
  const update = useUpdateInbox();
  const m = inbox ? update : create;
  const err = m.error instanceof ApiRequestError ? m.error : undefined;
  const fieldError = (f: string) => err?.fieldMessage(f);
  const otherError = m.error != null && !(err && err.fields.length > 0 && err.fields.every((f) => SHOWN_FIELDS.has(f.field)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: InboxInput = { response: modeOf(mode) };
    if (name.trim()) body.name = name.trim();
    if (secret.trim()) body.secret = secret.trim();
    else if (inbox && clearSecret) body.secret = null;
    const done = (saved: Inbox) => {
      setSecret('');
      setClearSecret(false);
      if (!inbox) {
        setName('');
        setMode(draftOf(DEFAULT_MODE));
      }
      onDone(saved);
    };
    if (inbox) update.mutate({ id: inbox.id, patch: body }, { onSuccess: done });
    else create.mutate(body, { onSuccess: done });
  };

  return (
    <form className="form inbox-form" onSubmit={submit} noValidate aria-label={inbox ? `Edit inbox ${inbox.name}` : 'New inbox'}>
      <div className="inbox-form-row">
        <Field label="Name" error={fieldError('name')} hint={inbox ? undefined : 'Optional: "Inbox 1", "Inbox 2"… otherwise.'}>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="Orders endpoint" maxLength={100} autoComplete="off" />
        </Field>
        <Field
          label={inbox?.secret.source === 'pasted' ? 'Replace the secret' : 'Secret (optional)'}
          error={fieldError('secret')}
          hint="The whsec_ secret the real service gave you. Kept here, shown afterwards only as a fingerprint. Empty: use the secret of a local subscription that points at this inbox."
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
      </div>
      {inbox && <SecretNow inbox={inbox} clear={clearSecret} onClear={setClearSecret} replacing={secret.trim() !== ''} />}
      <ResponseModeEditor value={mode} onChange={setMode} fieldError={fieldError} />
      {otherError && <ErrorNotice error={m.error} title={inbox ? 'The inbox was not saved.' : 'The inbox was not made.'} />}
      <div className="inline-form-actions">
        <button type="submit" className="btn btn-primary" disabled={m.isPending}>
          {m.isPending ? 'Saving…' : inbox ? 'Save inbox' : 'Create inbox'}
        </button>
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
