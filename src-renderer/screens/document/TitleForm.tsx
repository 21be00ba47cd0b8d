// The document's title, edited in place and saved with PUT /documents/{id}.
import { useEffect, useState, type FormEvent } from 'react';
import { useUpdateDocument } from '../../api/documents.js';
import { ApiRequestError } from '../../api/errors.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import type { Document } from '@shared/api-types.js';

export function TitleForm({ doc }: { doc: Document }) {
  const [title, setTitle] = useState(doc.title);
  const [saved, setSaved] = useState(false);
  const update = useUpdateDocument(doc.public_id);
  // A change from elsewhere (live stream) replaces the field unless the person is editing.
  const [base, setBase] = useState(doc.title);
  useEffect(() => {
    if (doc.title !== base) {
      if (title === base) setTitle(doc.title);
      setBase(doc.title);
    }
  }, [doc.title, base, title]);

  const err = update.error instanceof ApiRequestError ? update.error : undefined;
  const titleError = err?.fieldMessage('title');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    update.mutate({ title }, { onSuccess: () => setSaved(true) });
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <Field label="Title" error={titleError}>
        <input
          value={title}
          maxLength={255}
          onChange={(e) => {
            setTitle(e.target.value);
            setSaved(false);
          }}
        />
      </Field>
      <div className="inline-form-actions">
        <button type="submit" className="btn btn-primary" disabled={update.isPending || title === doc.title}>
          {update.isPending ? 'Saving…' : 'Save'}
        </button>
        <span role="status" className="saved-note">
          {saved && title === doc.title ? 'Saved.' : ''}
        </span>
      </div>
      {update.error != null && !titleError && <ErrorNotice error={update.error} />}
    </form>
  );
}
