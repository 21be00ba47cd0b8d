// Settings → Connections: adding a connection. The key is typed only where the OS
// keychain can keep it (the desktop); otherwise, and by choice, the form names an
// environment variable of the Countersign process or a file, and only that name is kept.
import { useState, type FormEvent } from 'react';
import { useCreateConnection } from '../../api/connections.js';
import { ApiRequestError } from '../../api/errors.js';
import type { KeyStorageInfo, NewConnection } from '@shared/connection-types.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';

type Source = 'keychain' | 'env' | 'file';

const EMPTY = { name: '', base_url: '', app_url: '', key: '' };

export function NewConnectionForm({ storage }: { storage: KeyStorageInfo }) {
  const [f, setF] = useState(EMPTY);
  const [source, setSource] = useState<Source>(storage.keychain ? 'keychain' : 'env');
  const create = useCreateConnection();
  const err = create.error instanceof ApiRequestError ? create.error : undefined;
  const keyField = source === 'keychain' ? 'api_key' : source === 'env' ? 'api_key_env' : 'api_key_file';
  const named = ['name', 'base_url', 'app_url', 'api_key', 'api_key_env', 'api_key_file'];
  const otherError = create.error != null && !named.some((n) => err?.fieldMessage(n));
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input: NewConnection = { name: f.name.trim(), base_url: f.base_url.trim(), app_url: f.app_url.trim(), [keyField]: f.key.trim() };
    create.mutate(input, { onSuccess: () => setF(EMPTY) });
  };

  return (
    <form className="stack-form" onSubmit={submit} noValidate aria-label="New connection">
      <Field label="Name" error={err?.fieldMessage('name')} hint="How the switcher shows it, e.g. Production.">
        <input value={f.name} onChange={set('name')} autoComplete="off" />
      </Field>
      <Field label="API address" error={err?.fieldMessage('base_url')} hint="The service's API, e.g. https://api.example.com.">
        <input type="url" value={f.base_url} onChange={set('base_url')} placeholder="https://api.example.com" spellCheck={false} />
      </Field>
      <Field label="App address" error={err?.fieldMessage('app_url')} hint="Its web app, where document links open.">
        <input type="url" value={f.app_url} onChange={set('app_url')} placeholder="https://app.example.com" spellCheck={false} />
      </Field>
      <fieldset className="key-source">
        <legend className="field-label">Where the API key is</legend>
        <label>
          <input
            type="radio"
            name="key-source"
            checked={source === 'keychain'}
            disabled={!storage.keychain}
            onChange={() => setSource('keychain')}
          />{' '}
          Type it (kept in the OS keychain)
        </label>
        <label>
          <input type="radio" name="key-source" checked={source === 'env'} onChange={() => setSource('env')} /> An environment variable
        </label>
        <label>
          <input type="radio" name="key-source" checked={source === 'file'} onChange={() => setSource('file')} /> A file
        </label>
        <p className="field-hint">{storage.note}</p>
      </fieldset>
      <Field
        label={source === 'keychain' ? 'API key' : source === 'env' ? 'Variable name' : 'File path'}
        error={err?.fieldMessage(keyField)}
        hint={
          source === 'keychain'
            ? 'An admin key of the company whose webhooks you manage. It never reaches this page again.'
            : source === 'env'
              ? 'Set for the Countersign process, e.g. PROD_SIGNING_KEY; read at each call.'
              : 'An absolute path; the first line is the key; read at each call.'
        }
      >
        <input
          type={source === 'keychain' ? 'password' : 'text'}
          value={f.key}
          onChange={set('key')}
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add connection'}
        </button>
      </div>
      {otherError && <ErrorNotice error={create.error} title="The connection was not added." />}
      {create.isSuccess && (
        <p role="status" className="action-result">
          Added “{create.data.name}”. Pick it in the switcher to work on it.
        </p>
      )}
    </form>
  );
}
