// Metadata as JSON: checked in the page before sending (and again by the service).
import { useState, type FormEvent } from 'react';
import { useUpdateDocument } from '../../api/documents.js';
import { ApiRequestError } from '../../api/errors.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import type { Document } from '@shared/api-types.js';
import { checkMetadata, formatMetadata } from './metadata.js';

export function MetadataEditor({ doc }: { doc: Document }) {
  const original = formatMetadata(doc.metadata);
  const [text, setText] = useState(original);
  const [localError, setLocalError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const update = useUpdateDocument(doc.public_id);
  const apiError = update.error instanceof ApiRequestError ? update.error.fieldMessage('metadata') : undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const check = checkMetadata(text);
    if (!check.ok) {
      setLocalError(check.message);
      return;
    }
    setLocalError(undefined);
    update.mutate(
      { metadata: check.value },
      {
        onSuccess: (d) => {
          setText(formatMetadata(d.metadata));
          setSaved(true);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="form">
      <Field
        label="Metadata (JSON)"
        error={localError ?? apiError}
        hint="A JSON object of at most 50 keys; each key at most 40 characters. Saving replaces all metadata."
      >
        <textarea
          className="code-input"
          rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
          value={text}
          spellCheck={false}
          onChange={(e) => {
            setText(e.target.value);
            setSaved(false);
            setLocalError(undefined);
          }}
        />
      </Field>
      <div className="inline-form-actions">
        <button type="submit" className="btn" disabled={update.isPending || text === original}>
          {update.isPending ? 'Saving…' : 'Save metadata'}
        </button>
        <button type="button" className="btn btn-ghost" disabled={text === original} onClick={() => setText(original)}>
          Reset
        </button>
        <span role="status" className="saved-note">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
      {update.error != null && !apiError && <ErrorNotice error={update.error} />}
    </form>
  );
}
