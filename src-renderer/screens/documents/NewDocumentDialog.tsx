// "New document": a title and its recipients, created as a DRAFT through the service's
// test helpers (the way the web application would make one). API field errors appear
// beside the field they name (e.g. recipients.1.email).
import { useState, type FormEvent } from 'react';
import { useCreateDocument } from '../../api/documents.js';
import { ApiRequestError } from '../../api/errors.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { Modal } from '../../components/Modal.js';
import { navigate } from '../../router.js';
import { linkTo } from '../../paths.js';

interface Row {
  key: number;
  name: string;
  email: string;
}

let nextKey = 1;
const emptyRow = (): Row => ({ key: nextKey++, name: '', email: '' });

export function NewDocumentDialog({ onClose }: { onClose: () => void }) {
  const [title, setTitle] = useState('');
  const [rows, setRows] = useState<Row[]>([emptyRow()]);
  const create = useCreateDocument();
  const err = create.error instanceof ApiRequestError ? create.error : undefined;
  const fieldMsg = (f: string) => err?.fields.find((x) => x.field === f)?.message;
  const known = (f: string) => f === 'title' || f === 'recipients' || /^recipients\.\d+\.(name|email)$/.test(f);
  const otherErrors = err && (err.fields.length === 0 || err.fields.some((f) => !known(f.field)));

  const update = (key: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { title, recipients: rows.map(({ name, email }) => ({ name: name.trim(), email: email.trim() })) },
      {
        onSuccess: (doc) => {
          onClose();
          navigate(linkTo.document(doc.public_id));
        },
      },
    );
  };

  return (
    <Modal title="New document" description="Made as a draft through the service's test helpers." onClose={onClose} wide>
      <form onSubmit={submit} noValidate className="form">
        <Field label="Title" error={fieldMsg('title')}>
          <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={255} data-autofocus required />
        </Field>
        <fieldset className="fieldset">
          <legend>Recipients</legend>
          {fieldMsg('recipients') && <p className="field-error">{fieldMsg('recipients')}</p>}
          {rows.map((r, i) => (
            <div className="recipient-row" key={r.key}>
              <Field label={`Recipient ${i + 1} name`} error={fieldMsg(`recipients.${i}.name`)}>
                <input value={r.name} onChange={(e) => update(r.key, { name: e.target.value })} autoComplete="off" />
              </Field>
              <Field label={`Recipient ${i + 1} email`} error={fieldMsg(`recipients.${i}.email`)}>
                <input type="email" value={r.email} onChange={(e) => update(r.key, { email: e.target.value })} autoComplete="off" />
              </Field>
              <button
                type="button"
                className="btn btn-small btn-ghost recipient-remove"
                onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
                disabled={rows.length === 1}
                aria-label={`Remove recipient ${i + 1}`}
              >
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="btn btn-small" onClick={() => setRows((rs) => [...rs, emptyRow()])} disabled={rows.length >= 50}>
            Add recipient
          </button>
        </fieldset>
        {otherErrors && <ErrorNotice error={create.error} />}
        {create.error && !err && <ErrorNotice error={create.error} />}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create document'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
