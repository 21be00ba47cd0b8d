// Open one document by its id or its link. A link of a connection's web app
// ({app_url}/documents?d=…) switches to that connection first, so a link copied from the
// real service opens on the service it came from; a bare id opens on the current one.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { connectionListQuery } from '../../api/connections.js';
import { statusQuery } from '../../api/session.js';
import { mapDocumentLink, switchConnection, useConnection } from '../../api/connection.js';
import { Field } from '../../components/Field.js';
import { linkTo } from '../../paths.js';
import { navigate } from '../../router.js';

export function OpenDocumentForm() {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const list = useQuery(connectionListQuery());
  const status = useQuery(statusQuery());
  const active = useConnection();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const hit = mapDocumentLink(value, list.data?.data ?? [], status.data?.addresses.app_url ?? null, active);
    if (!hit) {
      setError('Give a document id (doc_…) or a link such as https://app.example.com/documents?d=doc_… of a known connection.');
      return;
    }
    setError(undefined);
    switchConnection(hit.connection);
    navigate(linkTo.document(hit.documentId));
  };

  return (
    <form className="create-form" onSubmit={submit} noValidate aria-label="Open a document">
      <Field label="Document id or link" error={error} className="field-grow">
        <input
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="doc_… or https://app.example.com/documents?d=doc_…"
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <div className="create-form-submit">
        <button type="submit" className="btn btn-primary">
          Open document
        </button>
      </div>
    </form>
  );
}
