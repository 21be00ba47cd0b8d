// The page a browser sees before it is signed in: how to get in, and a field that takes
// the console token (or the whole console_url) pasted. Signing in sets the session cookie
// (client.ts signIn), so every tab of this browser opens console links from then on.
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { configureClient, signIn } from '../../api/client.js';
import { ApiRequestError } from '../../api/errors.js';
import { sessionKeys } from '../../api/keys.js';
import { tokenFromPaste } from '../../api/token.js';
import { Field } from '../../components/Field.js';

export function SignInScreen({ stale }: { stale: boolean }) {
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const token = tokenFromPaste(text);
    if (!token) return setError('Paste the token, or the whole console link.');
    setBusy(true);
    try {
      await signIn(token);
      configureClient({ consoleToken: token });
      await qc.resetQueries({ queryKey: sessionKeys.all });
    } catch (err) {
      setBusy(false);
      const wrong = err instanceof ApiRequestError && err.status === 401;
      setError(wrong ? 'That is not the token of this run of Countersign. Copy the newest console link.' : (err as Error).message);
    }
  };

  return (
    <main className="gate" id="main">
      <form className="gate-card" onSubmit={submit} noValidate>
        <h1>{stale ? 'This console link is no longer valid' : 'Sign in to the console'}</h1>
        <p>
          {stale ? 'Countersign was restarted or the link is from another run. ' : ''}
          Open the console link printed when Countersign starts (the <code>console_url</code> of its ready line; the desktop window opens it
          by itself), or paste that link or its token here. This browser then opens every console link, in any tab, until it is closed or
          Countersign restarts.
        </p>
        <Field label="Console link or token" error={error}>
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(undefined);
            }}
            autoFocus
          />
        </Field>
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </div>
      </form>
    </main>
  );
}
