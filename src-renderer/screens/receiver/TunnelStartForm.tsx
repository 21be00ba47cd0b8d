// Starting the tunnel: the ngrok authtoken (kept in the OS keychain by the desktop app,
// only handed to the local service by the browser console), and, when one is set, the
// way to clear it (a mistyped or revoked token would otherwise be retried forever).
import { useState, type FormEvent } from 'react';
import { NGROK_AUTHTOKEN_SECRET } from '@shared/ipc-contract.js';
import type { TunnelView } from '@shared/receiver-types.js';
import { useForgetAuthtoken, useStartTunnel } from '../../api/receiver.js';
import { messageOf } from '../../api/errors.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { desktopBridge } from '../../platform.js';

/** Keeps the token in the desktop's keychain; says where it went (or why not). */
async function keep(value: string): Promise<string | null> {
  const bridge = desktopBridge();
  if (!bridge) return null;
  try {
    const info = await bridge.setSecret(NGROK_AUTHTOKEN_SECRET, value);
    return info.protectedByKeychain
      ? 'The authtoken is kept in the OS keychain for the next start.'
      : `The authtoken is kept for the next start. ${info.note}`;
  } catch (err) {
    return `The authtoken is used for this run only: it could not be kept (${messageOf(err)}).`;
  }
}

export function TunnelStartForm({ t, badToken }: { t: TunnelView; badToken: boolean }) {
  const start = useStartTunnel();
  const forget = useForgetAuthtoken();
  const [token, setToken] = useState('');
  const [kept, setKept] = useState<string | null>(null);
  const hasToken = t.status !== 'offline';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = token.trim() || undefined;
    setKept(value ? await keep(value) : null);
    start.mutate(value, { onSuccess: () => setToken('') });
  };
  const clear = async () => {
    await desktopBridge()
      ?.deleteSecret(NGROK_AUTHTOKEN_SECRET)
      .catch(() => undefined);
    setKept(null);
    forget.mutate(undefined, { onSuccess: () => document.querySelector<HTMLInputElement>('.tunnel-form input')?.focus() });
  };
  return (
    <>
      <form className="tunnel-form" onSubmit={submit} aria-label="Start the tunnel">
        <Field
          label="ngrok authtoken"
          hint={hasToken ? 'Empty: use the authtoken already set.' : 'From dashboard.ngrok.com. Never shown again.'}
        >
          <input
            type="password"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            placeholder={hasToken ? '(set)' : '2abc…'}
          />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={start.isPending || (!hasToken && token.trim() === '')}>
          {start.isPending ? 'Connecting…' : 'Start tunnel'}
        </button>
        {hasToken && (
          <button type="button" className={badToken ? 'btn btn-danger' : 'btn btn-ghost'} onClick={clear} disabled={forget.isPending}>
            Clear authtoken
          </button>
        )}
      </form>
      {kept && <p className="subtle">{kept}</p>}
      {start.error != null && <ErrorNotice error={start.error} title="The tunnel did not start." />}
      {forget.error != null && <ErrorNotice error={forget.error} title="The authtoken was not cleared." />}
    </>
  );
}
