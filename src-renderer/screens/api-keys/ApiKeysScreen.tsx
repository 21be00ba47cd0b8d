// Settings → API keys: the company's keys (role, hint, label), a new admin or member
// key (shown once, like a secret), and revocation (confirmed). The console's own key
// cannot be revoked from here.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { apiKeysQuery, useCreateApiKey, useRevokeApiKey } from '../../api/api-keys.js';
import { ApiRequestError } from '../../api/errors.js';
import type { ApiKey, CreatedApiKey } from '@shared/api-types.js';
import { Badge } from '../../components/Badge.js';
import { Card } from '../../components/Card.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { Modal } from '../../components/Modal.js';
import { PageHeader } from '../../components/PageHeader.js';
import { SecretReveal } from '../../components/SecretReveal.js';
import { EmptyState, Loading } from '../../components/States.js';
import { Time } from '../../components/Time.js';
import { useTitle } from '../../use-title.js';

// One key's row; the console's own key has no Revoke button (it cannot be revoked here).
function KeyRow({ apiKey: k, onRevoke }: { apiKey: ApiKey; onRevoke: (k: ApiKey) => void }) {
  return (
    <tr>
      <td>
        {k.label}
        {k.current_console && (
          <>
            {' '}
            <Badge tone="info">this console</Badge>
          </>
        )}
      </td>
      <td>
        <Badge tone={k.role === 'admin' ? 'neutral' : 'muted'}>{k.role}</Badge>
      </td>
      <td className="mono cell-muted">{k.hint}</td>
      <td className="cell-muted nowrap">
        <Time iso={k.created_at} />
      </td>
      <td className="cell-actions">
        {k.current_console ? (
          <span className="subtle">In use by this console</span>
        ) : (
          <button
            type="button"
            className="btn btn-small btn-ghost-danger"
            onClick={() => onRevoke(k)}
            aria-label={`Revoke ${k.label} (${k.hint})`}
          >
            Revoke
          </button>
        )}
      </td>
    </tr>
  );
}

export function ApiKeysScreen() {
  useTitle('API keys');
  const keys = useQuery(apiKeysQuery());
  const [made, setMade] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const revoke = useRevokeApiKey();
  return (
    <>
      <PageHeader title="API keys">
        <p className="page-lede">
          Keys authenticate calls to the service API (<span className="mono">X-Api-Key</span>). Admins may manage webhooks; members may not.
        </p>
      </PageHeader>
      <Card title="New key">
        <CreateKeyForm onCreated={setMade} />
      </Card>
      <Card title="Keys" flush>
        {keys.isPending ? (
          <Loading what="keys" />
        ) : keys.isError ? (
          <ErrorNotice error={keys.error} title="The keys could not be loaded." />
        ) : keys.data.length === 0 ? (
          <EmptyState title="No keys." />
        ) : (
          <DataTable caption="API keys, newest first" columns={['Label', 'Role', 'Key', 'Created']} actions>
            {keys.data.map((k) => (
              <KeyRow key={k.id} apiKey={k} onRevoke={setRevoking} />
            ))}
          </DataTable>
        )}
      </Card>
      {made && (
        <Modal
          title="API key created"
          description={`${made.role === 'admin' ? 'An admin' : 'A member'} key for ${made.company?.name ?? 'this company'}.`}
          onClose={() => setMade(null)}
          wide
          actions={
            <button type="button" className="btn btn-primary" onClick={() => setMade(null)}>
              Done
            </button>
          }
        >
          <SecretReveal value={made.key} what="API key" kept="Countersign stores only a hash of it." />
        </Modal>
      )}
      {revoking && (
        <ConfirmDialog
          title="Revoke this key?"
          confirmLabel="Revoke key"
          busy={revoke.isPending}
          error={revoke.error}
          onCancel={() => {
            setRevoking(null);
            revoke.reset();
          }}
          onConfirm={() => revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
        >
          <p>
            Programs using <strong>{revoking.label}</strong> (<span className="mono">{revoking.hint}</span>) will get 401 from now on.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (k: CreatedApiKey) => void }) {
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const [label, setLabel] = useState('');
  const create = useCreateApiKey();
  const err = create.error instanceof ApiRequestError ? create.error : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { role, label: label.trim() || undefined },
      {
        onSuccess: (k) => {
          setLabel('');
          onCreated(k);
        },
      },
    );
  };
  return (
    <form className="create-form" onSubmit={submit} noValidate aria-label="New API key">
      <Field label="Label" error={err?.fieldMessage('label')} className="field-grow">
        <input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={100} placeholder="e.g. CI pipeline" />
      </Field>
      <Field label="Role" error={err?.fieldMessage('role')}>
        <select value={role} onChange={(e) => setRole(e.target.value as 'admin' | 'member')}>
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
      </Field>
      <div className="create-form-submit">
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </div>
      {create.error != null && err?.fields.length === 0 && (
        <div className="create-form-error">
          <ErrorNotice error={create.error} />
        </div>
      )}
    </form>
  );
}
